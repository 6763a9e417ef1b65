use contract_runtime::Contract;

#[derive(Contract)]
pub struct Ticket {
    pub id: u64,
    #[contract(rename = "id")]
    pub external_id: String,
}

fn main() {}
