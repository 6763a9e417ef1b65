use contract_runtime::Contract;

#[derive(Contract)]
pub struct Ticket {
    #[contract(default)]
    pub priority: u8,
}

fn main() {}
