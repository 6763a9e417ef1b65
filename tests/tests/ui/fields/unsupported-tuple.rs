use contract_runtime::Contract;

#[derive(Contract)]
pub struct Ticket {
    pub range: (u32, u32),
}

fn main() {}
