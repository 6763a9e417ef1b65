use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tools, rename_all = "snake_case")]
pub enum Tool {
    CloseTicket { reason: String },
    #[contract(rename = "close_ticket")]
    Close { reason: String },
}

fn main() {}
