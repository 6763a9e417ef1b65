//! `from_json(to_json(x)) == x` for generated values of the test contracts:
//! one with every field type, a recursive one and a generic one.
use std::collections::BTreeMap;

use contract_runtime::{Contract, Date};
use proptest::prelude::*;

#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(rename_all = "camelCase")]
struct Everything {
    flag: bool,
    tiny: i8,
    small: u16,
    medium: i32,
    large: u64,
    signed: i64,
    ratio: f64,
    narrow: f32,
    text: String,
    day: Date,
    maybe: Option<String>,
    list: Vec<Inner>,
    map: BTreeMap<String, u8>,
    kind: Kind,
    #[contract(optional)]
    extra: Option<Kind>,
    #[contract(rename = "the-note", min_len = 1, max_len = 20)]
    note: Option<String>,
}

#[derive(Contract, Debug, Clone, PartialEq)]
struct Inner {
    #[contract(min = -5, max = 5)]
    score: i32,
    tags: Vec<String>,
}

#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "SCREAMING_SNAKE_CASE")]
enum Kind {
    First,
    SecondOne,
    #[contract(rename = "3rd")]
    Third,
}

/// A recursive contract: through `Vec`, `Box`, and a struct that holds the
/// union back in `Option<Box<_>>`.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "op", rename_all = "snake_case")]
enum Expr {
    Sum { terms: Vec<Expr> },
    Neg { inner: Box<Expr> },
    Leaf(Leaf),
}

#[derive(Contract, Debug, Clone, PartialEq)]
struct Leaf {
    value: i64,
    label: Option<String>,
    then: Option<Box<Expr>>,
}

/// A generic contract, instantiated with the recursive one.
#[derive(Contract, Debug, Clone, PartialEq)]
struct Page<T> {
    items: Vec<T>,
    next_cursor: Option<String>,
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = (any::<i64>(), proptest::option::of(".*")).prop_map(|(value, label)| {
        Expr::Leaf(Leaf {
            value,
            label,
            then: None,
        })
    });
    leaf.prop_recursive(6, 48, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|terms| Expr::Sum { terms }),
            inner.clone().prop_map(|e| Expr::Neg { inner: Box::new(e) }),
            (any::<i64>(), proptest::option::of(".*"), inner).prop_map(|(value, label, then)| {
                Expr::Leaf(Leaf {
                    value,
                    label,
                    then: Some(Box::new(then)),
                })
            }),
        ]
    })
}

fn page() -> impl Strategy<Value = Page<Expr>> {
    (
        prop::collection::vec(expr(), 0..3),
        proptest::option::of(".*"),
    )
        .prop_map(|(items, next_cursor)| Page { items, next_cursor })
}

fn date() -> impl Strategy<Value = Date> {
    (0u16..=9999, 1u8..=12, 1u8..=31)
        .prop_filter_map("calendar-valid", |(y, m, d)| Date::new(y, m, d))
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![Just(Kind::First), Just(Kind::SecondOne), Just(Kind::Third)]
}

fn inner() -> impl Strategy<Value = Inner> {
    (-5i32..=5, prop::collection::vec(".*", 0..3)).prop_map(|(score, tags)| Inner { score, tags })
}

fn everything() -> impl Strategy<Value = Everything> {
    (
        (
            any::<bool>(),
            any::<i8>(),
            any::<u16>(),
            any::<i32>(),
            any::<u64>(),
            any::<i64>(),
        ),
        (
            any::<f64>().prop_filter("finite", |f| f.is_finite()),
            any::<f32>().prop_filter("finite", |f| f.is_finite()),
            ".*",
            date(),
            proptest::option::of(".*"),
        ),
        (
            prop::collection::vec(inner(), 0..4),
            prop::collection::btree_map(".*", any::<u8>(), 0..4),
            kind(),
            proptest::option::of(kind()),
            proptest::option::of("[a-z\u{e9}\u{1F600}]{1,20}"),
        ),
    )
        .prop_map(
            |(
                (flag, tiny, small, medium, large, signed),
                (ratio, narrow, text, day, maybe),
                (list, map, kind, extra, note),
            )| Everything {
                flag,
                tiny,
                small,
                medium,
                large,
                signed,
                ratio,
                narrow,
                text,
                day,
                maybe,
                list,
                map,
                kind,
                extra,
                note,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn from_json_of_to_json_is_identity(value in everything()) {
        let text = value.to_json().to_string();
        let back = Everything::from_json(&text);
        prop_assert_eq!(back.as_ref().ok(), Some(&value), "{}", text);
    }

    #[test]
    fn a_recursive_value_round_trips(value in expr()) {
        let text = value.to_json().to_string();
        prop_assert_eq!(Expr::from_json(&text).ok(), Some(value), "{}", text);
    }

    #[test]
    fn a_generic_value_round_trips(value in page()) {
        let text = value.to_json().to_string();
        prop_assert_eq!(Page::<Expr>::from_json(&text).ok(), Some(value), "{}", text);
    }

    #[test]
    fn pretty_printed_json_decodes_too(value in everything()) {
        let text = serde_json::to_string_pretty(&value.to_json()).unwrap();
        prop_assert_eq!(Everything::from_json(&text).ok(), Some(value));
    }
}

#[test]
fn renamed_names_are_used_in_json() {
    let v = Everything {
        flag: true,
        tiny: -1,
        small: 2,
        medium: 3,
        large: u64::MAX,
        signed: i64::MIN,
        ratio: 0.5,
        narrow: 1.5,
        text: "t".into(),
        day: Date::new(2027, 6, 12).unwrap(),
        maybe: None,
        list: vec![],
        map: BTreeMap::new(),
        kind: Kind::SecondOne,
        extra: Some(Kind::Third),
        note: None,
    };
    let json = v.to_json();
    assert_eq!(json["kind"], "SECOND_ONE");
    assert_eq!(json["extra"], "3rd");
    assert_eq!(json["the-note"], serde_json::Value::Null);
    assert_eq!(json["day"], "2027-06-12");
    assert!(json.get("large").is_some() && json.get("medium").is_some());
    assert_eq!(Everything::from_json(&json.to_string()).unwrap(), v);
}
