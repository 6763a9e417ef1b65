//! What generated code names. Not public API: no stability promise.
pub use crate::__type_messages as type_messages;
pub use crate::code;
pub use crate::contract::{Contract, OutcomeEnum};
pub use crate::decode::{Cx, Field, TypeMessages, invalid_type, invalid_type_of, narrow_f32};
pub use crate::edit::EditPolicy;
pub use crate::error::Stage;
pub use crate::json::{KeySet, Limits, ParseError, Path, Peek, Reader, duplicate_key};
pub use crate::outcome::{OutcomeKind, Violation, ViolationKind, Violations};
pub use crate::schema::{RULES_KEY, SchemaGen, constrain, nullable};
pub use crate::shape::{Shape, Unresolved, resolve};
pub use core::option::Option::{self, None, Some};
pub use core::result::Result::{self, Err, Ok};
pub use serde_json::{Map, Value, json};
pub use std::format;
pub use std::string::String;
pub use std::vec::Vec;

/// Where a length falls against `min_len`/`max_len`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LenCheck {
    /// Below `min_len`.
    Short,
    /// Above `max_len`.
    Long,
    /// Within both bounds.
    Within,
}

/// Number of Unicode scalar values of a string, or items of a collection.
pub trait Length {
    /// The length `min_len`/`max_len` compare against.
    fn contract_len(&self) -> usize;

    /// Compares the length with both bounds at once.
    #[inline]
    fn check_len(&self, min: usize, max: usize) -> LenCheck {
        let len = self.contract_len();
        if len < min {
            LenCheck::Short
        } else if len > max {
            LenCheck::Long
        } else {
            LenCheck::Within
        }
    }
}

impl Length for String {
    #[inline]
    fn contract_len(&self) -> usize {
        self.chars().count()
    }

    #[inline]
    fn check_len(&self, min: usize, max: usize) -> LenCheck {
        // A string of `b` bytes has between `ceil(b / 4)` and `b` characters:
        // when both bounds hold for that range, nothing needs counting.
        let bytes = self.len();
        if bytes <= max && bytes.div_ceil(4) >= min {
            return LenCheck::Within;
        }
        let len = self.contract_len();
        if len < min {
            LenCheck::Short
        } else if len > max {
            LenCheck::Long
        } else {
            LenCheck::Within
        }
    }
}

impl<T> Length for Vec<T> {
    #[inline]
    fn contract_len(&self) -> usize {
        self.len()
    }
}

/// Records a schema-stage error.
#[cold]
#[inline(never)]
pub fn field_error(
    cx: &mut Cx,
    path: &Path<'_>,
    code: &'static str,
    message: &'static str,
    expected: &'static str,
) {
    cx.error(Stage::Schema, path, code, message, expected);
}

/// Records an unknown key (an error at the member's pointer) and skips its
/// value; a second occurrence of the same unknown key is a duplicate.
#[cold]
#[inline(never)]
pub fn unknown_key(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
    seen: &mut KeySet,
    at: usize,
    key: String,
) -> Result<(), ParseError> {
    // The key moves into the set and is borrowed back for the pointer.
    if let Err(key) = seen.insert_owned(key) {
        return Err(duplicate_key(at, path, &key));
    }
    let member = path.key(seen.last());
    cx.error(
        Stage::Schema,
        &member,
        "unknown_key",
        "this key is not part of the contract",
        "only the keys the schema declares",
    );
    r.skip_value(&member)
}

/// Records a declared key that is absent.
#[cold]
#[inline(never)]
pub fn missing_key(cx: &mut Cx, path: &Path<'_>, name: &str) {
    cx.error(
        Stage::Schema,
        &path.key(name),
        "missing_key",
        "this key is required (a nullable field must be present, with null)",
        "the key present",
    );
}

/// Records a string that names no variant.
#[cold]
#[inline(never)]
pub fn not_one_of(cx: &mut Cx, path: &Path<'_>, message: &'static str, expected: &'static str) {
    cx.error(Stage::Schema, path, "not_one_of", message, expected);
}

/// Records a `when` rule violation at the field `name` below `path`.
#[cold]
#[inline(never)]
pub fn rule_error(
    cx: &mut Cx,
    path: &Path<'_>,
    name: &str,
    code: &'static str,
    condition_field: &str,
    condition_value: Value,
) {
    let what = if code == "required" {
        "must not be null"
    } else {
        "must be null"
    };
    let message = format!("{what} when `{condition_field}` is {condition_value}");
    let expected = if code == "required" {
        "a non-null value under this condition"
    } else {
        "null under this condition"
    };
    cx.error(Stage::Rule, &path.key(name), code, message, expected);
}

/// Records an `order(first <= second)` violation at `second`.
#[cold]
#[inline(never)]
pub fn order_error(cx: &mut Cx, path: &Path<'_>, first: &str, second: &str, strict: bool) {
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
    cx.error(Stage::Rule, &path.key(second), "order", message, expected);
}

/// Checks an `evidence` string against the source text; `false` (and an
/// error, or a review reason when the field is quarantined) when it is no
/// evidence. An empty or whitespace-only quote is no evidence, although it
/// occurs in every text.
#[inline]
pub fn evidence(cx: &mut Cx, source: &str, quote: &str, name: &str, quarantine: bool) -> bool {
    let blank = quote.trim().is_empty();
    if !blank && source.contains(quote) {
        return true;
    }
    evidence_not_found(cx, name, quarantine, blank);
    false
}

/// Records an `evidence` string that is blank or missing from the source:
/// a business error, or a review reason when the field is quarantined.
#[cold]
#[inline(never)]
fn evidence_not_found(cx: &mut Cx, name: &str, quarantine: bool, blank: bool) {
    let pointer = Path::Root.key(name).to_pointer();
    let message = if blank {
        "the quote is empty or only whitespace, which is no evidence"
    } else {
        "the quoted text does not occur verbatim in the source"
    };
    if quarantine {
        cx.review(Violation::review(&pointer, "evidence_not_found", message));
    } else {
        cx.push(
            crate::error::Error::new(Stage::Business, pointer, "evidence_not_found", message)
                .with_expected("a verbatim, non-empty quote of the source text"),
        );
    }
}

/// Records the violations a `check` function returned.
pub fn violations(cx: &mut Cx, violations: Violations) {
    for v in violations.0 {
        match v.kind {
            crate::outcome::ViolationKind::Business => cx.push(
                crate::error::Error::new(Stage::Business, v.pointer, v.code, v.message)
                    .with_expected("a value consistent with the application's records"),
            ),
            crate::outcome::ViolationKind::Review => cx.review(v),
        }
    }
}

/// Source text for `evidence` fields: implement it on the context type.
pub use crate::EvidenceSource;

/// The `then` of a `when` rule's `if`/`then`: required fields not null,
/// forbidden fields null.
pub fn when_then(required: &[&str], forbidden: &[&str]) -> Value {
    let mut properties = Map::new();
    for name in required {
        properties.insert((*name).into(), json!({ "not": { "type": "null" } }));
    }
    for name in forbidden {
        properties.insert((*name).into(), json!({ "type": "null" }));
    }
    let mut then = Map::new();
    then.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        then.insert("required".into(), json!(required));
    }
    Value::Object(then)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{LenCheck, Length};

    proptest! {
        #[test]
        fn string_length_check_agrees_with_counting(s in "\\PC{0,12}", min in 0usize..14, extra in 0usize..14) {
            let max = min + extra;
            let n = s.chars().count();
            let naive = if n < min { LenCheck::Short } else if n > max { LenCheck::Long } else { LenCheck::Within };
            prop_assert_eq!(s.check_len(min, max), naive);
        }
    }
}
