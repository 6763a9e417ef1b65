//! `fingerprint::canonical` is RFC 8785 (JCS): it agrees byte for byte with
//! an independent implementation (`serde_json_canonicalizer`, whose numbers
//! come from `ryu-js`) on generated values, and `Fingerprint::of` is the
//! SHA-256 of those bytes.
use contract_runtime::fingerprint::{Fingerprint, canonical};
use proptest::prelude::*;
use serde_json::{Map, Number, Value};

fn independent(value: &Value) -> String {
    serde_json_canonicalizer::to_string(value).unwrap()
}

fn finite_double() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        any::<f64>(),
        (-1_000_000i64..1_000_000, -30i32..30).prop_map(|(m, e)| m as f64 * 10f64.powi(e)),
        // Around 2^50..2^54, where a double's exact value can sit halfway
        // between two shortest candidates.
        (1u64 << 50..1u64 << 54, 0u32..4).prop_map(|(m, q)| m as f64 + f64::from(q) * 0.25),
    ]
    .prop_filter("finite", |x: &f64| x.is_finite())
}

fn number() -> impl Strategy<Value = Number> {
    prop_oneof![
        finite_double().prop_filter_map("finite", Number::from_f64),
        any::<i64>().prop_map(Number::from),
        any::<u64>().prop_map(Number::from),
        (-(1i64 << 53)..(1i64 << 53)).prop_map(Number::from),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[\\x00-\\x1f\"\\\\/\\x7f\u{80}-\u{ff}\u{2028}\u{e000}-\u{ffff}\u{10000}-\u{10ffff}a-z]{0,8}",
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number().prop_map(Value::Number),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((text(), inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn canonical_agrees_with_an_independent_jcs_implementation(v in value()) {
        prop_assert_eq!(canonical(&v), independent(&v));
    }

    #[test]
    fn every_finite_double_is_written_as_ecmascript_writes_it(x in finite_double()) {
        let v = serde_json::json!(x);
        prop_assert_eq!(canonical(&v), independent(&v));
    }

    #[test]
    fn a_fingerprint_is_the_sha256_of_the_canonical_bytes(v in value()) {
        use sha2::{Digest, Sha256};
        let expected: [u8; 32] = Sha256::digest(independent(&v).as_bytes()).into();
        prop_assert_eq!(*Fingerprint::of(&v).as_bytes(), expected);
    }
}

#[test]
fn keys_differing_above_the_basic_plane_sort_by_utf16_units() {
    let v = serde_json::json!({"\u{fb33}": 1, "\u{1f600}": 2, "\u{e000}": 3});
    assert_eq!(canonical(&v), independent(&v));
    assert_eq!(
        canonical(&v),
        "{\"\u{1f600}\":2,\"\u{e000}\":3,\"\u{fb33}\":1}"
    );
}

#[test]
fn a_halfway_double_takes_the_even_shortest_digits() {
    // 0x43143ff3c1cb0959 is 1424953923781206.25, exactly halfway between
    // …206.2 and …206.3 (RFC 8785, appendix B).
    let v = serde_json::json!(f64::from_bits(0x43143ff3c1cb0959));
    assert_eq!(canonical(&v), "1424953923781206.2");
    assert_eq!(canonical(&v), independent(&v));
}
