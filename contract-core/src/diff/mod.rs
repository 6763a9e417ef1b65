//! Changed paths between two JSON documents, as RFC 6901 pointers: what an
//! edit policy checks against its allowlist.
//!
//! The rules:
//!
//! - objects are compared member by member, recursively; key order never
//!   matters;
//! - arrays are atomic: any difference (length, an element, anything nested)
//!   is one change at the array's own pointer;
//! - a member added or removed is a change at the member's pointer, even if
//!   its value is `null`;
//! - values of different types differ (`true` is not `1`), and so do an
//!   integer and a float (`1` is not `1.0`), as [`serde_json::Number`]'s
//!   equality says (note that it makes `0.0` and `-0.0` equal);
//! - an integer is one value however it is spelled: [`json::parse`] reads
//!   `-0` as the integer `0`, so `-0` against `0` is no change, while `-0`
//!   against `0.0` or `-0.0` is one (integer against float, like `0`
//!   against `0.0`). The diff sees [`Value`]s, not text: a document read
//!   by `serde_json::from_str` holds `-0` as the float `-0.0` (and,
//!   without serde_json's `float_roundtrip` feature, about 30 % of
//!   17-digit floats one ulp off, `0.029489407448267446` as
//!   `0.02948940744826745`, while the candidate is read exactly), so read
//!   baselines with [`json::parse`] (or encode a typed value with
//!   `to_json`) for these rules to hold;
//! - a value replaced by one that is not an object of the same kind (a type
//!   change, an object replaced by a scalar) is one change at that value's
//!   pointer; at the root that pointer is `""`.
//!
//! ```
//! use contract_runtime::diff::changed_paths;
//! use serde_json::json;
//!
//! let before = json!({"notifications": {"email": true}, "retry_limit": 3, "channels": ["email", "sms"]});
//! let after = json!({"notifications": {"email": false}, "retry_limit": 3, "channels": ["sms", "email"]});
//! let changed: Vec<String> = changed_paths(&before, &after).into_iter().collect();
//! assert_eq!(changed, ["/channels", "/notifications/email"]);
//! ```
//!
//! The walk visits every member of both documents once, never clones or
//! re-serializes a subtree, and builds a pointer (in one reusable buffer)
//! only for a change: the path to the current member is a list of key
//! references on the stack. Members are paired by position while the keys
//! agree (serde_json's `preserve_order`, the default feature
//! `preserve_order`, keeps each document's order; a candidate returned whole usually keeps the
//! baseline's), and looked up (`O(1)` with `preserve_order`, `O(log n)` with
//! serde_json's default `BTreeMap`) only where they differ. Leaves are
//! compared in the loop, without a call per member, and short strings
//! without a call to `memcmp`.
//!
//! [`changed_paths_str`] finds the same pointers when the second document is
//! JSON text, while the text is scanned, without building its tree: what an
//! edit check uses, so that a large candidate costs no more than decoding it.
//!
//! [`json::parse`]: crate::json::parse
use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::json::Path;

mod members;
mod same;
mod text;

use same::{same, same_str};

pub use text::changed_paths_str;

/// The RFC 6901 pointers (escaped string form) at which `after` differs from
/// `before`, sorted; empty when the documents are equal.
///
/// No reported pointer is an ancestor of another one.
///
/// ```
/// use contract_runtime::diff::changed_paths;
/// use serde_json::json;
///
/// let before = json!({"a/~b": 1, "gone": null, "same": [1, 2]});
/// let after = json!({"a/~b": 1.0, "new": null, "same": [1, 2]});
/// let changed: Vec<String> = changed_paths(&before, &after).into_iter().collect();
/// assert_eq!(changed, ["/a~1~0b", "/gone", "/new"]);
///
/// // A change of type at the root is the root pointer.
/// assert_eq!(changed_paths(&before, &json!("text")).into_iter().collect::<Vec<_>>(), [""]);
/// ```
pub fn changed_paths(before: &Value, after: &Value) -> BTreeSet<String> {
    let mut changed = BTreeSet::new();
    for_each_change(before, after, |pointer| {
        changed.insert(pointer.to_owned());
    });
    changed
}

/// Calls `f` with the pointer of every change from `before` to `after`, under
/// the same rules as [`changed_paths`], without collecting them.
///
/// Each pointer is reported once; the order is unspecified (members of
/// `before` in its iteration order, then members only in `after`). The `&str`
/// lives in a buffer that is reused after `f` returns.
///
/// ```
/// use contract_runtime::diff::for_each_change;
/// use serde_json::json;
///
/// let mut count = 0;
/// for_each_change(&json!({"a": 1, "b": 2}), &json!({"a": 1, "b": 3}), |pointer| {
///     assert_eq!(pointer, "/b");
///     count += 1;
/// });
/// assert_eq!(count, 1);
/// ```
pub fn for_each_change(before: &Value, after: &Value, mut f: impl FnMut(&str)) {
    let mut buf = String::new();
    walk(before, after, &Path::Root, &mut buf, &mut f);
}

// `path` is where `before`/`after` sit, kept on the stack: a pointer string
// is built (into `buf`) only for a change, so unchanged members cost no
// escaping.
fn walk<F: FnMut(&str)>(
    before: &Value,
    after: &Value,
    path: &Path<'_>,
    buf: &mut String,
    f: &mut F,
) {
    match (before, after) {
        (Value::Object(before_map), Value::Object(after_map)) => {
            walk_members(before_map, after_map, path, buf, f);
        }
        // Scalars, arrays (atomic) and type changes: one change here, if any.
        _ => {
            if !same(before, after) {
                report(path, buf, f);
            }
        }
    }
}

fn walk_members<F: FnMut(&str)>(
    before_map: &Map<String, Value>,
    after_map: &Map<String, Value>,
    path: &Path<'_>,
    buf: &mut String,
    f: &mut F,
) {
    // A document returned whole usually keeps the baseline's key order: try
    // the member at the same position first (a string compare), and look the
    // key up only when the orders differ.
    let mut in_order = after_map.iter();
    let mut shared = 0;
    for (key, before_value) in before_map {
        let after_value = match in_order.next() {
            Some((k, v)) if same_str(k, key) => Some(v),
            _ => after_map.get(key),
        };
        let Some(after_value) = after_value else {
            report(&path.key(key), buf, f);
            continue;
        };
        shared += 1;
        // Only a pair of objects recurses; a leaf is compared here.
        match (before_value, after_value) {
            (Value::Object(b), Value::Object(a)) => walk_members(b, a, &path.key(key), buf, f),
            _ => {
                if !same(before_value, after_value) {
                    report(&path.key(key), buf, f);
                }
            }
        }
    }
    // Every member of `after` was already matched: nothing was added.
    if shared == after_map.len() {
        return;
    }
    for key in after_map.keys() {
        if !before_map.contains_key(key) {
            report(&path.key(key), buf, f);
        }
    }
}

// Out of the walk's loop: changes are few.
#[cold]
#[inline(never)]
fn report<F: FnMut(&str)>(path: &Path<'_>, buf: &mut String, f: &mut F) {
    buf.clear();
    path.write_pointer(buf);
    f(buf);
}

#[cfg(test)]
mod tests;
