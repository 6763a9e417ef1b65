use contract_runtime::Contract;

#[derive(Contract)]
pub struct Ticket {
    pub id: u128,
}

fn main() {}
