//! Seed 004: a vacation request extracted from an employee's message
//! (`vacation`), declared exactly as `shared/DESIGN.md` does.
//!
//! `complete` → accept, `needs_clarification` → clarify, `not_a_request` →
//! decline; any failure → reject. Whenever both dates are present,
//! `end_date >= start_date` (stricter than the article, which checks the
//! order only for `complete`).
//!
//! ```
//! use contract_examples::vacation::VacationRequest;
//! use contract_runtime::Contract;
//!
//! let o = VacationRequest::check(
//!     r#"{"status":"complete","start_date":"2027-06-12","end_date":"2027-06-14","clarification_question":null}"#,
//! );
//! assert_eq!(o.kind().as_str(), "accept");
//!
//! let o = VacationRequest::check(
//!     r#"{"status":"complete","start_date":"2027-02-30","end_date":"2027-6-1","clarification_question":null}"#,
//! );
//! assert_eq!(o.rejection().unwrap().pointers(), ["/start_date", "/end_date"]);
//! ```
use contract_runtime::{Contract, Date};

/// A vacation request extracted from an employee's message.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    max_bytes = 4096,
    outcome = status,
    when(status = Status::Complete, require(start_date, end_date), forbid(clarification_question)),
    when(status = Status::NeedsClarification, require(clarification_question)),
    when(status = Status::NotARequest, forbid(start_date, end_date)),
    order(start_date <= end_date),
)]
pub struct VacationRequest {
    /// Whether the message is a complete request, needs a question answered
    /// first, or is not a vacation request at all.
    pub status: Status,
    /// The first day of leave (`YYYY-MM-DD`), only if the message states it.
    pub start_date: Option<Date>,
    /// The last day of leave (`YYYY-MM-DD`), only if the message states it.
    pub end_date: Option<Date>,
    /// The question to ask the employee when information is missing.
    #[contract(min_len = 1, max_len = 500)]
    pub clarification_question: Option<String>,
}

/// What the model concluded about the message.
#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
pub enum Status {
    /// A request with both dates.
    Complete,
    /// A request that needs a question answered first.
    #[contract(clarify)]
    NeedsClarification,
    /// Not a vacation request.
    #[contract(decline)]
    NotARequest,
}
