use contract_runtime::Contract;

#[derive(Contract)]
pub struct TicketId(pub u64);

fn main() {}
