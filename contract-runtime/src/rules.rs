//! The rule stage's errors: `when(..)` and `order(..)`, recorded by the
//! generated `rules` of a contract once its value passed the schema stage.
use serde_json::Value;

use crate::code;
use crate::core::Collector;
use crate::error::Stage;
use crate::json::Path;

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

/// Records a `when` rule violation at the field `name` below `path`.
#[cold]
#[inline(never)]
pub fn when_error(
    cx: &mut Collector,
    path: &Path<'_>,
    name: &str,
    kind: WhenKind,
    condition_field: &str,
    condition_value: Value,
) {
    let (what, expected) = match kind {
        WhenKind::Required => ("must not be null", "a non-null value under this condition"),
        WhenKind::Forbidden => ("must be null", "null under this condition"),
    };
    let message = format!("{what} when `{condition_field}` is {condition_value}");
    cx.error(Stage::Rule, &path.key(name), kind.code(), message, expected);
}

/// Records an `order(first <= second)` violation at `second`.
#[cold]
#[inline(never)]
pub fn order_error(cx: &mut Collector, path: &Path<'_>, first: &str, second: &str, strict: bool) {
    let message = if strict {
        format!("must be after `{first}`")
    } else {
        format!("must not be before `{first}`")
    };
    let expected = if strict {
        "a value greater than the earlier field"
    } else {
        "a value greater than or equal to the earlier field"
    };
    cx.error(
        Stage::Rule,
        &path.key(second),
        code::ORDER,
        message,
        expected,
    );
}
