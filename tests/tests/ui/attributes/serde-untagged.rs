use contract_runtime::Contract;

#[derive(Contract, serde::Deserialize)]
#[serde(untagged)]
#[contract(tag = "kind")]
pub enum Step {
    Close { ticket_id: u64 },
    Wait { minutes: u32 },
}

fn main() {}
