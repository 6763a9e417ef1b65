//! JSONTestSuite conformance of `contract_runtime::json::parse`.
//!
//! The cases are read from `shared/data/JSONTestSuite` beside the repository
//! (or from the folder named by `CONTRACT_TEST_DATA`). Every `n_` case must be
//! rejected; every `y_` case accepted, except the ones the strict policy
//! refuses on purpose ([`Y_REFUSED`]); every `i_` case has a recorded decision
//! ([`I_DECISIONS`], explained in RELIABILITY.md); every accepted case must
//! give the value `serde_json` gives.
use std::collections::BTreeSet;
use std::path::PathBuf;

use contract_runtime::Stage;
use contract_runtime::json::{Limits, parse};
use serde_json::Value;

/// Large enough for every case; depth is 1024 (the cases about depth say so
/// in their table entry).
const LIMITS: Limits = Limits {
    max_bytes: usize::MAX,
    max_depth: 1024,
};

/// `y_` cases that the strict policy refuses on purpose: (file, code, reason).
const Y_REFUSED: &[(&str, &str, &str)] = &[
    (
        "y_object_duplicated_key.json",
        "duplicate_key",
        "a key twice in one object is ambiguous (parsers disagree on which value wins); \
         I-JSON (RFC 7493) forbids it",
    ),
    (
        "y_object_duplicated_key_and_value.json",
        "duplicate_key",
        "the same key twice is refused even with the same value: the policy never \
         compares values to excuse a duplicate",
    ),
];

/// The decision for an implementation-defined case.
#[derive(Debug, Clone, Copy)]
enum Decision {
    /// Accepted; the reason says what the value is.
    Accept(&'static str),
    /// Rejected with this code; the reason says why.
    Reject(&'static str, &'static str),
}

use Decision::{Accept, Reject};

/// Every `i_` case of JSONTestSuite, with our decision (mirrored in
/// RELIABILITY.md, "JSONTestSuite i_ decisions").
const I_DECISIONS: &[(&str, Decision)] = &[
    // Numbers: only a number that overflows f64 is refused. Underflow is a
    // rounding to zero, and an integer beyond 64 bits is a float; an integer
    // field of a contract refuses both at the schema stage (out_of_range).
    (
        "i_number_double_huge_neg_exp.json",
        Accept("123.456e-789 underflows to 0.0"),
    ),
    (
        "i_number_huge_exp.json",
        Reject(
            "number_overflow",
            "the exponent makes the number infinite as f64",
        ),
    ),
    (
        "i_number_neg_int_huge_exp.json",
        Reject("number_overflow", "-1e+9999 is -infinity as f64"),
    ),
    (
        "i_number_pos_double_huge_exp.json",
        Reject("number_overflow", "1.5e+9999 is infinity as f64"),
    ),
    (
        "i_number_real_neg_overflow.json",
        Reject("number_overflow", "-123123e100000 is -infinity as f64"),
    ),
    (
        "i_number_real_pos_overflow.json",
        Reject("number_overflow", "123123e100000 is infinity as f64"),
    ),
    (
        "i_number_real_underflow.json",
        Accept("123e-10000000 underflows to 0.0"),
    ),
    (
        "i_number_too_big_neg_int.json",
        Accept("a 30-digit negative integer, held as the nearest f64"),
    ),
    (
        "i_number_too_big_pos_int.json",
        Accept("100000000000000000000 (> u64::MAX), held as the nearest f64"),
    ),
    (
        "i_number_very_big_negative_int.json",
        Accept("a 48-digit negative integer, held as the nearest f64"),
    ),
    // Strings: escapes must decode to Unicode scalar values, and the input
    // must be UTF-8 (RFC 8259 section 8.1, I-JSON section 2.1).
    (
        "i_object_key_lone_2nd_surrogate.json",
        Reject("lone_surrogate", "a key with a lone low surrogate escape"),
    ),
    (
        "i_string_1st_surrogate_but_2nd_missing.json",
        Reject("lone_surrogate", "a high surrogate escape with no low one"),
    ),
    (
        "i_string_1st_valid_surrogate_2nd_invalid.json",
        Reject(
            "lone_surrogate",
            "a high surrogate followed by a non-surrogate escape",
        ),
    ),
    (
        "i_string_UTF-16LE_with_BOM.json",
        Reject("invalid_utf8", "UTF-16 is not accepted; only UTF-8"),
    ),
    (
        "i_string_UTF-8_invalid_sequence.json",
        Reject("invalid_utf8", "an invalid UTF-8 sequence"),
    ),
    (
        "i_string_UTF8_surrogate_U+D800.json",
        Reject("invalid_utf8", "a surrogate encoded in UTF-8 is not UTF-8"),
    ),
    (
        "i_string_incomplete_surrogate_and_escape_valid.json",
        Reject("lone_surrogate", "a high surrogate followed by `\\n`"),
    ),
    (
        "i_string_incomplete_surrogate_pair.json",
        Reject("lone_surrogate", "a high surrogate followed by text"),
    ),
    (
        "i_string_incomplete_surrogates_escape_valid.json",
        Reject("lone_surrogate", "two high surrogates in a row"),
    ),
    (
        "i_string_invalid_lonely_surrogate.json",
        Reject("lone_surrogate", "a lone high surrogate escape"),
    ),
    (
        "i_string_invalid_surrogate.json",
        Reject("lone_surrogate", "a high surrogate followed by text"),
    ),
    (
        "i_string_invalid_utf-8.json",
        Reject("invalid_utf8", "a byte that never occurs in UTF-8"),
    ),
    (
        "i_string_inverted_surrogates_U+1D11E.json",
        Reject(
            "lone_surrogate",
            "a low surrogate before its high surrogate",
        ),
    ),
    (
        "i_string_iso_latin_1.json",
        Reject("invalid_utf8", "ISO-8859-1 text is not UTF-8"),
    ),
    (
        "i_string_lone_second_surrogate.json",
        Reject("lone_surrogate", "a lone low surrogate escape"),
    ),
    (
        "i_string_lone_utf8_continuation_byte.json",
        Reject("invalid_utf8", "a continuation byte without a lead byte"),
    ),
    (
        "i_string_not_in_unicode_range.json",
        Reject("invalid_utf8", "a code point above U+10FFFF"),
    ),
    (
        "i_string_overlong_sequence_2_bytes.json",
        Reject("invalid_utf8", "an overlong encoding"),
    ),
    (
        "i_string_overlong_sequence_6_bytes.json",
        Reject("invalid_utf8", "an overlong 6-byte encoding"),
    ),
    (
        "i_string_overlong_sequence_6_bytes_null.json",
        Reject("invalid_utf8", "an overlong encoding of NUL"),
    ),
    (
        "i_string_truncated-utf-8.json",
        Reject("invalid_utf8", "a truncated UTF-8 sequence"),
    ),
    (
        "i_string_utf16BE_no_BOM.json",
        Reject("invalid_utf8", "UTF-16 is not accepted; only UTF-8"),
    ),
    (
        "i_string_utf16LE_no_BOM.json",
        Reject("invalid_utf8", "UTF-16 is not accepted; only UTF-8"),
    ),
    // Structure.
    (
        "i_structure_500_nested_arrays.json",
        Accept(
            "500 levels fit this test's max_depth of 1024; the default limit (64) \
             refuses it with too_deep (see i_structure_500_nested_arrays_is_too_deep_by_default)",
        ),
    ),
    (
        "i_structure_UTF-8_BOM_empty_object.json",
        Reject(
            "byte_order_mark",
            "RFC 8259 section 8.1: a sender must not add a BOM; we refuse it rather than skip it",
        ),
    ),
];

// Codes that only the strict policy produces: JSON that a lenient parser
// accepts may still be refused with one of these.
const STRICTNESS_CODES: &[&str] = &[
    "duplicate_key",
    "lone_surrogate",
    "number_overflow",
    "byte_order_mark",
    "too_deep",
    "too_large",
];

/// `n_` cases refused with a strictness code (the rest get a grammar code):
/// each is invalid JSON regardless, and the table keeps that visible.
const N_STRICTNESS: &[(&str, &str, &str)] = &[
    (
        "n_structure_100000_opening_arrays.json",
        "too_deep",
        "never closed; the depth limit is reached first",
    ),
    (
        "n_structure_open_array_object.json",
        "too_deep",
        "never closed; the depth limit is reached first",
    ),
    (
        "n_structure_UTF8_BOM_no_data.json",
        "byte_order_mark",
        "a BOM and nothing else",
    ),
    (
        "n_string_1_surrogate_then_escape.json",
        "lone_surrogate",
        "`\\uD800\\\"` then the input ends: the surrogate is alone before the string is cut",
    ),
    (
        "n_string_incomplete_surrogate_escape_invalid.json",
        "lone_surrogate",
        "`\\uD800\\uD800\\x`: the first surrogate is alone before the bad escape",
    ),
];

/// `test_transform/` cases: the value we produce, or the rejection.
#[derive(Debug, Clone, Copy)]
enum Transform {
    /// Accepted; the value equals this JSON text as `serde_json` reads it
    /// (compared exactly: integer vs float, the bits of every float).
    Value(&'static str),
    /// Rejected with this code at this pointer.
    Reject(&'static str, &'static str),
}

const TRANSFORMS: &[(&str, Transform)] = &[
    (
        "number_-9223372036854775808.json",
        Transform::Value("[-9223372036854775808]"),
    ),
    (
        "number_-9223372036854775809.json",
        Transform::Value("[-9223372036854775808.0]"),
    ),
    ("number_1.0.json", Transform::Value("[1.0]")),
    (
        "number_1.000000000000000005.json",
        Transform::Value("[1.0]"),
    ),
    (
        "number_1000000000000000.json",
        Transform::Value("[1000000000000000]"),
    ),
    (
        "number_10000000000000000999.json",
        Transform::Value("[10000000000000000999]"),
    ),
    ("number_1e-999.json", Transform::Value("[0.0]")),
    ("number_1e6.json", Transform::Value("[1000000.0]")),
    (
        "number_9223372036854775807.json",
        Transform::Value("[9223372036854775807]"),
    ),
    (
        "number_9223372036854775808.json",
        Transform::Value("[9223372036854775808]"),
    ),
    // No Unicode normalisation: NFC and NFD spellings are different keys.
    (
        "object_key_nfc_nfd.json",
        Transform::Value(r#"{"\u00e9":"NFC","e\u0301":"NFD"}"#),
    ),
    (
        "object_key_nfd_nfc.json",
        Transform::Value(r#"{"e\u0301":"NFD","\u00e9":"NFC"}"#),
    ),
    (
        "object_same_key_different_values.json",
        Transform::Reject("duplicate_key", "/a"),
    ),
    (
        "object_same_key_same_value.json",
        Transform::Reject("duplicate_key", "/a"),
    ),
    (
        "object_same_key_unclear_values.json",
        Transform::Reject("duplicate_key", "/a"),
    ),
    (
        "string_1_escaped_invalid_codepoint.json",
        Transform::Reject("lone_surrogate", ""),
    ),
    (
        "string_1_invalid_codepoint.json",
        Transform::Reject("invalid_utf8", ""),
    ),
    (
        "string_2_escaped_invalid_codepoints.json",
        Transform::Reject("lone_surrogate", ""),
    ),
    (
        "string_2_invalid_codepoints.json",
        Transform::Reject("invalid_utf8", ""),
    ),
    (
        "string_3_escaped_invalid_codepoints.json",
        Transform::Reject("lone_surrogate", ""),
    ),
    (
        "string_3_invalid_codepoints.json",
        Transform::Reject("invalid_utf8", ""),
    ),
    (
        "string_with_escaped_NULL.json",
        Transform::Value(r#"["A\u0000B"]"#),
    ),
];

/// The JSONTestSuite folder, or `None` (with a loud message) when the
/// default location is absent. A `CONTRACT_TEST_DATA` that names a missing
/// folder is a failure: someone asked for those cases.
fn suite_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CONTRACT_TEST_DATA") {
        let dir = PathBuf::from(dir);
        assert!(
            dir.join("test_parsing").is_dir(),
            "CONTRACT_TEST_DATA={} has no test_parsing/ folder",
            dir.display()
        );
        return Some(dir);
    }
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/data/JSONTestSuite"
    ));
    if dir.join("test_parsing").is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "\n\
             ************************************************************\n\
             * SKIPPED: JSONTestSuite not found at {}\n\
             * (set CONTRACT_TEST_DATA to the JSONTestSuite folder)\n\
             ************************************************************\n",
            dir.display()
        );
        None
    }
}

/// Every file of `test_parsing/` (or `test_transform/`), sorted by name.
fn read_cases(sub: &str) -> Option<Vec<(String, Vec<u8>)>> {
    let dir = suite_dir()?.join(sub);
    let mut cases: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            let bytes = std::fs::read(&path).unwrap();
            (name, bytes)
        })
        .filter(|(name, _)| name.ends_with(".json"))
        .collect();
    cases.sort();
    Some(cases)
}

/// The parsing cases, checked to be the whole suite (never zero cases).
fn parsing_cases() -> Option<Vec<(String, Vec<u8>)>> {
    let cases = read_cases("test_parsing")?;
    assert!(
        cases.len() > 300,
        "only {} JSONTestSuite parsing cases were read",
        cases.len()
    );
    Some(cases)
}

fn with_prefix<'a>(
    cases: &'a [(String, Vec<u8>)],
    prefix: &'a str,
) -> impl Iterator<Item = (&'a str, &'a [u8])> {
    cases
        .iter()
        .filter(move |(name, _)| name.starts_with(prefix))
        .map(|(name, bytes)| (name.as_str(), bytes.as_slice()))
}

// A rejection from `json::parse` is one parse-stage error with a position.
fn assert_parse_rejection(name: &str, rejection: &contract_runtime::Rejection) {
    assert_eq!(rejection.errors.len(), 1, "{name}: {rejection:?}");
    let error = &rejection.errors[0];
    assert_eq!(error.stage, Stage::Parse, "{name}");
    assert!(!error.code.is_empty(), "{name}");
    assert!(
        error.line.is_some() && error.column.is_some(),
        "{name}: no position"
    );
    if error.code != "duplicate_key" {
        assert_eq!(error.pointer, "", "{name}");
    }
}

/// The differences from `serde_json`'s value that [`assert_same`] allows,
/// and where each occurred.
#[derive(Debug, Default)]
struct Allowed {
    /// A float one unit in the last place away. Ours are correctly rounded
    /// (`str::parse::<f64>`); `serde_json`'s are only when its
    /// `float_roundtrip` feature is on. In this workspace a dev-dependency
    /// (`jsonschema`) turns it on, so the tolerance is unused here, but
    /// without it `i_number_very_big_negative_int` differs in the last bit.
    ulp: Vec<String>,
    /// `-0`: the integer 0 for us (so that `-0` and `0` are one value),
    /// the float `-0.0` for `serde_json`.
    minus_zero: Vec<String>,
}

/// Compares two values exactly: the same integer/float representation, the
/// same key order, and floats bit for bit, except for the differences
/// [`Allowed`] lists (recorded there).
fn assert_same(ours: &Value, theirs: &Value, at: &str, allowed: &mut Allowed) {
    match (ours, theirs) {
        (Value::Number(a), Value::Number(b)) => {
            let negative_zero = b.as_f64().map(f64::to_bits) == Some((-0.0f64).to_bits());
            if a.as_u64() == Some(0) && b.is_f64() && negative_zero {
                allowed.minus_zero.push(at.to_owned());
            } else if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
                assert_eq!(x, y, "{at}");
            } else if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
                assert!(a.is_i64() && b.is_i64(), "{at}: {a} vs {b}");
                assert_eq!(x, y, "{at}");
            } else {
                assert!(a.is_f64() && b.is_f64(), "{at}: {a} vs {b}");
                let (x, y) = (a.as_f64().unwrap(), b.as_f64().unwrap());
                if x.to_bits() != y.to_bits() {
                    assert!(
                        x.is_sign_negative() == y.is_sign_negative()
                            && x.to_bits().abs_diff(y.to_bits()) == 1,
                        "{at}: {x:e} vs {y:e} differ by more than one ULP"
                    );
                    allowed.ulp.push(at.to_owned());
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{at}");
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                assert_same(x, y, &format!("{at}/{i}"), allowed);
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            let ka: Vec<_> = a.keys().collect();
            let kb: Vec<_> = b.keys().collect();
            assert_eq!(ka, kb, "{at}: keys or their order differ");
            for (k, x) in a {
                assert_same(x, &b[k], &format!("{at}/{k}"), allowed);
            }
        }
        (a, b) => assert_eq!(a, b, "{at}"),
    }
}

#[test]
fn every_n_case_is_rejected() {
    let Some(cases) = parsing_cases() else { return };
    let mut checked = 0;
    for (name, bytes) in with_prefix(&cases, "n_") {
        let rejection = match parse(bytes, &LIMITS) {
            Ok(value) => panic!("{name} was accepted as {value}"),
            Err(rejection) => rejection,
        };
        assert_parse_rejection(name, &rejection);
        let code = rejection.errors[0].code;
        let listed = N_STRICTNESS.iter().find(|(n, _, _)| *n == name);
        match listed {
            Some((_, expected, _)) => assert_eq!(code, *expected, "{name}"),
            None => assert!(
                !STRICTNESS_CODES.contains(&code),
                "{name} is refused with the strictness code {code}: list it in N_STRICTNESS"
            ),
        }
        checked += 1;
    }
    assert!(checked >= 180, "only {checked} n_ cases");
}

#[test]
fn every_y_case_is_accepted_except_the_listed_policy_refusals() {
    let Some(cases) = parsing_cases() else { return };
    let mut checked = 0;
    let mut refused = BTreeSet::new();
    for (name, bytes) in with_prefix(&cases, "y_") {
        let result = parse(bytes, &LIMITS);
        match Y_REFUSED.iter().find(|(n, _, _)| *n == name) {
            Some((_, code, _)) => {
                let rejection = result.expect_err(name);
                assert_parse_rejection(name, &rejection);
                assert_eq!(rejection.errors[0].code, *code, "{name}");
                refused.insert(name);
            }
            None => {
                if let Err(rejection) = result {
                    panic!("{name} was rejected: {rejection}");
                }
            }
        }
        checked += 1;
    }
    assert!(checked >= 90, "only {checked} y_ cases");
    let listed: BTreeSet<_> = Y_REFUSED.iter().map(|(n, _, _)| *n).collect();
    assert_eq!(refused, listed, "a Y_REFUSED entry names no file");
}

#[test]
fn every_i_case_has_its_recorded_decision() {
    let Some(cases) = parsing_cases() else { return };
    let files: BTreeSet<_> = with_prefix(&cases, "i_").map(|(n, _)| n).collect();
    let table: BTreeSet<_> = I_DECISIONS.iter().map(|(n, _)| *n).collect();
    assert_eq!(files, table, "I_DECISIONS must list every i_ file, no more");
    for (name, bytes) in with_prefix(&cases, "i_") {
        let (_, decision) = I_DECISIONS.iter().find(|(n, _)| *n == name).unwrap();
        match (*decision, parse(bytes, &LIMITS)) {
            (Accept(_), Ok(_)) => {}
            (Accept(why), Err(rejection)) => {
                panic!("{name} should be accepted ({why}): {rejection}")
            }
            (Reject(code, _), Err(rejection)) => {
                assert_parse_rejection(name, &rejection);
                assert_eq!(rejection.errors[0].code, code, "{name}");
            }
            (Reject(code, why), Ok(value)) => {
                panic!("{name} should be rejected with {code} ({why}), got {value}")
            }
        }
    }
}

#[test]
fn i_structure_500_nested_arrays_is_too_deep_by_default() {
    let Some(cases) = parsing_cases() else { return };
    let (_, bytes) = with_prefix(&cases, "i_structure_500_nested_arrays")
        .next()
        .unwrap();
    let rejection = parse(bytes, &Limits::default()).unwrap_err();
    assert_eq!(rejection.errors[0].code, "too_deep");
    assert_eq!(rejection.errors[0].column, Some(65));
}

#[test]
fn every_accepted_case_has_the_value_serde_json_gives() {
    let Some(cases) = parsing_cases() else { return };
    let mut compared = 0;
    let mut allowed = Allowed::default();
    for (name, bytes) in with_prefix(&cases, "y_").chain(with_prefix(&cases, "i_")) {
        let Ok(ours) = parse(bytes, &LIMITS) else {
            continue;
        };
        let theirs = if name == "i_structure_500_nested_arrays.json" {
            // serde_json stops at 128 levels; build the value it would give:
            // an empty array inside 499 more.
            (1..500).fold(Value::Array(Vec::new()), |inner, _| {
                Value::Array(vec![inner])
            })
        } else {
            serde_json::from_slice::<Value>(bytes).unwrap()
        };
        assert_same(&ours, &theirs, name, &mut allowed);
        compared += 1;
    }
    assert!(compared >= 95, "only {compared} accepted cases compared");
    if !allowed.ulp.is_empty() {
        eprintln!("floats within one ULP of serde_json's: {:?}", allowed.ulp);
    }
    assert_eq!(
        allowed.minus_zero,
        [
            "y_number_minus_zero.json/0",
            "y_number_negative_zero.json/0"
        ]
    );
}

#[test]
fn a_long_integer_becomes_the_correctly_rounded_float() {
    // The case where serde_json without `float_roundtrip` is one bit off:
    // ours is what a correctly rounding parser (std's, Python's float()) gives.
    let ours = parse(
        b"[-237462374673276894279832749832423479823246327846]",
        &LIMITS,
    )
    .unwrap();
    let exact: f64 = "-237462374673276894279832749832423479823246327846"
        .parse()
        .unwrap();
    assert_eq!(ours[0].as_f64().unwrap().to_bits(), exact.to_bits());
    assert_eq!(exact, -2.374623746732769e47);
}

#[test]
fn every_transform_case_has_its_recorded_decision() {
    let Some(cases) = read_cases("test_transform") else {
        return;
    };
    assert!(cases.len() >= 20, "only {} transform cases", cases.len());
    let files: BTreeSet<_> = cases.iter().map(|(n, _)| n.as_str()).collect();
    let table: BTreeSet<_> = TRANSFORMS.iter().map(|(n, _)| *n).collect();
    assert_eq!(files, table, "TRANSFORMS must list every file, no more");
    for (name, bytes) in &cases {
        let (_, expect) = TRANSFORMS.iter().find(|(n, _)| n == name).unwrap();
        match (*expect, parse(bytes, &LIMITS)) {
            (Transform::Value(text), Ok(ours)) => {
                let expected: Value = serde_json::from_str(text).unwrap();
                let mut allowed = Allowed::default();
                assert_same(&ours, &expected, name, &mut allowed);
                assert!(allowed.ulp.is_empty(), "{name}: not bit-exact");
                assert!(allowed.minus_zero.is_empty(), "{name}: a `-0`");
            }
            (Transform::Reject(code, pointer), Err(rejection)) => {
                assert_parse_rejection(name, &rejection);
                assert_eq!(rejection.errors[0].code, code, "{name}");
                assert_eq!(rejection.errors[0].pointer, pointer, "{name}");
            }
            (expect, got) => panic!("{name}: expected {expect:?}, got {got:?}"),
        }
    }
}

#[test]
fn minus_zero_is_the_integer_zero_and_a_negative_float_zero_keeps_its_sign() {
    let value = parse(b"[-0, 0, -0.0, -0e1]", &LIMITS).unwrap();
    assert!(value[0].is_u64() && value[1].is_u64());
    assert_eq!(value[0], value[1]);
    for float in &value.as_array().unwrap()[2..] {
        assert!(float.is_f64());
        assert_eq!(float.as_f64().unwrap().to_bits(), (-0.0f64).to_bits());
    }
}

#[test]
fn a_valid_case_cut_anywhere_is_unexpected_end() {
    // A prefix of a `y_` case that is not a document itself is a cut text
    // (an output stopped by a token limit), wherever the cut falls: inside
    // an escape, between a surrogate's halves, a literal or a number.
    let Some(cases) = parsing_cases() else { return };
    let mut cuts_after_an_escape = 0;
    for (name, bytes) in with_prefix(&cases, "y_") {
        let refused = Y_REFUSED.iter().any(|(n, _, _)| *n == name);
        let Ok(text) = std::str::from_utf8(bytes) else {
            continue;
        };
        for (cut, _) in text.char_indices() {
            if let Err(rejection) = parse(&bytes[..cut], &LIMITS) {
                let code = rejection.errors[0].code;
                let allowed = refused && code == "duplicate_key";
                assert!(
                    code == "unexpected_end" || allowed,
                    "{name} cut to {:?}: {code}",
                    &text[..cut]
                );
                cuts_after_an_escape += usize::from(text[..cut].contains('\\'));
            }
        }
    }
    assert!(
        cuts_after_an_escape >= 100,
        "only {cuts_after_an_escape} cuts after an escape"
    );
}
