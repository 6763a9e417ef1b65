//! The scanner alone, on the plan built from each contract's description.
use super::*;

fn scan<T: crate::json_type::JsonType>(text: &str) -> Result<(), Stop> {
    let mut scanner = Scanner::new(Box::leak(Box::new(Plan::of(&T::TYPE))), 64);
    scanner.feed(text, 0)
}

#[derive(Contract, Debug)]
struct Chain {
    next: Option<Box<Chain>>,
    n: i64,
}

#[test]
fn a_recursive_contract_is_built_once_and_checked_at_each_level() {
    assert!(scan::<Chain>(r#"{"n":1,"next":{"n":2,"next":null}}"#).is_ok());
    let Err(Stop::Schema(e)) = scan::<Chain>(r#"{"n":1,"next":{"n":2,"nxt""#) else {
        panic!("an unknown key two levels down");
    };
    assert_eq!((e.pointer.as_str(), e.code), ("/next/nxt", "unknown_key"));
}

#[derive(Contract, Debug)]
struct Measured {
    #[contract(optional, equals = 1.5)]
    x: Option<f64>,
    #[contract(optional, equals = true)]
    flag: Option<bool>,
}

#[test]
fn a_float_or_boolean_value_list_is_left_to_finish() {
    assert!(scan::<Measured>(r#"{"x":2.5,"flag":false,"#).is_ok());
}

#[derive(Contract, Debug)]
struct Formats {
    #[contract(optional, pattern = "^[A-Z]{2}.$")]
    code: Option<String>,
    #[contract(optional, format = "uuid")]
    id: Option<String>,
    #[contract(optional, format = "email")]
    mail: Option<String>,
    #[contract(optional)]
    at: Option<crate::DateTime>,
}

#[test]
fn a_pattern_or_format_is_decided_at_the_closing_quote() {
    let code = |text: &str| match scan::<Formats>(text) {
        Err(Stop::Schema(e)) => Some((e.pointer.clone(), e.code)),
        _ => None,
    };
    // `.` is any character but a line terminator, as ECMA-262 reads it.
    assert_eq!(code(r#"{"code":"ABc"}"#), None);
    assert_eq!(code(r#"{"code":"AB\u2028"#), None);
    assert_eq!(
        code(r#"{"code":"AB\u2028""#),
        Some(("/code".into(), "pattern_mismatch"))
    );
    assert_eq!(
        code(r#"{"id":"123e4567-e89b-12d3-a456-426614174000"}"#),
        None
    );
    assert_eq!(
        code(r#"{"id":"123e4567""#),
        Some(("/id".into(), "invalid_uuid"))
    );
    assert_eq!(code(r#"{"mail":"a@example.com"}"#), None);
    assert_eq!(
        code(r#"{"mail":"a@""#),
        Some(("/mail".into(), "invalid_email"))
    );
    assert_eq!(code(r#"{"at":"2027-06-01T10:00:00Z"}"#), None);
    assert_eq!(
        code(r#"{"at":"2027-06-01T10:00""#),
        Some(("/at".into(), "invalid_date_time"))
    );
    // A date-time's date is decided on its prefix, like a date's.
    assert_eq!(
        code(r#"{"at":"2027-02-3"#),
        Some(("/at".into(), "invalid_date_time"))
    );
    assert_eq!(
        code(r#"{"at":"2027-02-28 "#),
        Some(("/at".into(), "invalid_date_time"))
    );
    assert_eq!(code(r#"{"at":"2027-02-28T25"#), None);
}

#[derive(Contract, Debug)]
#[contract(tag = "op", rename_all = "snake_case")]
enum Op {
    A,
    B,
}

#[derive(Contract, Debug)]
struct Ops {
    #[contract(max_len = 1)]
    ops: Vec<Op>,
}

#[test]
fn an_array_of_tagged_unions_is_judged_at_its_close() {
    // A tag decides its variant; it casts no doubt on the array's length.
    assert!(scan::<Ops>(r#"{"ops":[{"op":"a"}]"#).is_ok());
    let Err(Stop::Schema(e)) = scan::<Ops>(r#"{"ops":[{"op":"a"},{"op":"b"}]"#) else {
        panic!("two items for at most one");
    };
    assert_eq!((e.pointer.as_str(), e.code), ("/ops", "too_long"));
}

#[derive(Contract, Debug)]
struct Byte {
    x: u8,
}

#[derive(Contract, Debug)]
struct Word {
    x: u16,
}

#[derive(Contract, Debug)]
struct Wrap<T> {
    v: T,
}

#[derive(Contract, Debug)]
struct Pair {
    a: Wrap<Byte>,
    b: Wrap<Word>,
}

#[test]
fn each_instantiation_of_a_generic_contract_is_planned_with_its_own_types() {
    let ok = r#"{"a":{"v":{"x":1}},"b":{"v":{"x":300}}}"#;
    assert_eq!(rejected_at::<Pair>(ok), None);
    assert!(Pair::check(ok).is_accept());
    assert_eq!(
        decided::<Pair>(r#"{"a":{"v":{"x":300}"#, r#"{"a":{"v":{"x":300}}}"#),
        Some((18, "/a/v/x".into(), "out_of_range"))
    );
}
