use contract_runtime::Contract;

pub struct TicketId(pub u64);

#[derive(Contract)]
pub struct Ticket {
    pub id: TicketId,
}

fn main() {}
