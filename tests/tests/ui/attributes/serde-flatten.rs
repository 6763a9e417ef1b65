use contract_runtime::Contract;

#[derive(Contract, serde::Deserialize)]
pub struct Ticket {
    #[serde(flatten)]
    pub meta: Meta,
}

#[derive(Contract, serde::Deserialize)]
pub struct Meta {
    pub id: u64,
}

fn main() {}
