//! What a checked document leads to: accept, clarify, decline, review or reject.
use std::fmt;

use crate::error::Rejection;

/// The five decisions, as a plain tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum OutcomeKind {
    /// Act on the value.
    Accept,
    /// The model asks the user a question (an `outcome` variant marked `clarify`).
    Clarify,
    /// The model says the input is not a request (a variant marked `decline`).
    Decline,
    /// A person should look first (quarantined fields, review reasons).
    Review,
    /// The document failed a check.
    Reject,
}

impl OutcomeKind {
    /// `"accept"`, `"clarify"`, `"decline"`, `"review"` or `"reject"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            OutcomeKind::Accept => "accept",
            OutcomeKind::Clarify => "clarify",
            OutcomeKind::Decline => "decline",
            OutcomeKind::Review => "review",
            OutcomeKind::Reject => "reject",
        }
    }
}

impl fmt::Display for OutcomeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The decision on one document, with the typed value unless rejected.
///
/// Precedence: reject, then review, then the `outcome` field's variant
/// (clarify / decline), then accept. A review carries at most one reason per
/// pointer: the first found, from the earliest check.
///
/// ```
/// use contract_runtime::Contract;
///
/// #[derive(Contract, Debug)]
/// struct Reply {
///     #[contract(max_len = 20)]
///     text: String,
/// }
///
/// let outcome = Reply::check(r#"{"text": "hello"}"#);
/// assert_eq!(outcome.kind().as_str(), "accept");
/// let outcome = Reply::check(r#"{"text": 7}"#);
/// assert_eq!(outcome.kind().as_str(), "reject");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome<T> {
    /// Passed every check.
    Accept(T),
    /// Passed; the model asks for clarification.
    Clarify(T),
    /// Passed; the model declines.
    Decline(T),
    /// Passed structurally; a person should review, for these reasons.
    Review {
        /// The value (quarantined fields set to `None`).
        value: T,
        /// Why a review is needed, one reason each.
        reasons: Vec<Violation>,
    },
    /// Failed.
    Reject(Rejection),
}

impl<T> Outcome<T> {
    /// The decision's tag.
    pub fn kind(&self) -> OutcomeKind {
        match self {
            Outcome::Accept(_) => OutcomeKind::Accept,
            Outcome::Clarify(_) => OutcomeKind::Clarify,
            Outcome::Decline(_) => OutcomeKind::Decline,
            Outcome::Review { .. } => OutcomeKind::Review,
            Outcome::Reject(_) => OutcomeKind::Reject,
        }
    }

    /// The value, unless rejected.
    pub fn value(&self) -> Option<&T> {
        match self {
            Outcome::Accept(v) | Outcome::Clarify(v) | Outcome::Decline(v) => Some(v),
            Outcome::Review { value, .. } => Some(value),
            Outcome::Reject(_) => None,
        }
    }

    /// The value, unless rejected.
    pub fn into_value(self) -> Option<T> {
        match self {
            Outcome::Accept(v) | Outcome::Clarify(v) | Outcome::Decline(v) => Some(v),
            Outcome::Review { value, .. } => Some(value),
            Outcome::Reject(_) => None,
        }
    }

    /// The rejection, if rejected.
    pub fn rejection(&self) -> Option<&Rejection> {
        match self {
            Outcome::Reject(r) => Some(r),
            _ => None,
        }
    }

    /// The review reasons (empty unless `review`).
    pub fn reasons(&self) -> &[Violation] {
        match self {
            Outcome::Review { reasons, .. } => reasons,
            _ => &[],
        }
    }

    /// Whether the decision is `accept`.
    pub fn is_accept(&self) -> bool {
        matches!(self, Outcome::Accept(_))
    }

    /// Whether the decision is `reject`.
    pub fn is_reject(&self) -> bool {
        matches!(self, Outcome::Reject(_))
    }
}

/// Whether a [`Violation`] rejects the document or asks for review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ViolationKind {
    /// A business-stage error: the document is rejected.
    Business,
    /// Not an error: the outcome becomes `review` with this reason.
    Review,
}

impl ViolationKind {
    // The name as serialized.
    const fn as_str(self) -> &'static str {
        match self {
            ViolationKind::Business => "business",
            ViolationKind::Review => "review",
        }
    }
}

/// What a `check` function (or a quarantined field) reports.
///
/// ```
/// use contract_runtime::Violation;
///
/// let v = Violation::business("/ticket_id", "ticket_not_found", "no such ticket for this tenant");
/// assert_eq!(v.pointer, "/ticket_id");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Rejects, or asks for review.
    pub kind: ViolationKind,
    /// RFC 6901 pointer of the field concerned.
    pub pointer: String,
    /// A stable snake_case code.
    pub code: &'static str,
    /// A human-readable explanation.
    pub message: String,
}

impl Violation {
    /// A business-stage error: the document is rejected.
    pub fn business(pointer: &str, code: &'static str, message: impl Into<String>) -> Self {
        Violation {
            kind: ViolationKind::Business,
            pointer: pointer.to_owned(),
            code,
            message: message.into(),
        }
    }

    /// A reason for review: the outcome becomes `review`, not `reject`.
    pub fn review(pointer: &str, code: &'static str, message: impl Into<String>) -> Self {
        Violation {
            kind: ViolationKind::Review,
            pointer: pointer.to_owned(),
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at {}: {} ({})",
            match self.kind {
                ViolationKind::Business => "business error",
                ViolationKind::Review => "review",
            },
            self.pointer,
            self.message,
            self.code
        )
    }
}

/// One or more violations: what a `check` function's error converts into
/// (`Violation` and `Vec<Violation>` both do).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Violations(pub Vec<Violation>);

impl From<Violation> for Violations {
    fn from(v: Violation) -> Self {
        Violations(vec![v])
    }
}

impl From<Vec<Violation>> for Violations {
    fn from(v: Vec<Violation>) -> Self {
        Violations(v)
    }
}

crate::serial::unit_variants!(OutcomeKind);
crate::serial::unit_variants!(ViolationKind);
crate::serial::struct_fields!(Violation {
    kind,
    pointer,
    code,
    message
});
