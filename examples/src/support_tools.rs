//! The tools a support assistant may call (`support-tools`): a
//! `#[contract(tools)]` enum, each variant one tool, its members the
//! arguments. A model's parallel calls are checked as one batch, all or
//! nothing: `contract-check support-tools FILE --calls` reads one batch per
//! line, `[{"id","name","arguments"}]`, the arguments as OpenAI's JSON
//! string or as Anthropic's and MCP's object.
//!
//! ```
//! use contract_examples::support_tools::SupportTool;
//! use contract_runtime::OutcomeKind;
//! use contract_runtime::tools::{Call, Tools};
//!
//! let call = SupportTool::check_call("close_ticket", r#"{"ticket_id": 7, "reason": "done"}"#);
//! assert_eq!(call.kind(), OutcomeKind::Accept);
//!
//! // Two refunds in one turn: the second is past the tool's `max_calls`,
//! // and the whole batch is refused before anything runs.
//! let refund = r#"{"order_id": 9, "refund_cents": 500, "order_total_cents": 900}"#;
//! let batch = SupportTool::check_calls(&[
//!     Call { id: "a", name: "refund", arguments: refund },
//!     Call { id: "b", name: "refund", arguments: refund },
//! ]);
//! let rejection = batch.rejection().unwrap();
//! assert_eq!((rejection.errors[0].pointer.as_str(), rejection.errors[0].code), ("/1", "too_many_calls"));
//! ```
use contract_runtime::Contract;

/// What the support assistant may do.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tools, rename_all = "snake_case", max_calls = 4)]
pub enum SupportTool {
    /// Close a resolved ticket.
    CloseTicket {
        /// The ticket to close.
        #[contract(min = 1)]
        ticket_id: u64,
        /// Why it is resolved, for the customer.
        #[contract(min_len = 1, max_len = 200)]
        reason: String,
    },
    /// Refund part of an order (at most one refund per turn).
    #[contract(max_calls = 1)]
    Refund(Refund),
    /// Ask the customer a question first.
    #[contract(clarify)]
    AskCustomer {
        /// The question, as the customer will read it.
        #[contract(min_len = 1, max_len = 300)]
        question: String,
    },
    /// List the customer's open tickets (no arguments).
    ListOpenTickets,
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
