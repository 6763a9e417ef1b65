use contract_runtime::Contract;

#[derive(Contract, serde::Deserialize)]
pub struct Ticket {
    #[serde(default)]
    pub priority: u8,
}

fn main() {}
