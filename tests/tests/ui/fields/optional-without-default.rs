use contract_runtime::Contract;

#[derive(Contract)]
pub struct Ticket {
    #[contract(optional)]
    pub priority: u8,
}

fn main() {}
