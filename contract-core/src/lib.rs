//! The engine of [`contract-runtime`](https://docs.rs/contract-runtime):
//! the decoder, schemas and exports, rules, edits, streams and tool calls
//! that `#[derive(Contract)]` generates code against. Depend on
//! `contract-runtime`, not on this crate: it re-exports every item here at
//! the same path (`contract_runtime::stream::Stream` is
//! `contract_core::stream::Stream`) together with the derive, and its
//! docs are the guide. The two are one crate split in two so that a clean
//! build compiles this one while the derive (and `syn`) compile, instead
//! of after them (the figures are in the repository's BENCHMARKS.md).
//!
#![doc = include_str!("layers.md")]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// Lets the derive's `::contract_runtime::…` paths work inside this crate's
// own unit tests (doctests and the other test targets use the facade).
#[cfg(test)]
#[allow(unused_extern_crates)]
extern crate self as contract_runtime;

// `serde` in this crate's code is serde_core, the crate whose traits serde
// re-exports (the same traits): a build without `cli` compiles no `serde`
// facade. `cli` (serde's derive) and the unit tests (a dev-dependency) have
// serde itself.
#[cfg(not(any(feature = "cli", test)))]
extern crate serde_core as serde;

mod business;
mod checked;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub mod cli;
pub mod code;
pub mod compat;
mod contract;
pub mod date;
mod decode;
mod describe;
pub mod diff;
pub mod edit;
mod encode;
pub mod error;
pub mod feedback;
pub mod fingerprint;
pub mod json;
mod json_type;
pub mod outcome;
mod pipeline;
pub mod pointer;
pub mod report;
pub mod retry;
mod rules;
pub mod schema;
mod serial;
mod shape;
mod stack;
pub mod stream;
pub mod tools;

/// The checks of `#[contract(format = "..")]`, as functions: the same rules
/// the decoder applies to a field (codes `invalid_email`, `invalid_uuid`).
pub mod formats {
    pub use crate::decode::{is_email, is_uuid};
}

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use checked::Checked;
pub use contract::{BorrowedContract, Contract};
// The unit tests' `use crate::Contract` brings the derive too, as
// `use contract_runtime::Contract` does.
#[cfg(test)]
use contract_macros::Contract;
pub use date::{Date, DateError, DateTime, DateTimeError};
pub use edit::{Edit, EditPolicy, StaleBaseline};
pub use error::{Error, Rejection, Stage};
pub use feedback::{Feedback, FeedbackItem};
pub use fingerprint::{Fingerprint, IdempotencyKey};
pub use json::Limits;
pub use outcome::{Outcome, OutcomeKind, Violation, ViolationKind, Violations};
/// The provider an export is for, at the root as the README writes it
/// (also `schema::Provider`).
///
/// ```
/// use contract_runtime::{Contract, Provider};
///
/// #[derive(Contract, Debug)]
/// struct Note {
///     #[contract(min_len = 1, max_len = 200)]
///     text: String,
/// }
///
/// let export = Note::json_schema_for(Provider::OpenAi).unwrap();
/// assert_eq!(export.provider, Provider::OpenAi);
/// assert_eq!(export.schema["properties"]["text"]["type"], "string");
/// assert_eq!("gemini".parse::<Provider>().ok(), Some(Provider::Gemini));
/// ```
pub use schema::Provider;

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
