use contract_runtime::Contract;

#[derive(Contract, serde::Deserialize)]
#[serde(tag = "type")]
#[contract(tag = "action")]
pub enum Step {
    Close { reason: String },
}

fn main() {}
