//! Declare what JSON from a language model must look like, and what it may
//! change, as a Rust type; the derive checks the declaration at compile time.
#![deny(missing_docs)]

// Lets the derive's `::contract_runtime::…` paths work inside this crate's own tests.
#[allow(unused_extern_crates)]
extern crate self as contract_runtime;

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
