//! An agent's next step, as a tagged union (`step`): close a ticket, refund
//! part of an order, ask the customer, or do nothing. The tag `action` picks
//! the variant; each variant's members are checked as a struct's, and the
//! variant's `clarify`/`decline` decides the outcome.
//!
//! ```
//! use contract_examples::step::Step;
//! use contract_runtime::{Contract, OutcomeKind};
//!
//! // The tag may come anywhere in the object.
//! let step = Step::check(r#"{"ticket_id":7,"reason":"done","action":"close_ticket"}"#);
//! assert_eq!(step.kind(), OutcomeKind::Accept);
//!
//! let refund = Step::check(r#"{"action":"refund","order_id":9,"refund_cents":900,"order_total_cents":500}"#);
//! let rejection = refund.rejection().unwrap();
//! assert_eq!((rejection.errors[0].pointer.as_str(), rejection.errors[0].code), ("/order_total_cents", "order"));
//! ```
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

/// A partial refund: never more than the order's total.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(order(refund_cents <= order_total_cents))]
pub struct Refund {
    /// The order to refund.
    pub order_id: u64,
    /// How much to refund, in cents.
    pub refund_cents: u32,
    /// The order's total, in cents.
    pub order_total_cents: u32,
}
