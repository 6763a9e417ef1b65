use contract_runtime::Contract;

pub struct Desk {
    pub closable_ticket_ids: Vec<String>,
}

#[derive(Contract)]
#[contract(context = Desk)]
pub struct CloseTicket {
    #[contract(min = 1, one_of = ctx.closable_ticket_ids)]
    pub ticket_id: u64,
}

fn main() {}
