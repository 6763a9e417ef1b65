//! Equality of two values as [`Value`]'s `==` says it, for the walk's
//! leaves and atomic arrays: the same answer, at fewer instructions on the
//! usual documents.
//!
//! - short strings (keys, most string values) are compared in at most two
//!   overlapping fixed-size loads per side instead of a call to `memcmp`;
//! - the members of two objects are compared in lockstep by position while
//!   their keys agree (serde_json's `preserve_order` keeps the order the
//!   document had), with a lookup only where they differ, instead of a
//!   lookup for every member.
use serde_json::{Map, Value};

/// Whether `a == b` for [`Value`]: types must agree (`true` is not `1`),
/// numbers compare as [`serde_json::Number`] does (`1` is not `1.0`),
/// arrays element by element, objects as sets of members.
///
/// Inline for the scalars (most of what the walk compares); containers go
/// to functions of their own.
#[inline]
pub(super) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => same_str(x, y),
        (Value::Number(x), Value::Number(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Null, Value::Null) => true,
        (Value::Array(x), Value::Array(y)) => same_items(x, y),
        (Value::Object(x), Value::Object(y)) => same_members(x, y),
        _ => false,
    }
}

#[inline(never)]
fn same_items(x: &[Value], y: &[Value]) -> bool {
    x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
}

// Equal sizes, and every member of `x` found in `y` with an equal value:
// keys are unique, so the key sets are equal too.
#[inline(never)]
fn same_members(x: &Map<String, Value>, y: &Map<String, Value>) -> bool {
    if x.len() != y.len() {
        return false;
    }
    let mut in_order = y.iter();
    x.iter().all(|(key, a)| {
        let b = match in_order.next() {
            Some((k, b)) if same_str(k, key) => Some(b),
            _ => y.get(key),
        };
        b.is_some_and(|b| same(a, b))
    })
}

/// `a == b` for strings. Up to 32 bytes, a length compare and two fixed-size
/// loads per side (the first and the last bytes, overlapping when shorter
/// than twice the load), which the compiler keeps inline; longer strings go
/// to the slice compare (`memcmp`).
#[inline]
pub(super) fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    match a.len() {
        0 => true,
        1..4 => a.first() == b.first() && a.last() == b.last() && a.get(1) == b.get(1),
        4..8 => {
            a.first_chunk::<4>() == b.first_chunk::<4>()
                && a.last_chunk::<4>() == b.last_chunk::<4>()
        }
        8..=16 => {
            a.first_chunk::<8>() == b.first_chunk::<8>()
                && a.last_chunk::<8>() == b.last_chunk::<8>()
        }
        17..=32 => {
            a.first_chunk::<16>() == b.first_chunk::<16>()
                && a.last_chunk::<16>() == b.last_chunk::<16>()
        }
        _ => a == b,
    }
}
