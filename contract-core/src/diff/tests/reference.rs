//! The tree walk and the text walk against a plain reference implementation (a lookup for every
//! member, `Value`'s own `==`, pointers built with `format!` for every
//! member), on pairs of documents whose members come in any order, with keys
//! of every length the string compare treats apart.
use std::collections::BTreeSet;

use proptest::prelude::*;
use serde_json::{Map, Value};

use super::super::same::{same, same_str};
use super::super::{changed_paths, changed_paths_str, for_each_change};
use super::{WIDE, any_pair};

fn reference(before: &Value, after: &Value) -> BTreeSet<String> {
    let mut changed = BTreeSet::new();
    reference_walk(before, after, String::new(), &mut changed);
    changed
}

fn reference_walk(before: &Value, after: &Value, pointer: String, changed: &mut BTreeSet<String>) {
    let (Value::Object(before_map), Value::Object(after_map)) = (before, after) else {
        if before != after {
            changed.insert(pointer);
        }
        return;
    };
    let member = |key: &str| format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
    for (key, before_value) in before_map {
        match after_map.get(key) {
            Some(after_value) => reference_walk(before_value, after_value, member(key), changed),
            None => {
                changed.insert(member(key));
            }
        }
    }
    for key in after_map.keys() {
        if !before_map.contains_key(key) {
            changed.insert(member(key));
        }
    }
}

// Keys of every length class of `same_str` (0, 1–3, 4–7, 8–16, 17–32, more),
// each with a twin that differs in one byte (first, middle or last), so that
// equal lengths with different bytes come up often.
const KEYS: [&str; 16] = [
    "",
    "a",
    "ab",
    "ac",
    "a/~",
    "abcde",
    "abXde",
    "section_1",
    "section_2",
    "Section_1",
    "description_of_the_thing",
    "description_of_the_thinG",
    "description_Of_the_thing",
    "a key that is longer than thirty-two bytes",
    "a key that is longer than thirty-two byteS",
    "~/",
];

fn key() -> impl Strategy<Value = String> {
    prop::sample::select(KEYS.to_vec()).prop_map(str::to_owned)
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-1i64..2).prop_map(Value::from),
        prop::sample::select(vec![0.0, 1.0, -0.5]).prop_map(Value::from),
        key().prop_map(Value::String),
    ]
}

// Objects built in the order their members are generated (not sorted), so
// two of them list the same keys in different orders.
fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..7)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

// `value` with its members moved about: each object's members rotated,
// reversed or kept (by `moves`, consumed as the tree is rebuilt), and with
// some members dropped or replaced. Yields pairs that share most of their
// structure but not their order.
fn moved(value: &Value, moves: &mut impl Iterator<Item = u8>) -> Value {
    match value {
        Value::Object(map) => {
            let mut members: Vec<(String, Value)> = map
                .iter()
                .map(|(k, v)| (k.clone(), moved(v, moves)))
                .collect();
            match moves.next().unwrap_or(0) % 6 {
                0 if !members.is_empty() => members.rotate_left(1),
                1 => members.reverse(),
                2 if !members.is_empty() => {
                    members.remove(members.len() / 2);
                }
                3 => members.insert(members.len() / 2, ("inserted".into(), Value::Null)),
                4 if !members.is_empty() => members[0].1 = Value::from(7),
                _ => {}
            }
            Value::Object(members.into_iter().collect::<Map<_, _>>())
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| moved(v, moves)).collect()),
        other => other.clone(),
    }
}

fn reordered_pair() -> impl Strategy<Value = (Value, Value)> {
    (value(), prop::collection::vec(any::<u8>(), 0..16)).prop_map(|(before, moves)| {
        let mut moves = moves.into_iter().cycle();
        let after = moved(&before, &mut moves);
        (before, after)
    })
}

fn pair() -> impl Strategy<Value = (Value, Value)> {
    prop_oneof![
        2 => reordered_pair(),
        1 => (value(), value()),
        1 => any_pair(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn prop_the_walk_finds_what_the_reference_finds((before, after) in pair()) {
        prop_assert_eq!(changed_paths(&before, &after), reference(&before, &after));
        prop_assert_eq!(changed_paths(&after, &before), reference(&after, &before));
        // The text walk too, on `after` in its own member order.
        prop_assert_eq!(
            changed_paths_str(&before, &after.to_string(), &WIDE),
            Ok(reference(&before, &after))
        );
        let mut reported = 0;
        for_each_change(&before, &after, |_| reported += 1);
        prop_assert_eq!(reported, reference(&before, &after).len(), "each change once");
    }

    #[test]
    fn prop_same_is_values_eq((a, b) in pair()) {
        prop_assert_eq!(same(&a, &b), a == b);
        prop_assert!(same(&a, &a));
    }

    #[test]
    fn prop_same_str_is_str_eq(
        a in "[ab\u{e9}]{0,40}",
        at in any::<prop::sample::Index>(),
        with in prop::sample::select(vec!['a', 'b', '\u{e9}']),
    ) {
        // `b` is `a` with one character replaced: often equal in length,
        // differing in one place anywhere in the string.
        let mut chars: Vec<char> = a.chars().collect();
        if !chars.is_empty() {
            let i = at.index(chars.len());
            chars[i] = with;
        }
        let b: String = chars.into_iter().collect();
        prop_assert_eq!(same_str(&a, &b), a == b, "{:?} vs {:?}", a, b);
        prop_assert!(same_str(&a, &a));
    }
}
