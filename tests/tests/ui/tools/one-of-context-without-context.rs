use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tools, rename_all = "snake_case")]
pub enum DeskTool {
    /// Close a ticket the desk may close.
    CloseTicket {
        #[contract(min = 1, one_of = ctx.closable)]
        ticket_id: u64,
    },
    /// Wait for the customer.
    Wait,
}

fn main() {}
