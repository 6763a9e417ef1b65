//! `from_json_first`: the first `n` errors of `from_json`, with reading
//! stopped after them. The decision is `from_json`'s (quarantine included);
//! the errors are a prefix of `from_json`'s; `truncated` says whether the
//! rest of the document was read.
use contract_examples::settings::Settings;
use contract_examples::vacation::VacationRequest;
use contract_runtime::error::MAX_ERRORS;
use contract_runtime::{Contract, Rejection};

#[derive(Contract, Debug, PartialEq)]
struct Part {
    #[contract(min_len = 1)]
    name: String,
    #[contract(max = 9)]
    count: u8,
}

#[derive(Contract, Debug, PartialEq)]
struct Order {
    #[contract(min = 1)]
    id: u32,
    parts: Vec<Part>,
    #[contract(quarantine, max_len = 3)]
    note: Option<String>,
    #[contract(quarantine)]
    extra: Option<Part>,
}

fn triple(r: &Rejection) -> Vec<(String, &'static str, String)> {
    r.errors
        .iter()
        .map(|e| (e.pointer.to_string(), e.code, e.message.to_string()))
        .collect()
}

// For every `n`, the errors are the first `n` of `from_json`'s (same
// pointer, code and message), and a document is accepted exactly when
// `from_json` accepts it, with the same value.
fn agrees<T: Contract + PartialEq + std::fmt::Debug>(raw: &str) {
    let all = T::from_json(raw);
    for n in [
        0,
        1,
        2,
        3,
        4,
        5,
        7,
        12,
        MAX_ERRORS,
        MAX_ERRORS + 1,
        usize::MAX,
    ] {
        let first = T::from_json_first(raw, n);
        match (&all, &first) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{raw}"),
            (Err(a), Err(b)) => {
                let keep = n.clamp(1, MAX_ERRORS);
                assert!(b.errors.len() <= keep, "{n} {raw}: {b}");
                let prefix = &triple(a)[..b.errors.len()];
                // A parse error is reported whole; otherwise a prefix.
                if a.errors[0].stage == contract_runtime::Stage::Parse && !b.truncated {
                    assert_eq!(triple(a), triple(b), "{raw}");
                } else {
                    assert_eq!(prefix, triple(b), "{n} {raw}");
                }
                if !b.truncated {
                    assert_eq!(
                        a.errors.len() + a.omitted,
                        b.errors.len() + b.omitted,
                        "{n} {raw}"
                    );
                }
                assert!(!a.truncated);
            }
            _ => panic!("{n} {raw}: {all:?} / {first:?}"),
        }
    }
}

#[test]
fn a_valid_document_is_accepted_with_the_same_value() {
    agrees::<Order>(r#"{"id":1,"parts":[{"name":"a","count":2}],"note":null,"extra":null}"#);
}

#[test]
fn reading_stops_after_the_first_errors() {
    let raw = r#"{"id":0,"parts":[{"name":"","count":10},{"name":7,"count":1}],"note":null,"extra":null}"#;
    let all = Order::from_json(raw).unwrap_err();
    assert_eq!(
        all.pointers(),
        ["/id", "/parts/0/name", "/parts/0/count", "/parts/1/name"]
    );
    let one = Order::from_json_first(raw, 1).unwrap_err();
    assert_eq!(one.pointers(), ["/id"]);
    assert!(one.truncated);
    assert_eq!(one.omitted, 0);
    let two = Order::from_json_first(raw, 2).unwrap_err();
    assert_eq!(two.pointers(), ["/id", "/parts/0/name"]);
    assert!(two.truncated);
    assert!(two.to_string().contains("reading stopped"), "{two}");
    agrees::<Order>(raw);
}

#[test]
fn a_parse_error_after_the_stop_is_not_read() {
    // `from_json` reports the syntax error; reading stops before it.
    let raw = r#"{"id":0,"parts":[} oops"#;
    let all = Order::from_json(raw).unwrap_err();
    assert_eq!(all.errors[0].code, "syntax");
    let first = Order::from_json_first(raw, 1).unwrap_err();
    assert_eq!(first.pointers(), ["/id"]);
    assert!(first.truncated);
    // Before the first error, the parse error is the rejection.
    let early = Order::from_json_first(r#"{"id":1,,"#, 1).unwrap_err();
    assert_eq!(early.errors[0].code, "syntax");
    assert!(!early.truncated);
}

#[test]
fn quarantine_absorbs_before_any_stop() {
    // `note` too long and `extra` failing its bound are value failures in
    // quarantined fields: `from_json` accepts; so must a stop at 1.
    let raw = r#"{"id":1,"parts":[],"note":"long","extra":{"name":"","count":10}}"#;
    let value = Order::from_json(raw).unwrap();
    assert_eq!(value.note, None);
    assert_eq!(Order::from_json_first(raw, 1).unwrap(), value);
    // A structural error inside a quarantined field rejects, and stops.
    let raw = r#"{"id":1,"parts":[],"note":null,"extra":{"name":1,"count":10},"x":1}"#;
    let first = Order::from_json_first(raw, 1).unwrap_err();
    assert_eq!(first.pointers(), ["/extra/name"]);
    assert!(first.truncated);
    agrees::<Order>(raw);
}

#[test]
fn unknown_keys_and_wrong_types_in_arrays_stop_too() {
    agrees::<Order>(
        r#"{"id":1,"a":1,"b":{"c":[1,{"d":2}]},"parts":[1,2,3],"note":null,"extra":null}"#,
    );
    agrees::<Order>(r#"{"parts":[{"count":99}],"id":1}"#);
    let raw = format!(
        r#"{{"id":1,"parts":[{}],"note":null,"extra":null}}"#,
        vec!["0"; 100].join(",")
    );
    let first = Order::from_json_first(&raw, 3).unwrap_err();
    assert_eq!(first.pointers(), ["/parts/0", "/parts/1", "/parts/2"]);
    assert!(first.truncated);
    let all = Order::from_json(&raw).unwrap_err();
    assert_eq!(
        (all.errors.len(), all.omitted),
        (MAX_ERRORS, 100 - MAX_ERRORS)
    );
    agrees::<Order>(&raw);
}

#[test]
fn the_seed_documents_agree() {
    let docs: serde_json::Value =
        serde_json::from_str(include_str!("../../../benches/documents.json")).unwrap();
    for (key, check) in [
        ("settings", agrees::<Settings> as fn(&str)),
        ("vacation", agrees::<VacationRequest>),
    ] {
        let set = &docs["contracts"][key];
        for case in ["one_error", "many_errors"] {
            check(set[case].as_str().unwrap());
        }
        for valid in set["valid"].as_array().unwrap() {
            check(valid.as_str().unwrap());
        }
    }
}

/// Two variants that share their first member: a document whose tag comes
/// last is first decoded on a guess (the first variant declaring `x`).
#[derive(Contract, Debug, PartialEq)]
#[contract(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Wide {
        x: u8,
        #[contract(max = 9)]
        y: u8,
    },
    Tall {
        x: u8,
        #[contract(max = 9)]
        z: u8,
    },
}

// A guess that goes wrong meets errors of the wrong variant (`/z` is not
// a member of `wide`); they are taken back, and they must not stop the
// reading either: the variant the tag names decides.
#[test]
fn a_wrong_guess_of_a_union_does_not_stop_the_reading() {
    for raw in [
        r#"{"x":1,"z":2,"kind":"tall"}"#,
        r#"{"x":1,"z":20,"kind":"tall"}"#,
        r#"{"x":1,"z":20,"q":1,"kind":"tall"}"#,
        r#"{"x":1,"y":2,"kind":"wide"}"#,
        r#"{"x":1,"y":20,"w":0,"kind":"wide"}"#,
        r#"{"x":1,"z":2,"y":3,"kind":"tall"}"#,
        r#"{"x":1,"z":2}"#,
    ] {
        agrees::<Shape>(raw);
    }
    assert_eq!(
        Shape::from_json_first(r#"{"x":1,"z":2,"kind":"tall"}"#, 1),
        Ok(Shape::Tall { x: 1, z: 2 })
    );
}
