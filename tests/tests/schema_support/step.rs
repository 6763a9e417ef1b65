//! DESIGN.md's tagged union example, declared exactly as there (the union
//! tests, the schema snapshot and the schema agreement test share it).
use contract_runtime::Contract;

/// What the assistant wants to do next.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "action", rename_all = "snake_case", max_bytes = 4096)]
pub enum Step {
    /// Close a resolved ticket.
    CloseTicket {
        #[contract(min = 1)]
        ticket_id: u64,
        #[contract(min_len = 1, max_len = 200)]
        reason: String,
    },
    /// Refund part of an order (the struct's members sit beside the tag).
    Refund(Refund),
    /// Ask the customer first.
    #[contract(clarify)]
    AskCustomer {
        #[contract(min_len = 1, max_len = 300)]
        question: String,
    },
    /// Nothing to do: an object holding only the tag.
    #[contract(decline)]
    NoAction,
}

#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(order(refund_cents <= order_total_cents))]
pub struct Refund {
    pub order_id: u64,
    pub refund_cents: u32,
    pub order_total_cents: u32,
}
