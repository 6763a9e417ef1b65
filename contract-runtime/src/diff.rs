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
//!   by `serde_json::from_str` holds `-0` as the float `-0.0`, so read
//!   baselines with [`json::parse`] (or encode a typed value with
//!   `to_json`) for this rule to hold;
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
//! re-serializes a subtree, and builds pointers in one reusable buffer. Member
//! lookup is the map's own (`O(log n)` for serde_json's default `BTreeMap`,
//! `O(1)` with its `preserve_order` feature).
//!
//! [`json::parse`]: crate::json::parse
use std::collections::BTreeSet;

use serde_json::Value;

use crate::json::Path;

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
    let (Value::Object(before_map), Value::Object(after_map)) = (before, after) else {
        // Scalars, arrays (atomic) and type changes: one change here, if any.
        // `Value`'s `==` stops at the first difference and tells 1 from 1.0.
        if before != after {
            report(path, buf, f);
        }
        return;
    };
    // A document returned whole usually keeps the baseline's key order: try
    // the member at the same position first (a string compare), and look the
    // key up only when the orders differ.
    let mut in_order = after_map.iter();
    let mut shared = 0;
    for (key, before_value) in before_map {
        let after_value = match in_order.next() {
            Some((k, v)) if k == key => Some(v),
            _ => after_map.get(key),
        };
        match after_value {
            Some(after_value) => {
                shared += 1;
                walk(before_value, after_value, &path.key(key), buf, f);
            }
            None => report(&path.key(key), buf, f),
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

fn report<F: FnMut(&str)>(path: &Path<'_>, buf: &mut String, f: &mut F) {
    buf.clear();
    path.write_pointer(buf);
    f(buf);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::pointer::Pointer;
    use proptest::prelude::*;
    use serde_json::{Map, json};

    fn paths(before: &Value, after: &Value) -> Vec<String> {
        changed_paths(before, after).into_iter().collect()
    }

    fn baseline() -> Value {
        json!({"notifications": {"email": true}, "retry_limit": 3, "channels": ["email", "sms"]})
    }

    #[test]
    fn identical_documents_have_no_changes() {
        let doc = json!({"a": {"b": [1, {"c": null}]}, "d": "x", "e": 1.5});
        assert!(changed_paths(&doc, &doc.clone()).is_empty());
        assert!(changed_paths(&json!(null), &json!(null)).is_empty());
    }

    #[test]
    fn seed_unchanged_baseline_has_no_changes() {
        assert_eq!(paths(&baseline(), &baseline()), Vec::<String>::new());
    }

    #[test]
    fn seed_key_order_does_not_matter() {
        let reordered: Value = serde_json::from_str(
            r#"{"retry_limit":3,"channels":["email","sms"],"notifications":{"email":true}}"#,
        )
        .unwrap();
        assert!(changed_paths(&baseline(), &reordered).is_empty());
    }

    #[test]
    fn seed_email_false_changes_the_leaf() {
        let mut after = baseline();
        after["notifications"]["email"] = json!(false);
        assert_eq!(paths(&baseline(), &after), ["/notifications/email"]);
    }

    #[test]
    fn seed_retry_limit_changed() {
        let mut after = baseline();
        after["retry_limit"] = json!(9);
        assert_eq!(paths(&baseline(), &after), ["/retry_limit"]);
    }

    #[test]
    fn seed_email_removed_is_a_change_at_the_member() {
        let after = json!({"notifications": {}, "retry_limit": 3, "channels": ["email", "sms"]});
        assert_eq!(paths(&baseline(), &after), ["/notifications/email"]);
    }

    #[test]
    fn seed_email_true_to_0_is_a_change() {
        let mut after = baseline();
        after["notifications"]["email"] = json!(0);
        assert_eq!(paths(&baseline(), &after), ["/notifications/email"]);
    }

    #[test]
    fn seed_channels_reordered_changes_the_whole_array() {
        let mut after = baseline();
        after["channels"] = json!(["sms", "email"]);
        assert_eq!(paths(&baseline(), &after), ["/channels"]);
    }

    #[test]
    fn arrays_are_atomic_even_for_nested_changes() {
        let before = json!({"list": [{"a": 1}, {"b": 2}]});
        let after = json!({"list": [{"a": 1}, {"b": 3}]});
        assert_eq!(paths(&before, &after), ["/list"]);
        let longer = json!({"list": [{"a": 1}, {"b": 2}, null]});
        assert_eq!(paths(&before, &longer), ["/list"]);
    }

    #[test]
    fn true_array_differs_from_1_array_at_root() {
        assert_eq!(paths(&json!([true]), &json!([1])), [""]);
    }

    #[test]
    fn true_array_differs_from_1_array_at_its_pointer() {
        assert_eq!(paths(&json!({"x": [true]}), &json!({"x": [1]})), ["/x"]);
    }

    #[test]
    fn removing_a_null_member_is_a_change() {
        assert_eq!(paths(&json!({"a": null, "b": 1}), &json!({"b": 1})), ["/a"]);
    }

    #[test]
    fn adding_a_null_member_is_a_change() {
        assert_eq!(paths(&json!({"b": 1}), &json!({"a": null, "b": 1})), ["/a"]);
    }

    #[test]
    fn replacing_the_whole_document_by_a_string_is_a_root_change() {
        assert_eq!(paths(&baseline(), &json!("settings")), [""]);
        assert_eq!(paths(&json!("settings"), &baseline()), [""]);
    }

    #[test]
    fn pointers_are_rfc6901_escaped() {
        assert_eq!(paths(&json!({"a/~b": 1}), &json!({"a/~b": 2})), ["/a~1~0b"]);
        assert_eq!(paths(&json!({}), &json!({"": 0})), ["/"]);
    }

    #[test]
    fn integer_1_differs_from_float_1_0() {
        let before: Value = serde_json::from_str(r#"{"n": 1}"#).unwrap();
        let after: Value = serde_json::from_str(r#"{"n": 1.0}"#).unwrap();
        assert_eq!(paths(&before, &after), ["/n"]);
        assert_eq!(paths(&json!(1), &json!(1.0)), [""]);
    }

    fn parsed(text: &str) -> Value {
        crate::json::parse(text.as_bytes(), &crate::json::Limits::DEFAULT).unwrap()
    }

    #[test]
    fn minus_zero_and_zero_are_one_integer() {
        let zero = parsed(r#"{"n": 0}"#);
        let minus_zero = parsed(r#"{"n": -0}"#);
        assert!(changed_paths(&zero, &minus_zero).is_empty());
        assert!(changed_paths(&minus_zero, &zero).is_empty());
        assert!(changed_paths(&minus_zero, &json!({"n": 0})).is_empty());
    }

    #[test]
    fn minus_zero_differs_from_a_float_zero_like_zero_does() {
        for integer in ["0", "-0"] {
            for float in ["0.0", "-0.0", "0e0", "-0E1"] {
                let before = parsed(&format!(r#"{{"n": {integer}}}"#));
                let after = parsed(&format!(r#"{{"n": {float}}}"#));
                assert_eq!(paths(&before, &after), ["/n"], "{integer} vs {float}");
                assert_eq!(paths(&after, &before), ["/n"], "{float} vs {integer}");
            }
        }
        // Two float zeros are equal, whatever their signs.
        assert!(changed_paths(&parsed("[0.0]"), &parsed("[-0.0]")).is_empty());
    }

    #[test]
    fn object_replaced_by_scalar_is_a_change_at_the_object_only() {
        assert_eq!(paths(&json!({"a": {"b": 1}}), &json!({"a": 2})), ["/a"]);
        assert_eq!(paths(&json!({"a": 2}), &json!({"a": {"b": 1}})), ["/a"]);
    }

    #[test]
    fn object_replaced_by_array_is_a_change_at_the_object() {
        assert_eq!(paths(&json!({"a": {}}), &json!({"a": []})), ["/a"]);
    }

    #[test]
    fn sibling_pointers_do_not_leak_into_each_other() {
        let before = json!({"a": {"x": 1, "y": 2}, "b": {"x": 1}});
        let after = json!({"a": {"x": 9, "z": 3}, "b": {"x": 8}});
        assert_eq!(paths(&before, &after), ["/a/x", "/a/y", "/a/z", "/b/x"]);
    }

    #[test]
    fn for_each_change_reports_each_pointer_once() {
        let mut seen = Vec::new();
        for_each_change(
            &json!({"a": 1, "b": {"c": 2}}),
            &json!({"b": {"c": 3}, "d": 4}),
            |pointer| seen.push(pointer.to_owned()),
        );
        seen.sort();
        assert_eq!(seen, ["/a", "/b/c", "/d"]);
    }

    // Test-only: applies the changes at `paths` to `before`, taking each value
    // from `after` (or removing the member when `after` has none there).
    fn apply(before: &Value, after: &Value, paths: &BTreeSet<String>) -> Value {
        let mut result = before.clone();
        for path in paths {
            let mut pointer = Pointer::parse(path).unwrap();
            let replacement = pointer.resolve(after).cloned();
            let Some(last) = pointer.pop() else {
                result = after.clone();
                continue;
            };
            // The parent is an object in both documents: the diff only
            // recurses through objects, and reports no ancestor of `path`.
            let mut parent = &mut result;
            for segment in pointer.segments() {
                parent = parent
                    .as_object_mut()
                    .and_then(|map| map.get_mut(segment))
                    .expect("parent of a changed path exists in before");
            }
            let map = parent.as_object_mut().expect("parent is an object");
            match replacement {
                Some(value) => {
                    map.insert(last, value);
                }
                None => {
                    map.remove(&last);
                }
            }
        }
        result
    }

    // Small domains on purpose: equal values, `1` vs `1.0` vs `true`, and keys
    // that need escaping all come up often.
    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-2i64..3).prop_map(Value::from),
            prop::sample::select(vec![0.0, 1.0, -1.5, 2.5]).prop_map(Value::from),
            "[ab~/]{0,2}".prop_map(Value::String),
        ]
    }

    fn key() -> impl Strategy<Value = String> {
        "[ab~/]{0,2}"
    }

    fn json_value() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(4, 48, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map(key(), inner, 0..4)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    // Pairs that share structure, so that the walk recurses: objects whose
    // members are in both (with a related pair of values), or in one only.
    fn related_pair() -> impl Strategy<Value = (Value, Value)> {
        let base = prop_oneof![
            3 => json_value().prop_map(|v| (v.clone(), v)),
            1 => (json_value(), json_value()),
        ];
        base.prop_recursive(4, 48, 4, |inner| {
            prop_oneof![
                prop::collection::btree_map(key(), (0u8..4, inner.clone()), 0..5).prop_map(
                    |members| {
                        let mut before = Map::new();
                        let mut after = Map::new();
                        for (key, (side, (b, a))) in members {
                            match side {
                                0 => {
                                    before.insert(key, b);
                                }
                                1 => {
                                    after.insert(key, a);
                                }
                                _ => {
                                    before.insert(key.clone(), b);
                                    after.insert(key, a);
                                }
                            }
                        }
                        (Value::Object(before), Value::Object(after))
                    }
                ),
                prop::collection::vec(inner, 0..3).prop_map(|items| {
                    let (before, after) = items.into_iter().unzip();
                    (Value::Array(before), Value::Array(after))
                }),
            ]
        })
    }

    fn any_pair() -> impl Strategy<Value = (Value, Value)> {
        prop_oneof![related_pair(), (json_value(), json_value())]
    }

    // Integers around the edges of the 64-bit types and small ones, where
    // zero (and so `-0`) comes up often.
    fn integer() -> impl Strategy<Value = i128> {
        prop_oneof![
            (-3i128..4),
            any::<i64>().prop_map(i128::from),
            any::<u64>().prop_map(i128::from),
            prop::sample::select(vec![
                i128::from(i64::MIN),
                i128::from(i64::MAX),
                i128::from(u64::MAX),
            ]),
        ]
    }

    // Every way JSON can write `n` without a fraction or an exponent: its
    // digits, `-0` for zero, with any whitespace around.
    fn spelling(n: i128) -> impl Strategy<Value = String> {
        let digits = if n == 0 {
            prop::sample::select(vec!["0".to_owned(), "-0".to_owned()]).boxed()
        } else {
            Just(n.to_string()).boxed()
        };
        (digits, "[ \t\n\r]{0,2}", "[ \t\n\r]{0,2}")
            .prop_map(|(digits, before, after)| format!("{before}{digits}{after}"))
    }

    fn two_spellings() -> impl Strategy<Value = (String, String)> {
        integer().prop_flat_map(|n| (spelling(n), spelling(n)))
    }

    proptest! {
        #[test]
        fn prop_spellings_of_one_integer_are_no_change((a, b) in two_spellings()) {
            let before = parsed(&format!(r#"{{"n":{a}}}"#));
            let after = parsed(&format!(r#"{{"n":{b}}}"#));
            prop_assert!(changed_paths(&before, &after).is_empty(), "{} vs {}", a, b);
            prop_assert!(changed_paths(&after, &before).is_empty(), "{} vs {}", b, a);
            // And against the integer a typed value encodes.
            let n: i128 = a.trim().parse().unwrap();
            let typed = match u64::try_from(n) {
                Ok(u) => json!({ "n": u }),
                Err(_) => json!({ "n": i64::try_from(n).unwrap() }),
            };
            prop_assert!(changed_paths(&typed, &after).is_empty(), "{} vs {}", n, b);
        }

        #[test]
        fn prop_a_value_has_no_changes_against_itself(x in json_value()) {
            prop_assert!(changed_paths(&x, &x).is_empty());
        }

        #[test]
        fn prop_no_changes_exactly_when_equal((before, after) in any_pair()) {
            prop_assert_eq!(changed_paths(&before, &after).is_empty(), before == after);
        }

        #[test]
        fn prop_every_pointer_resolves_in_before_or_after((before, after) in any_pair()) {
            for path in changed_paths(&before, &after) {
                let pointer = Pointer::parse(&path);
                prop_assert!(pointer.is_ok(), "{:?} does not parse", path);
                let pointer = pointer.unwrap();
                prop_assert_eq!(pointer.to_string(), path.as_str());
                prop_assert!(
                    pointer.resolve(&before).is_some() || pointer.resolve(&after).is_some(),
                    "{:?} resolves in neither document", path
                );
            }
        }

        #[test]
        fn prop_applying_only_the_changes_yields_after((before, after) in any_pair()) {
            let changed = changed_paths(&before, &after);
            prop_assert_eq!(apply(&before, &after, &changed), after);
        }

        #[test]
        fn prop_changes_are_symmetric((before, after) in any_pair()) {
            prop_assert_eq!(changed_paths(&before, &after), changed_paths(&after, &before));
        }

        #[test]
        fn prop_no_pointer_is_an_ancestor_of_another((before, after) in any_pair()) {
            let changed: Vec<Pointer> = changed_paths(&before, &after)
                .iter()
                .map(|p| Pointer::parse(p).unwrap())
                .collect();
            for a in &changed {
                for b in &changed {
                    if a != b {
                        prop_assert!(!b.segments().starts_with(a.segments()), "{} is inside {}", b, a);
                    }
                }
            }
        }
    }
}
