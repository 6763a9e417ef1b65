use contract_runtime::Contract;

#[derive(Contract)]
pub struct Ticket {
    #[contract(minimum = 1)]
    pub id: u64,
}

fn main() {}
