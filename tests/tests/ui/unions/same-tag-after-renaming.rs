use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tag = "action", rename_all = "snake_case")]
pub enum Step {
    CloseTicket { ticket_id: u64 },
    #[contract(rename = "close_ticket")]
    Close { reason: String },
}

fn main() {}
