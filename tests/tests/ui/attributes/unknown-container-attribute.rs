use contract_runtime::Contract;

#[derive(Contract)]
#[contract(max_size = 4096)]
pub struct Ticket {
    pub id: u64,
}

fn main() {}
