//! The tree walk and the text walk, each against the rules of the module docs
//! and against each other.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use super::*;
use crate::error::Rejection;
use crate::json::{self, Limits};
use crate::pointer::Pointer;
use proptest::prelude::*;
use serde_json::{Map, json};

mod reference;

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
            prop::collection::btree_map(key(), (0u8..4, inner.clone()), 0..5).prop_map(|members| {
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
            }),
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

// What `changed_paths_str` must give: parse, then diff the trees.
fn through_a_tree(
    before: &Value,
    after: &str,
    limits: &Limits,
) -> Result<BTreeSet<String>, Rejection> {
    json::parse(after.as_bytes(), limits).map(|after| changed_paths(before, &after))
}

const WIDE: Limits = Limits {
    max_bytes: usize::MAX,
    max_depth: 64,
};

// `text` with a mistake, or none: cut short, or with a snippet inserted
// (a member that may repeat a key, a stray token, a number that
// overflows, a byte-order mark).
fn damaged(text: String) -> impl Strategy<Value = String> {
    let len = text.len();
    let cut = text.clone();
    prop_oneof![
        (0..=len).prop_map(move |at| cut[..at].to_owned()),
        (
            0..=len,
            prop::sample::select(vec![
                r#""a":0,"#,
                r#""":null,"#,
                r#"{"a":1,"a":2}"#,
                r#"[{"b":[],"b":0}]"#,
                // Escaped keys: `a` again, and keys whose escaped form
                // is longer than the key.
                r#""\u0061":0,"#,
                r#""\\":0,"\\":1,"#,
                r#""a\"":0,"#,
                ",",
                "]",
                "}",
                "\"",
                "[",
                "{",
                "1e999",
                "01",
                " ",
                "\u{feff}",
                "nul",
            ]),
        )
            .prop_map(move |(at, snippet)| {
                let mut damaged = text.clone();
                damaged.insert_str(at, snippet);
                damaged
            }),
    ]
}

#[test]
fn the_text_walk_refuses_an_oversized_document_before_reading_it() {
    let limits = Limits {
        max_bytes: 8,
        max_depth: 64,
    };
    // A BOM and too deep a nesting too: the size is the one error.
    let rejection = changed_paths_str(&baseline(), "\u{feff}[[[[[[[[[[", &limits).unwrap_err();
    let codes: Vec<_> = rejection
        .errors
        .iter()
        .map(|e| (e.stage, e.code, e.pointer.as_str()))
        .collect();
    assert_eq!(codes, [(crate::error::Stage::Parse, "too_large", "")]);
}

#[test]
fn a_duplicate_key_in_a_compared_value_is_refused_at_its_pointer() {
    let before = json!({"list": [{"a": 1}, {"a": 1}]});
    for (after, pointer) in [
        (r#"{"list": [{"a": 1, "a": 1}, {"a": 1}]}"#, "/list/0/a"),
        // After the first difference, the rest is still read strictly.
        (r#"{"list": [{"a": 2}, {"a": 1, "a": 1}]}"#, "/list/1/a"),
        (
            r#"{"list": [{"a": 2}, {"a": 1}, {"b": [{"c": 0, "c": 0}]}]}"#,
            "/list/2/b/0/c",
        ),
        (r#"{"new": {"x": 0, "x": 0}, "list": []}"#, "/new/x"),
        // Compared after unescaping.
        (r#"{"list": [{"a": 1, "\u0061": 1}]}"#, "/list/0/a"),
        (r#"{"\u006cist": [], "list": []}"#, "/list"),
        (r#"{"list": [], "x\\": 0, "x\u005c": 0}"#, "/x\\"),
    ] {
        let rejection = changed_paths_str(&before, after, &WIDE).unwrap_err();
        assert_eq!(rejection.errors[0].code, "duplicate_key", "{after}");
        assert_eq!(rejection.errors[0].pointer, pointer, "{after}");
        assert_eq!(Err(rejection), through_a_tree(&before, after, &WIDE));
    }
}

#[test]
fn a_duplicate_among_many_keys_is_refused_at_its_pointer() {
    // Past the short list of keys, in a walked object and in a compared one.
    let members: Vec<String> = (0..40).map(|i| format!(r#""k{i}":0"#)).collect();
    let many = members.join(",");
    let before = json!({"list": [{}]});
    for (after, pointer) in [
        (format!(r#"{{{many},"k7":0}}"#), "/k7"),
        (format!(r#"{{{many},"list":[],"k\u0033\u0039":0}}"#), "/k39"),
        (format!(r#"{{"list":[{{{many},"k0":0}}]}}"#), "/list/0/k0"),
    ] {
        let rejection = changed_paths_str(&before, &after, &WIDE).unwrap_err();
        assert_eq!(rejection.errors[0].code, "duplicate_key", "{after}");
        assert_eq!(rejection.errors[0].pointer, pointer, "{after}");
        assert_eq!(Err(rejection), through_a_tree(&before, &after, &WIDE));
    }
    let changed = changed_paths_str(&before, &format!("{{{many}}}"), &WIDE).unwrap();
    assert_eq!(changed.len(), 41, "40 added, /list removed");
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
        // And against the text, as an edit check reads the candidate.
        let text = format!(r#"{{"n":{b}}}"#);
        prop_assert!(changed_paths_str(&before, &text, &WIDE).unwrap().is_empty(), "{} vs {}", a, b);
    }

    #[test]
    fn prop_the_text_walk_finds_what_the_tree_walk_finds((before, after) in any_pair()) {
        let expected = changed_paths(&before, &after);
        for text in [after.to_string(), serde_json::to_string_pretty(&after).unwrap()] {
            prop_assert_eq!(changed_paths_str(&before, &text, &WIDE), Ok(expected.clone()));
        }
    }

    #[test]
    fn prop_the_text_walk_refuses_what_parse_refuses(
        (before, text) in any_pair()
            .prop_flat_map(|(before, after)| (Just(before), damaged(after.to_string()))),
        max_depth in 1usize..6,
    ) {
        let limits = Limits { max_bytes: usize::MAX, max_depth };
        prop_assert_eq!(
            changed_paths_str(&before, &text, &limits),
            through_a_tree(&before, &text, &limits),
            "{}", text
        );
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
