//! Declare what JSON from a language model must look like — and what it may
//! change — as a Rust type; `#[derive(Contract)]` checks the declaration at
//! compile time and generates the JSON Schema, a strict decoder, the
//! cross-field rules and the edit policies.
//!
//! ```
//! use contract_runtime::{Contract, Date, OutcomeKind};
//!
//! /// A vacation request extracted from an employee's message.
//! #[derive(Contract, Debug)]
//! #[contract(
//!     outcome = status,
//!     when(status = Status::Complete, require(start_date, end_date)),
//!     order(start_date <= end_date),
//! )]
//! struct VacationRequest {
//!     status: Status,
//!     start_date: Option<Date>,
//!     end_date: Option<Date>,
//! }
//!
//! #[derive(Contract, Debug, Clone, Copy, PartialEq)]
//! #[contract(rename_all = "snake_case")]
//! enum Status { Complete, #[contract(clarify)] NeedsClarification }
//!
//! let ok = VacationRequest::check(r#"{"status":"complete","start_date":"2027-06-01","end_date":"2027-06-12"}"#);
//! assert_eq!(ok.kind(), OutcomeKind::Accept);
//!
//! let bad = VacationRequest::check(r#"{"status":"complete","start_date":"2027-06-12","end_date":"2027-06-01"}"#);
//! let rejection = bad.rejection().unwrap();
//! assert_eq!((rejection.errors[0].pointer.as_str(), rejection.errors[0].code), ("/end_date", "order"));
//! ```
//!
//! # The stages
//!
//! 1. **parse** ([`json`]): size and depth limits, UTF-8, no byte-order mark,
//!    no NaN/Infinity, no trailing data, no lone surrogates, no duplicate keys
//!    at any depth, numbers that fit an f64. The first failure stops.
//! 2. **schema** ([`decode`]): every declared key present (nullable ones too,
//!    unless `optional`), no unknown keys, no coercion, bounds, lengths in
//!    Unicode scalar values, `equals`, `one_of`, strict dates. Every error is
//!    collected (up to [`error::MAX_ERRORS`]).
//! 3. **rule**: `when(..)` and `order(..)`, run only on a schema-valid value;
//!    every rule runs.
//! 4. **business** ([`Contract::check_with`] only): `evidence` and the
//!    `check` function, against a trusted context the model cannot choose.
//! 5. **edit** ([`EditPolicy`]): the pointers a proposed document changed must
//!    all be in the policy.
//!
//! Errors are data ([`Error`]: stage, RFC 6901 pointer, stable code,
//! message); [`Rejection::feedback`] renders them for a retry prompt without
//! values or context; [`retry`] drives a bounded retry loop.
//!
//! # Decisions worth knowing
//!
//! - The decoder is a purpose-built pull scanner driven by generated code (see
//!   [`decode`] for why), not `serde`: it must collect every error in one
//!   pass, catch duplicates after unescaping, and tell `7` from `7.0`.
//! - An integer literal is a valid float; a float literal is never an
//!   integer. A number that overflows f64 is a parse error; one that merely
//!   does not fit the field's type is a schema error.
//! - Outcome precedence: reject, then review (quarantined fields, review
//!   reasons), then the `outcome` field's `clarify`/`decline`, then accept.
//! - `quarantine` drops a *value failure* of the field to `None` plus a
//!   review reason: a value of the right JSON type that fails its checks (a
//!   bound, a length, `equals`, `one_of`, a string that is not a strict date,
//!   a number the Rust type cannot hold, such as `300` for a `u8`), an
//!   `evidence` quote that is not in the source, a review reason the `check`
//!   function gives for the field. A *structural* error still rejects, as
//!   for any other field: a wrong JSON type (`7` for a date, `[]` for a
//!   string, `7.5` or `7.0` for an integer, whose schema type is `integer`),
//!   a missing key, an unknown key. Inside a quarantined list or nested
//!   contract the same split holds at any depth: a wrong type anywhere in it
//!   rejects the document; otherwise a value failure anywhere in it drops the
//!   whole value (one review reason per failure). The `when`/`order` rules of
//!   a quarantined nested contract run after decoding and still reject.
//! - An `evidence` quote that is empty or only whitespace is no evidence
//!   (`evidence_not_found`), although it occurs in every text; surrounding
//!   whitespace is kept and must occur verbatim too.
//! - Business checks and `evidence` run for the root contract's own fields;
//!   a nested contract's `check` is not called (its context type may differ).
//! - Schemas keep field order (`serde_json`'s `preserve_order`): providers
//!   generate keys in schema order, which matters to a model.
//!
//! # Dependencies
//!
//! `serde`/`serde_json` (schemas, values, serializing errors), `sha2`
//! (fingerprints and idempotency keys), and the derive (`syn`, `quote`,
//! `proc-macro2`). Optional features `chrono`, `jiff` and `time` decode those
//! crates' date types with the same strict rule as [`Date`].
#![deny(missing_docs)]

// Lets the derive's `::contract_runtime::…` paths work inside this crate's own tests.
#[allow(unused_extern_crates)]
extern crate self as contract_runtime;

pub mod code;
pub mod compat;
mod contract;
pub mod date;
pub mod decode;
pub mod diff;
pub mod edit;
pub mod error;
pub mod feedback;
pub mod fingerprint;
pub mod json;
pub mod outcome;
pub mod pointer;
pub mod report;
pub mod retry;
pub mod schema;
pub mod shape;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use contract::{Contract, OutcomeEnum, decode_document};
pub use contract_macros::Contract;
pub use date::{Date, DateError};
pub use edit::{Edit, EditPolicy, StaleBaseline};
pub use error::{Error, Rejection, Stage};
pub use feedback::{Feedback, FeedbackItem};
pub use fingerprint::{Fingerprint, IdempotencyKey};
pub use json::Limits;
pub use outcome::{Outcome, OutcomeKind, Violation, ViolationKind, Violations};

/// The source text that `#[contract(evidence)]` fields must quote verbatim:
/// implement it on the contract's context type.
#[diagnostic::on_unimplemented(
    message = "`evidence` fields need the source text: implement `contract_runtime::EvidenceSource` for `{Self}`",
    label = "the context type must provide the source text"
)]
pub trait EvidenceSource {
    /// The text the model read (an e-mail, a transcript).
    fn source_text(&self) -> &str;
}
