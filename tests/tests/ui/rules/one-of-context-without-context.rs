use contract_runtime::Contract;

#[derive(Contract)]
pub struct CloseTicket {
    #[contract(min = 1, one_of = ctx.closable_ticket_ids)]
    pub ticket_id: u64,
}

fn main() {}
