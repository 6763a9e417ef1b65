//! `Checked<T>`: serde_json and everything built on it run the whole
//! contract; a plain serde derive on the same struct does not.
use std::collections::BTreeMap;

use contract_runtime::{Checked, Contract};
use serde::de::IntoDeserializer;
use serde_json::{Value, json};

#[derive(Contract, serde::Deserialize, Debug, Clone, PartialEq)]
#[contract(max_bytes = 4096)]
struct CloseTicket {
    #[contract(min = 1)]
    ticket_id: u64,
    labels: BTreeMap<String, u8>,
}

#[derive(serde::Deserialize, Debug)]
struct Envelope {
    id: String,
    payload: Checked<CloseTicket>,
}

/// The rejection a `Checked` error carries: the JSON its message starts with.
fn rejection(err: &serde_json::Error) -> Value {
    let message = err.to_string();
    match serde_json::Deserializer::from_str(&message)
        .into_iter::<Value>()
        .next()
    {
        Some(Ok(value)) => value,
        _ => panic!("not a rejection: {message}"),
    }
}

fn codes_and_pointers(err: &serde_json::Error) -> Vec<(String, String)> {
    let rejection = rejection(err);
    let errors = rejection["errors"].as_array().cloned().unwrap_or_default();
    errors
        .iter()
        .map(|e| {
            (
                e["code"].as_str().unwrap().to_owned(),
                e["pointer"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn checked(text: &str) -> Result<Checked<CloseTicket>, serde_json::Error> {
    serde_json::from_str::<Checked<CloseTicket>>(text)
}

fn pair(code: &str, pointer: &str) -> (String, String) {
    (code.to_owned(), pointer.to_owned())
}

#[test]
fn an_accepted_document_derefs_and_unwraps_to_the_value() {
    let value = checked(r#"{"ticket_id": 7, "labels": {"a": 1}}"#).unwrap();
    assert_eq!(value.ticket_id, 7);
    let expected = CloseTicket {
        ticket_id: 7,
        labels: BTreeMap::from([("a".into(), 1)]),
    };
    assert_eq!(value.clone().into_inner(), expected);
    assert_eq!(
        serde_json::to_value(&value).unwrap(),
        json!({"ticket_id": 7, "labels": {"a": 1}})
    );
}

#[test]
fn a_duplicate_key_is_refused_through_checked_while_serde_keeps_the_last() {
    let text = r#"{"ticket_id": 7, "labels": {"a": 1, "a": 2}}"#;
    let plain: CloseTicket = serde_json::from_str(text).unwrap();
    assert_eq!(plain.labels["a"], 2);
    let err = checked(text).unwrap_err();
    assert_eq!(
        codes_and_pointers(&err),
        [pair("duplicate_key", "/labels/a")]
    );
    assert_eq!(rejection(&err)["errors"][0]["stage"], "parse");
}

#[test]
fn a_duplicate_struct_field_is_refused_by_both() {
    let text = r#"{"ticket_id": 7, "ticket_id": 8, "labels": {}}"#;
    assert!(serde_json::from_str::<CloseTicket>(text).is_err());
    assert_eq!(
        codes_and_pointers(&checked(text).unwrap_err()),
        [pair("duplicate_key", "/ticket_id")]
    );
}

// serde's derive refuses a string for a `u64` too; the contract says where
// and with which code, beside every other error of the document.
#[test]
fn a_coerced_number_is_refused_through_checked() {
    let text = r#"{"ticket_id": "7", "labels": {"a": 1}}"#;
    assert!(serde_json::from_str::<CloseTicket>(text).is_err());
    assert_eq!(
        codes_and_pointers(&checked(text).unwrap_err()),
        [pair("invalid_type", "/ticket_id")]
    );
    let text = r#"{"ticket_id": 7.0, "labels": {"a": "1"}}"#;
    assert_eq!(
        codes_and_pointers(&checked(text).unwrap_err()),
        [
            pair("invalid_type", "/ticket_id"),
            pair("invalid_type", "/labels/a")
        ]
    );
}

#[test]
fn an_unknown_key_is_refused_through_checked_while_serde_ignores_it() {
    let text = r#"{"ticket_id": 7, "labels": {}, "tenant": "other"}"#;
    assert!(serde_json::from_str::<CloseTicket>(text).is_ok());
    assert_eq!(
        codes_and_pointers(&checked(text).unwrap_err()),
        [pair("unknown_key", "/tenant")]
    );
}

#[test]
fn bounds_serde_does_not_know_are_checked() {
    let text = r#"{"ticket_id": 0, "labels": {}}"#;
    assert!(serde_json::from_str::<CloseTicket>(text).is_ok());
    assert_eq!(
        codes_and_pointers(&checked(text).unwrap_err()),
        [pair("below_minimum", "/ticket_id")]
    );
}

#[test]
fn a_checked_field_is_checked_inside_a_larger_serde_document() {
    let ok: Envelope =
        serde_json::from_str(r#"{"id": "m-1", "payload": {"ticket_id": 7, "labels": {}}}"#)
            .unwrap();
    assert_eq!((ok.id.as_str(), ok.payload.ticket_id), ("m-1", 7));
    // Pointers are relative to the payload; serde_json may append a position.
    let err = serde_json::from_str::<Envelope>(
        r#"{"id": "m-1", "payload": {"ticket_id": 7, "labels": {}, "labels": {}}}"#,
    )
    .unwrap_err();
    assert_eq!(codes_and_pointers(&err), [pair("duplicate_key", "/labels")]);
}

#[test]
fn from_slice_and_from_reader_run_the_contract_too() {
    let text = br#"{"ticket_id": 7, "labels": {"a": 1, "a": 1}}"#;
    let err = serde_json::from_slice::<Checked<CloseTicket>>(text).unwrap_err();
    assert_eq!(
        codes_and_pointers(&err),
        [pair("duplicate_key", "/labels/a")]
    );
    let err = serde_json::from_reader::<_, Checked<CloseTicket>>(&text[..]).unwrap_err();
    assert_eq!(
        codes_and_pointers(&err),
        [pair("duplicate_key", "/labels/a")]
    );
}

// What serde_json's own scan refuses never reaches the contract: its error
// is serde_json's, without a rejection.
#[test]
fn serde_json_reports_broken_grammar_before_the_contract() {
    for text in [
        r#"{"ticket_id": 7, "labels": {},}"#,
        r#"{"ticket_id": 7, "labels": {}} x"#,
        r#"{"ticket_id": NaN, "labels": {}}"#,
        "\u{feff}{\"ticket_id\": 7, \"labels\": {}}",
        r#"{"ticket_id": 7, "labels": {"\q": 1}}"#,
        "{\"ticket_id\": 7, \"labels\": {\"\u{1}\": 1}}",
        r#"{"ticket_id": 7, "labels": {}"#,
    ] {
        let err = checked(text).unwrap_err();
        assert!(!err.is_data(), "{text}: {err}");
        assert!(
            serde_json::from_str::<Value>(&err.to_string()).is_err(),
            "{text}"
        );
    }
    let invalid_utf8 = b"{\"ticket_id\": 7, \"labels\": {\"\xff\": 1}}";
    let err = serde_json::from_slice::<Checked<CloseTicket>>(invalid_utf8).unwrap_err();
    assert!(!err.is_data(), "{err}");
}

// What serde_json's scan lets through, the contract's parse stage refuses.
#[test]
fn the_contract_reports_what_serde_json_scans_past() {
    let cases = [
        (
            r#"{"ticket_id": 7, "labels": {"\ud800": 1}}"#,
            "lone_surrogate",
        ),
        (r#"{"ticket_id": 1e400, "labels": {}}"#, "number_overflow"),
    ];
    for (text, code) in cases {
        let err = checked(text).unwrap_err();
        assert!(err.is_data(), "{text}");
        let rejection = rejection(&err);
        assert_eq!(rejection["errors"][0]["code"], code, "{text}");
        assert_eq!(rejection["errors"][0]["stage"], "parse", "{text}");
    }
    // serde_json scans a raw value without its recursion limit (128).
    let deep = format!(
        r#"{{"ticket_id": 7, "labels": {}{}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let rejection_of_deep = rejection(&checked(&deep).unwrap_err());
    assert_eq!(rejection_of_deep["errors"][0]["code"], "too_deep");
    let large = format!(
        r#"{{"ticket_id": 7, "labels": {{}}, "pad": "{}"}}"#,
        "x".repeat(5000)
    );
    assert_eq!(
        rejection(&checked(&large).unwrap_err())["errors"][0]["code"],
        "too_large"
    );
}

// A `Value` has already kept the last of two duplicate keys; every other
// check runs on the value written back to text.
#[test]
fn from_value_checks_everything_but_duplicates() {
    let value: Value =
        serde_json::from_str(r#"{"ticket_id": 7, "labels": {"a": 1, "a": 2}}"#).unwrap();
    let ok = serde_json::from_value::<Checked<CloseTicket>>(value).unwrap();
    assert_eq!(ok.labels["a"], 2);
    let err =
        serde_json::from_value::<Checked<CloseTicket>>(json!({"ticket_id": "7", "labels": {}}))
            .unwrap_err();
    assert_eq!(
        codes_and_pointers(&err),
        [pair("invalid_type", "/ticket_id")]
    );
}

#[test]
fn another_deserializer_gets_an_error_not_a_value() {
    let from_str: Result<Checked<CloseTicket>, serde::de::value::Error> =
        serde::Deserialize::deserialize(r#"{"ticket_id": 7, "labels": {}}"#.into_deserializer());
    // The error names what `Checked` needs (serde_json's raw JSON text).
    assert!(from_str.unwrap_err().to_string().contains("serde_json"));
    let from_number: Result<Checked<CloseTicket>, serde::de::value::Error> =
        serde::Deserialize::deserialize(7u32.into_deserializer());
    assert!(from_number.is_err());
    let map = BTreeMap::from([("ticket_id", 7u32)]);
    let from_map: Result<Checked<CloseTicket>, serde::de::value::Error> =
        serde::Deserialize::deserialize(map.into_deserializer());
    assert!(from_map.is_err());
}

// Every entry point against `from_value`, on numbers: a `Value` holds `-0`
// and integers beyond 64 bits as floats, and is written back as text
// before the contract reads it.

#[derive(Contract, Debug, Clone, PartialEq)]
struct Numbers {
    count: u64,
    delta: i64,
    ratio: f64,
    small: f32,
}

/// A [`Numbers`] document, valid but for `field` written as `number`.
fn numbers_with(field: &str, number: &str) -> String {
    let members: Vec<_> = [
        ("count", "1"),
        ("delta", "1"),
        ("ratio", "1.5"),
        ("small", "1.5"),
    ]
    .iter()
    .map(|(name, valid)| format!("\"{name}\":{}", if *name == field { number } else { valid }))
    .collect();
    format!("{{{}}}", members.join(","))
}

/// What an entry point decided: the value (floats as their bits, so the
/// sign of a zero counts), or each error's code and pointer.
type Decision = Result<(u64, i64, u64, u32), Vec<(String, String)>>;

fn decision_of(value: Numbers) -> Decision {
    Ok((
        value.count,
        value.delta,
        value.ratio.to_bits(),
        value.small.to_bits(),
    ))
}

/// The decisions of `check`, of `from_str::<Checked>` and of `from_value::<Checked>`
/// on the `Value` serde_json reads from the same text.
fn decisions(text: &str) -> [Decision; 3] {
    let check = match Numbers::check(text).into_value() {
        Some(value) => decision_of(value),
        None => Err(Numbers::from_json(text)
            .unwrap_err()
            .errors
            .iter()
            .map(|e| (e.code.to_owned(), e.pointer.to_string()))
            .collect()),
    };
    let through = |result: Result<Checked<Numbers>, serde_json::Error>| match result {
        Ok(value) => decision_of(value.into_inner()),
        Err(err) => Err(codes_and_pointers(&err)),
    };
    let value: Value = serde_json::from_str(text).unwrap();
    [
        check,
        through(serde_json::from_str(text)),
        through(serde_json::from_value(value)),
    ]
}

#[test]
fn from_value_decides_numbers_as_the_text_does_where_the_value_kept_them() {
    for (field, number) in [
        ("ratio", "-0"),
        ("ratio", "-0.0"),
        ("ratio", "100000000000000000000"),
        ("ratio", "0.1"),
        ("ratio", "5e-324"),
        ("ratio", "1.7976931348623157e308"),
        ("ratio", "1E2"),
        ("small", "-0"),
        ("small", "3.4028235e38"),
        ("small", "3.5e38"),
        ("count", "18446744073709551615"),
        ("count", "1.0"),
        ("count", "1e2"),
        ("count", "-0.0"),
        ("count", "-1"),
        ("delta", "-9223372036854775808"),
    ] {
        let text = numbers_with(field, number);
        let [check, from_str, from_value] = decisions(&text);
        assert_eq!(check, from_str, "{text}");
        assert_eq!(check, from_value, "{text}");
    }
}

#[test]
fn a_float_field_reads_minus_zero_as_negative_zero_on_every_entry_point() {
    let [check, ..] = decisions(&numbers_with("ratio", "-0"));
    assert_eq!(check.unwrap().2, (-0.0f64).to_bits());
    let [check, ..] = decisions(&numbers_with("small", "-0"));
    assert_eq!(check.unwrap().3, (-0.0f32).to_bits());
}

#[test]
fn from_value_refuses_minus_zero_for_an_integer_field_which_the_text_accepts() {
    // serde_json holds `-0` as the float `-0.0`, written back as `-0.0`.
    let [check, from_str, from_value] = decisions(&numbers_with("count", "-0"));
    assert_eq!(check.unwrap().0, 0);
    assert_eq!(from_str.unwrap().0, 0);
    assert_eq!(from_value, Err(vec![pair("invalid_type", "/count")]));
}

#[test]
fn from_value_reports_an_integer_beyond_64_bits_as_invalid_type_not_out_of_range() {
    // serde_json holds it as the nearest float, written back with an
    // exponent (`1.8446744073709552e19`).
    for (field, number) in [
        ("count", "18446744073709551616"),
        ("delta", "-9223372036854775809"),
    ] {
        let pointer = format!("/{field}");
        let [check, from_str, from_value] = decisions(&numbers_with(field, number));
        assert_eq!(check, Err(vec![pair("out_of_range", &pointer)]), "{number}");
        assert_eq!(from_str, check, "{number}");
        assert_eq!(
            from_value,
            Err(vec![pair("invalid_type", &pointer)]),
            "{number}"
        );
    }
}

#[test]
fn from_value_measures_max_bytes_on_the_value_written_back_without_whitespace() {
    let text = format!(r#"{{"ticket_id": 7,{} "labels": {{}}}}"#, " ".repeat(5000));
    assert_eq!(
        rejection(&checked(&text).unwrap_err())["errors"][0]["code"],
        "too_large"
    );
    let value: Value = serde_json::from_str(&text).unwrap();
    assert!(serde_json::from_value::<Checked<CloseTicket>>(value).is_ok());
}

#[test]
fn from_value_reports_errors_in_the_texts_order_of_keys() {
    // serde_json's `preserve_order` (on in this build) keeps the members
    // in the order of the text.
    let text = r#"{"labels": {"b": 300, "a": "x"}, "z": 1, "ticket_id": 0}"#;
    let expected = [
        pair("out_of_range", "/labels/b"),
        pair("invalid_type", "/labels/a"),
        pair("unknown_key", "/z"),
        pair("below_minimum", "/ticket_id"),
    ];
    assert_eq!(codes_and_pointers(&checked(text).unwrap_err()), expected);
    let value: Value = serde_json::from_str(text).unwrap();
    let err = serde_json::from_value::<Checked<CloseTicket>>(value).unwrap_err();
    assert_eq!(codes_and_pointers(&err), expected);
}
