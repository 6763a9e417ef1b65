use contract_runtime::Contract;

pub struct Desk {
    pub closable_ticket_ids: Vec<u64>,
}

#[derive(Contract)]
#[contract(context = Desk)]
pub struct CloseTicket {
    #[contract(one_of = ctx.closable_tickets)]
    pub ticket_id: u64,
}

fn main() {}
