//! Seed 004: a vacation request extracted from an employee's message
//! (`vacation`): the contract of the README's quick start, plus the rule
//! that a message that is not a request carries no dates.
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
//!
//! The seed's contract declares no `version`, so it is version 1
//! (`Contract::VERSION`'s default) and its schema carries no
//! `x-contract-version`. [`v2`] is a second version, for the compatibility
//! check (`contract-check --compat`); both schemas are shipped as
//! `examples/data/vacation.v1.schema.json` and `vacation.v2.schema.json`.
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

/// Version 2 of the vacation contract: what a later release might ship.
///
/// Two changes from version 1, one in each direction:
///
/// - a new optional field, `half_day` (the key may be absent): documents
///   written for version 1 still pass, but a version-1 reader refuses a
///   version-2 document that has the key (**breaks forward**);
/// - `clarification_question` is at most 300 characters instead of 500: a
///   stored version-1 question of 301 to 500 characters no longer passes
///   (**breaks backward**).
///
/// ```
/// use contract_examples::vacation::{self, v2};
/// use contract_runtime::Contract;
/// use contract_runtime::compat::{diff, ChangeKind};
///
/// let changes = diff(
///     &vacation::VacationRequest::json_schema(),
///     &v2::VacationRequest::json_schema(),
/// );
/// let kinds: Vec<_> = changes.iter().map(|c| c.kind).collect();
/// assert_eq!(kinds, [ChangeKind::BoundTightened, ChangeKind::FieldAdded]);
///
/// let old = r#"{"status":"complete","start_date":"2027-06-12","end_date":"2027-06-14","clarification_question":null}"#;
/// assert_eq!(v2::VacationRequest::check(old).kind().as_str(), "accept");
/// ```
pub mod v2 {
    use contract_runtime::{Contract, Date};

    pub use super::Status;

    /// A vacation request extracted from an employee's message.
    #[derive(Contract, Debug, Clone, PartialEq)]
    #[contract(
        version = 2,
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
        #[contract(min_len = 1, max_len = 300)]
        pub clarification_question: Option<String>,
        /// Whether only the afternoon of the first day is taken; leave the key
        /// out (or write `null`) when the message does not say.
        #[contract(optional)]
        pub half_day: Option<bool>,
    }
}
