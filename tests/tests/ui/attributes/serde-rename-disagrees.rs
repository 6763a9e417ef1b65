use contract_runtime::Contract;

#[derive(Contract, serde::Deserialize)]
pub struct Ticket {
    #[serde(rename = "ticketId")]
    #[contract(rename = "ticket_id")]
    pub id: u64,
}

fn main() {}
