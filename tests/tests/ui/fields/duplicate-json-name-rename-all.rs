use contract_runtime::Contract;

#[derive(Contract)]
#[contract(rename_all = "camelCase")]
pub struct Ticket {
    pub ticket_id: u64,
    #[contract(rename = "ticketId")]
    pub legacy_id: String,
}

fn main() {}
