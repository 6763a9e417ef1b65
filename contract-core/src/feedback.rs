//! A rendering of a [`Rejection`] that is safe to send back to the model for
//! a bounded retry: pointers, codes and what was expected — never the
//! rejected values, never an error's free-text message (a `check` function
//! may have put trusted context there). The expectations are the
//! contract's words: the declared range or bound, the other field of an
//! `order`, the condition of a `when` (its value is one the contract
//! declares), the variants of a missing tag.
use std::fmt;

use crate::code;
use crate::error::{Rejection, Stage};

/// What to tell the model about one error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedbackItem {
    /// The check that failed.
    pub stage: Stage,
    /// Where (an RFC 6901 pointer into the model's own output).
    pub pointer: String,
    /// The stable code.
    pub code: &'static str,
    /// What was expected, in words that quote no input and no context.
    pub expected: String,
}

/// The redacted form of a rejection, for a retry prompt.
///
/// ```
/// use contract_runtime::Contract;
///
/// #[derive(Contract, Debug)]
/// struct Answer {
///     #[contract(min = 1)]
///     ticket_id: u64,
/// }
///
/// let rejection = Answer::from_json(r#"{"ticket_id": "secret-7"}"#).unwrap_err();
/// let text = rejection.feedback().to_string();
/// assert!(text.contains("/ticket_id"));
/// assert!(!text.contains("secret-7"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    /// One item per error kept in the rejection.
    pub items: Vec<FeedbackItem>,
    /// Errors found but not listed.
    pub omitted: usize,
    /// Whether reading stopped at the errors listed
    /// ([`Rejection::truncated`], from
    /// [`Contract::from_json_first`](crate::Contract::from_json_first)): the
    /// rest of the output was not checked and may hold more problems.
    pub truncated: bool,
}

// A description for codes whose error carries no `expected` text.
fn generic_expectation(code: &str, stage: Stage) -> &'static str {
    match (stage, code) {
        (Stage::Parse, _) => "well-formed JSON (RFC 8259) without duplicate keys",
        (_, code::UNKNOWN_KEY) => "only the keys the schema declares",
        (_, code::MISSING_KEY) => "the key present",
        (Stage::Business, _) => "a value consistent with the application's records",
        (Stage::Edit, _) => "no change at this pointer",
        _ => "a value that satisfies the schema",
    }
}

impl Rejection {
    /// The redacted rendering to send back to a model (see [`Feedback`]).
    pub fn feedback(&self) -> Feedback {
        let items = self
            .errors
            .iter()
            .map(|e| FeedbackItem {
                stage: e.stage,
                pointer: e.pointer.as_str().to_owned(),
                code: e.code,
                expected: if e.expected.is_empty() {
                    generic_expectation(e.code, e.stage).to_owned()
                } else {
                    e.expected.clone().into_owned()
                },
            })
            .collect();
        Feedback {
            items,
            omitted: self.omitted,
            truncated: self.truncated,
        }
    }
}

impl fmt::Display for Feedback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "The previous output was rejected. Answer again with one JSON document that fixes these problems:"
        )?;
        for item in &self.items {
            let at = if item.pointer.is_empty() {
                "the whole document"
            } else {
                &item.pointer
            };
            writeln!(
                f,
                "- at {at}: {} ({} stage); expected {}",
                item.code, item.stage, item.expected
            )?;
        }
        if self.omitted > 0 {
            let problems = if self.omitted == 1 {
                "problem"
            } else {
                "problems"
            };
            writeln!(
                f,
                "- and {} more {problems} of the same kinds",
                self.omitted
            )?;
        }
        if self.truncated {
            writeln!(
                f,
                "- checking stopped at these problems: the rest of the output was not checked and may have more"
            )?;
        }
        Ok(())
    }
}

crate::serial::struct_fields!(FeedbackItem {
    stage,
    pointer,
    code,
    expected
});
crate::serial::struct_fields!(Feedback {
    items,
    omitted if crate::serial::is_zero,
    truncated if crate::serial::is_false,
});
