//! The rule stage's errors: `when(..)` and `order(..)`, recorded by the
//! generated `rules` of a contract once its value passed the schema stage.
use std::borrow::Cow;
use std::sync::OnceLock;

use serde_json::Value;

use crate::code;
use crate::error::{Error, Stage};
use crate::json::Path;
use crate::json_type::Collector;

/// What a `when(..)` rule asks of a field under its condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenKind {
    /// `require(..)`: the field must not be null.
    Required,
    /// `forbid(..)`: the field must be null.
    Forbidden,
}

impl WhenKind {
    /// The error code of a violation.
    pub const fn code(self) -> &'static str {
        match self {
            WhenKind::Required => code::REQUIRED,
            WhenKind::Forbidden => code::FORBIDDEN,
        }
    }
}

/// The words of one rule's error, its message and expectation, written on
/// the rule's first violation and kept for the life of the program: the
/// generated `rules` hold one per rule (and per condition value of a
/// `when`) in a `static`, so an error borrows its texts (`Cow::Borrowed`)
/// and a violation allocates nothing for them. They are the words of
/// `when_texts` and `order_texts`, which the stream's early rejection
/// also says.
#[derive(Debug, Default)]
pub struct RuleTexts(OnceLock<(String, String)>);

impl RuleTexts {
    /// Texts not written yet (what a `static` of generated code starts as).
    pub const fn new() -> Self {
        RuleTexts(OnceLock::new())
    }

    // The texts, written by `make` the first time.
    fn get(&'static self, make: impl FnOnce() -> (String, String)) -> (&'static str, &'static str) {
        let (message, expected) = self.0.get_or_init(make);
        (message, expected)
    }
}

/// Records a `when` rule violation at the field `name` below `path`: its
/// condition, on `condition_field`, matched the `at`-th of the values it
/// names, whose texts are `texts[at]` (the value itself, `condition_value`,
/// is encoded only to write them).
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub fn when_error(
    cx: &mut Collector,
    path: &Path<'_>,
    name: &str,
    kind: WhenKind,
    condition_field: &str,
    texts: &'static [RuleTexts],
    at: usize,
    condition_value: impl FnOnce() -> Value,
) {
    let make = || when_texts(kind, condition_field, &condition_value());
    let (message, expected): (Cow<'static, str>, Cow<'static, str>) = match texts.get(at) {
        Some(texts) => {
            let (message, expected) = texts.get(make);
            (Cow::Borrowed(message), Cow::Borrowed(expected))
        }
        None => {
            let (message, expected) = make();
            (Cow::Owned(message), Cow::Owned(expected))
        }
    };
    cx.push(
        Error::new(Stage::Rule, path.key(name).pointer(), kind.code(), message)
            .with_expected(expected),
    );
}

/// The message and the expectation of a `when` violation: the condition
/// named ("must be null when `status` is `not_a_request`"). The value is
/// one the contract declares (the condition matched it), so the texts
/// quote no input. The stream's early rejection says the same.
pub(crate) fn when_texts(
    kind: WhenKind,
    condition_field: &str,
    condition_value: &Value,
) -> (String, String) {
    // A string as its text, anything else as JSON.
    let value = match condition_value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let condition = format!("when `{condition_field}` is `{value}`");
    match kind {
        WhenKind::Required => (
            format!("must not be null {condition}"),
            format!("a non-null value {condition}"),
        ),
        WhenKind::Forbidden => (
            format!("must be null {condition}"),
            format!("null {condition}"),
        ),
    }
}

/// What the two fields of an `order` hold, for the words of its error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderKind {
    /// Dates or date-times: "before", "after".
    Time,
    /// Numbers: "at least", "greater than".
    Number,
    /// Strings, compared as Rust compares them: "sort before".
    Text,
}

/// Records an `order(first <= second)` violation at `second`
/// (`order(first < second)` when `strict`), with the rule's `texts`.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub fn order_error(
    cx: &mut Collector,
    path: &Path<'_>,
    first: &str,
    second: &str,
    strict: bool,
    kind: OrderKind,
    texts: &'static RuleTexts,
) {
    let (message, expected) = texts.get(|| order_texts(first, strict, kind));
    cx.push(
        Error::new(
            Stage::Rule,
            path.key(second).pointer(),
            code::ORDER,
            message,
        )
        .with_expected(expected),
    );
}

/// The message and the expectation of an `order` violation, naming the
/// other field in words that fit its type ("must not be before
/// `start_date`", "must be at least `min_price`"). The stream's early
/// rejection says the same.
pub(crate) fn order_texts(first: &str, strict: bool, kind: OrderKind) -> (String, String) {
    let (message, expected) = match (kind, strict) {
        (OrderKind::Time, false) => ("must not be before", "a value that is not before"),
        (OrderKind::Time, true) => ("must be after", "a value after"),
        (OrderKind::Number, false) => ("must be at least", "a number at least"),
        (OrderKind::Number, true) => ("must be greater than", "a number greater than"),
        (OrderKind::Text, false) => ("must not sort before", "a string that does not sort before"),
        (OrderKind::Text, true) => ("must sort after", "a string that sorts after"),
    };
    (
        format!("{message} `{first}`"),
        format!("{expected} `{first}`"),
    )
}
