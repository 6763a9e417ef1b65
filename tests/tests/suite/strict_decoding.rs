//! The strict decoding policy (the parse and schema stages of the README's
//! "What is checked, in order", and the table of `contract_runtime::json`),
//! one behaviour per test, on the close-ticket and triage contracts of the seeds
//! and a few shapes of our own.
use std::collections::BTreeMap;

use contract_runtime::{Contract, Rejection, Stage};

/// Close a ticket (seed 000).
#[derive(Contract, Debug, PartialEq)]
#[contract(max_bytes = 4096)]
struct CloseTicket {
    #[contract(equals = "close_ticket")]
    action: String,
    #[contract(min = 1)]
    ticket_id: u64,
    #[contract(min_len = 1, max_len = 200)]
    reason: String,
}

/// Triage a customer message (seed 002).
#[derive(Contract, Debug, PartialEq)]
struct Triage {
    #[contract(one_of = ["cobranca", "bug", "duvida", "reclamacao", "outro"])]
    categoria: String,
    #[contract(one_of = ["baixa", "normal", "alta", "critica"])]
    prioridade: String,
    #[contract(min = 0, max = 1)]
    confianca: f64,
    #[contract(max_len = 500)]
    motivo: String,
}

#[derive(Contract, Debug, PartialEq)]
struct Item {
    sku: String,
    qty: u32,
}

#[derive(Contract, Debug, PartialEq)]
struct Order {
    items: Vec<Item>,
    labels: BTreeMap<String, i8>,
    note: Option<String>,
    #[contract(optional)]
    coupon: Option<String>,
}

fn codes(r: &Rejection) -> Vec<(Stage, &str, &str)> {
    r.errors
        .iter()
        .map(|e| (e.stage, e.pointer.as_str(), e.code))
        .collect()
}

const TICKET: &str = r#"{"action":"close_ticket","ticket_id":7,"reason":"customer confirmed"}"#;

#[test]
fn a_valid_ticket_decodes() {
    let t = CloseTicket::from_json(TICKET).unwrap();
    assert_eq!(t.ticket_id, 7);
    assert_eq!(t.action, "close_ticket");
}

#[test]
fn a_string_is_not_an_integer() {
    let r = CloseTicket::from_json(r#"{"action":"close_ticket","ticket_id":"7","reason":"x"}"#)
        .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/ticket_id", "invalid_type")]);
}

#[test]
fn a_boolean_is_not_an_integer() {
    let r = CloseTicket::from_json(r#"{"action":"close_ticket","ticket_id":true,"reason":"x"}"#)
        .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/ticket_id", "invalid_type")]);
}

#[test]
fn fractions_and_exponents_are_not_integers() {
    for n in ["7.0", "7e0", "7E+0", "0.7e1"] {
        let raw = format!(r#"{{"action":"close_ticket","ticket_id":{n},"reason":"x"}}"#);
        let r = CloseTicket::from_json(&raw).unwrap_err();
        assert_eq!(
            codes(&r),
            [(Stage::Schema, "/ticket_id", "invalid_type")],
            "{n}"
        );
    }
}

#[test]
fn an_integer_out_of_the_type_is_out_of_range_not_wrapped() {
    let r = CloseTicket::from_json(r#"{"action":"close_ticket","ticket_id":-1,"reason":"x"}"#)
        .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/ticket_id", "out_of_range")]);
    let r = CloseTicket::from_json(
        r#"{"action":"close_ticket","ticket_id":123456789012345678901234567890,"reason":"x"}"#,
    )
    .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/ticket_id", "out_of_range")]);
}

#[test]
fn a_number_that_overflows_f64_is_a_parse_error() {
    let r = CloseTicket::from_json(r#"{"action":"close_ticket","ticket_id":1e400,"reason":"x"}"#)
        .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "", "number_overflow")]);
    assert_eq!((r.errors[0].line, r.errors[0].column), (Some(1), Some(38)));
}

#[test]
fn bounds_are_checked() {
    let r = CloseTicket::from_json(r#"{"action":"close_ticket","ticket_id":0,"reason":""}"#)
        .unwrap_err();
    assert_eq!(
        codes(&r),
        [
            (Stage::Schema, "/ticket_id", "below_minimum"),
            (Stage::Schema, "/reason", "too_short")
        ]
    );
}

#[test]
fn lengths_count_unicode_scalar_values() {
    let reason = "é".repeat(200); // 400 bytes, 200 characters
    let raw = format!(r#"{{"action":"close_ticket","ticket_id":7,"reason":"{reason}"}}"#);
    assert!(CloseTicket::from_json(&raw).is_ok());
    let raw = format!(r#"{{"action":"close_ticket","ticket_id":7,"reason":"{reason}é"}}"#);
    let r = CloseTicket::from_json(&raw).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/reason", "too_long")]);
}

#[test]
fn equals_is_checked() {
    let r = CloseTicket::from_json(r#"{"action":"delete_ticket","ticket_id":7,"reason":"x"}"#)
        .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/action", "not_equal")]);
}

#[test]
fn an_unknown_key_is_an_error_at_its_own_pointer() {
    let r = CloseTicket::from_json(
        r#"{"action":"close_ticket","ticket_id":7,"reason":"x","force":true}"#,
    )
    .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/force", "unknown_key")]);
}

#[test]
fn a_missing_key_is_an_error_at_the_member() {
    let r = CloseTicket::from_json(r#"{"action":"close_ticket","reason":"x"}"#).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/ticket_id", "missing_key")]);
}

#[test]
fn a_nullable_key_must_be_present() {
    let r = Order::from_json(r#"{"items":[],"labels":{}}"#).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/note", "missing_key")]);
    let ok = Order::from_json(r#"{"items":[],"labels":{},"note":null}"#).unwrap();
    assert_eq!(ok.note, None);
}

#[test]
fn an_optional_key_may_be_absent() {
    let ok = Order::from_json(r#"{"items":[],"labels":{},"note":null}"#).unwrap();
    assert_eq!(ok.coupon, None);
    let ok = Order::from_json(r#"{"items":[],"labels":{},"note":null,"coupon":"X1"}"#).unwrap();
    assert_eq!(ok.coupon.as_deref(), Some("X1"));
}

#[test]
fn null_is_not_a_string() {
    let r = CloseTicket::from_json(r#"{"action":"close_ticket","ticket_id":7,"reason":null}"#)
        .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/reason", "invalid_type")]);
}

#[test]
fn a_duplicate_key_is_a_parse_error_at_the_member() {
    let r = CloseTicket::from_json(
        r#"{"action":"close_ticket","ticket_id":7,"ticket_id":8,"reason":"x"}"#,
    )
    .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "/ticket_id", "duplicate_key")]);
    assert_eq!(r.errors[0].line, Some(1));
}

#[test]
fn a_duplicate_key_is_reported_at_its_quote_whether_predicted_or_read() {
    // After `action`, the decoder expects `ticket_id` and tries
    // `,"ticket_id":` at once; with a space after the comma it reads the
    // key instead. Both report the duplicate at its opening quote.
    for doc in [
        r#"{"ticket_id":7,"action":"close_ticket","ticket_id":8,"reason":"x"}"#,
        r#"{"ticket_id":7,"action":"close_ticket", "ticket_id":8,"reason":"x"}"#,
    ] {
        let r = CloseTicket::from_json(doc).unwrap_err();
        assert_eq!(codes(&r), [(Stage::Parse, "/ticket_id", "duplicate_key")]);
        let quote = doc.rfind(r#""ticket_id""#).unwrap();
        assert_eq!(
            (r.errors[0].line, r.errors[0].column),
            (Some(1), Some(quote + 1)),
            "{doc}"
        );
    }
}

/// Keys that share their first bytes: prefixes of one another, and two of
/// one length.
#[derive(Contract, Debug, PartialEq)]
struct Prefixes {
    a: u8,
    ab: u8,
    abc: u8,
    ac: u8,
    #[contract(rename = "b")]
    other: u8,
}

#[test]
fn keys_out_of_schema_order_find_their_fields_by_their_whole_text() {
    for doc in [
        r#"{"b":4,"ac":5,"abc":3,"ab":2,"a":1}"#,
        r#"{"abc":3,"a":1,"b":4,"ab":2,"ac":5}"#,
        r#"{"ac":5,"ab":2,"b":4,"abc":3,"a":1}"#,
        r#"{"ab" :2,"b":4,"abc":3, "a":1,"ac":5}"#,
        r#"{"a\u0062":2,"b":4,"ac":5,"abc":3,"a":1}"#,
    ] {
        let want = Prefixes {
            a: 1,
            ab: 2,
            abc: 3,
            ac: 5,
            other: 4,
        };
        assert_eq!(Prefixes::from_json(doc).ok(), Some(want), "{doc}");
    }
    // A duplicate met out of order, and a key that only begins like a field's.
    let r = Prefixes::from_json(r#"{"abc":3,"a":1,"ac":5,"abc":3,"ab":2,"b":4}"#).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "/abc", "duplicate_key")]);
    let r = Prefixes::from_json(r#"{"b":4,"abcd":0,"ac":5,"abc":3,"ab":2,"a":1}"#).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/abcd", "unknown_key")]);
}

#[test]
fn keys_are_compared_after_unescaping() {
    let r = CloseTicket::from_json(
        r#"{"action":"close_ticket","ticket_id":7,"ticket\u005fid":8,"reason":"x"}"#,
    )
    .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "/ticket_id", "duplicate_key")]);
    let ok = CloseTicket::from_json(r#"{"\u0061ction":"close_ticket","ticket_id":7,"reason":"x"}"#);
    assert!(ok.is_ok());
}

#[test]
fn duplicates_are_caught_in_maps_unknown_keys_and_skipped_values() {
    let r = Order::from_json(r#"{"items":[],"labels":{"a":1,"a":2},"note":null}"#).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "/labels/a", "duplicate_key")]);
    let r = Order::from_json(r#"{"items":[],"labels":{},"note":null,"x":1,"x":2}"#).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "/x", "duplicate_key")]);
    let r = Order::from_json(r#"{"items":[],"labels":{},"note":null,"x":{"y":[{"z":1,"z":2}]}}"#)
        .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "/x/y/0/z", "duplicate_key")]);
    let r = Order::from_json(r#"{"items":[{"sku":"a","qty":1,"qty":2}],"labels":{},"note":null}"#)
        .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "/items/0/qty", "duplicate_key")]);
}

#[test]
fn nested_errors_carry_their_full_pointer() {
    let r = Order::from_json(
        r#"{"items":[{"sku":"a","qty":1},{"sku":2,"qty":-1,"extra":0}],"labels":{"a/b":300},"note":null}"#,
    )
    .unwrap_err();
    assert_eq!(
        codes(&r),
        [
            (Stage::Schema, "/items/1/sku", "invalid_type"),
            (Stage::Schema, "/items/1/qty", "out_of_range"),
            (Stage::Schema, "/items/1/extra", "unknown_key"),
            (Stage::Schema, "/labels/a~1b", "out_of_range"),
        ]
    );
}

#[test]
fn a_root_that_is_not_an_object_is_a_schema_error_at_the_root() {
    for raw in ["[]", "7", "\"x\"", "null", "true"] {
        let r = CloseTicket::from_json(raw).unwrap_err();
        assert_eq!(codes(&r), [(Stage::Schema, "", "invalid_type")], "{raw}");
    }
}

#[test]
fn parse_errors_stop_with_line_and_column() {
    let r =
        CloseTicket::from_json("{\"action\":\"close_ticket\",\n \"ticket_id\": NaN}").unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "", "syntax")]);
    assert_eq!((r.errors[0].line, r.errors[0].column), (Some(2), Some(15)));
}

#[test]
fn trailing_data_is_a_parse_error() {
    let r = CloseTicket::from_json(&format!("{TICKET} {{}}")).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "", "trailing_data")]);
}

#[test]
fn a_byte_order_mark_is_a_parse_error() {
    let r = CloseTicket::from_json(&format!("\u{feff}{TICKET}")).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "", "byte_order_mark")]);
}

#[test]
fn lone_surrogates_are_parse_errors() {
    let r = CloseTicket::from_json(r#"{"action":"close_ticket","ticket_id":7,"reason":"\ud800"}"#)
        .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "", "lone_surrogate")]);
    let ok = CloseTicket::from_json(
        r#"{"action":"close_ticket","ticket_id":7,"reason":"\ud83d\ude00"}"#,
    )
    .unwrap();
    assert_eq!(ok.reason, "😀");
}

#[test]
fn input_over_max_bytes_is_refused_before_parsing() {
    let raw = format!("{{{}", " ".repeat(5000)); // not even JSON: size comes first
    let r = CloseTicket::from_json(&raw).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "", "too_large")]);
}

#[test]
fn nesting_over_max_depth_is_refused() {
    let raw = format!(
        r#"{{"action":"close_ticket","ticket_id":7,"reason":"x","deep":{}{}}}"#,
        "[".repeat(100),
        "]".repeat(100)
    );
    let r = CloseTicket::from_json(&raw).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "", "too_deep")]);
}

#[test]
fn every_error_of_the_document_is_collected() {
    let r = Triage::from_json(
        r#"{"categoria":"Bug","prioridade":"urgente","confianca":true,"motivo":7,"x":1}"#,
    )
    .unwrap_err();
    assert_eq!(
        codes(&r),
        [
            (Stage::Schema, "/categoria", "not_one_of"),
            (Stage::Schema, "/prioridade", "not_one_of"),
            (Stage::Schema, "/confianca", "invalid_type"),
            (Stage::Schema, "/motivo", "invalid_type"),
            (Stage::Schema, "/x", "unknown_key"),
        ]
    );
}

#[test]
fn triage_accepts_integers_for_floats_and_checks_the_range() {
    let ok =
        Triage::from_json(r#"{"categoria":"bug","prioridade":"alta","confianca":1,"motivo":""}"#)
            .unwrap();
    assert_eq!(ok.confianca, 1.0);
    let r = Triage::from_json(
        r#"{"categoria":"bug","prioridade":"alta","confianca":1.01,"motivo":""}"#,
    )
    .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/confianca", "above_maximum")]);
}

#[test]
fn triage_does_not_trim_or_truncate() {
    let long = "a".repeat(501);
    let raw =
        format!(r#"{{"categoria":" bug","prioridade":"alta","confianca":0.5,"motivo":"{long}"}}"#);
    let r = Triage::from_json(&raw).unwrap_err();
    assert_eq!(
        codes(&r),
        [
            (Stage::Schema, "/categoria", "not_one_of"),
            (Stage::Schema, "/motivo", "too_long")
        ]
    );
}

#[test]
fn errors_are_capped_and_the_rest_counted() {
    let keys: Vec<String> = (0..100).map(|i| format!(r#""k{i}":{i}"#)).collect();
    let raw = format!("{{{}}}", keys.join(","));
    let r = Triage::from_json(&raw).unwrap_err();
    assert_eq!(r.errors.len(), 64);
    assert_eq!(r.errors.len() + r.omitted, 104); // 100 unknown + 4 missing
}

#[test]
fn a_rejection_serializes_to_the_documented_shape() {
    let r = CloseTicket::from_json(r#"{"action":"close_ticket","ticket_id":"7","reason":"x"}"#)
        .unwrap_err();
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"errors":[{
            "stage":"schema","pointer":"/ticket_id","code":"invalid_type",
            "message":"expected an integer from 1 to 18446744073709551615, found string"
        }]})
    );
    let e: &dyn std::error::Error = &r;
    assert!(e.to_string().contains("/ticket_id"));
}

#[test]
fn parse_errors_serialize_line_and_column() {
    let r = CloseTicket::from_json("{").unwrap_err();
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["errors"][0]["stage"], "parse");
    assert_eq!(json["errors"][0]["line"], 1);
    assert_eq!(json["errors"][0]["column"], 2);
}

#[test]
fn json_parse_applies_the_same_policy_to_values() {
    use contract_runtime::json::{Limits, parse};
    let limits = Limits::default();
    assert_eq!(
        parse(br#"{"a":[1,2.5,"x",null,true]}"#, &limits).unwrap()["a"][1],
        2.5
    );
    let r = parse(br#"{"a":{"b":1,"b":2}}"#, &limits).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "/a/b", "duplicate_key")]);
    let r = parse(b"{\"a\":\xff}", &limits).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "", "invalid_utf8")]);
    let r = parse(b"[1] x", &limits).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "", "trailing_data")]);
}

#[test]
fn keys_in_any_order_spacing_or_escaping_decode_alike() {
    let expected = CloseTicket::from_json(TICKET).unwrap();
    for raw in [
        r#"{"reason":"customer confirmed","ticket_id":7,"action":"close_ticket"}"#,
        r#"{ "action" : "close_ticket" , "ticket_id" : 7 , "reason" : "customer confirmed" }"#,
        "{\"action\"\n:\t\"close_ticket\",\"ticket_id\":7,\"reason\":\"customer confirmed\"}",
        r#"{"act\u0069on":"close_ticket","ticket_id":7,"reason":"customer confirmed"}"#,
        r#"{"action":"close_ticket","ticket_id":7,"reason":"customer confirmed"}"#,
    ] {
        assert_eq!(CloseTicket::from_json(raw).unwrap(), expected, "{raw}");
    }
}

#[test]
fn a_key_that_only_starts_like_a_field_is_unknown() {
    let r = CloseTicket::from_json(
        r#"{"actionx":"close_ticket","action":"close_ticket","ticket_id":7,"reason":"x"}"#,
    )
    .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/actionx", "unknown_key")]);
    let r = CloseTicket::from_json(r#"{"action" 1,"ticket_id":7,"reason":"x"}"#).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "", "syntax")]);
}

// An array's errors: every item's, as each item is read, then the array's
// own length, decided at its `]`.

#[derive(Contract, Debug, PartialEq)]
#[contract(rename_all = "snake_case")]
enum Level {
    Low,
    High,
}

#[derive(Contract, Debug, PartialEq)]
struct Arrays {
    #[contract(min_len = 2, max_len = 3)]
    counts: Vec<u8>,
    #[contract(pattern = "^[a-z]+$")]
    tags: Vec<String>,
    #[contract(pattern = "^[a-z]+$", max_len = 2)]
    labels: Option<Vec<String>>,
    #[contract(max_len = 1)]
    items: Vec<Item>,
    #[contract(max_len = 1)]
    levels: Vec<Level>,
    by_name: BTreeMap<String, Item>,
}

/// Each field of [`Arrays`] with a valid value.
const ARRAYS: [(&str, &str); 6] = [
    ("counts", "[1,2]"),
    ("tags", r#"["a"]"#),
    ("labels", "null"),
    ("items", "[]"),
    ("levels", "[]"),
    ("by_name", "{}"),
];

/// An [`Arrays`] document, valid but for `field` set to `json`.
fn arrays_with(field: &str, json: &str) -> String {
    let members: Vec<_> = ARRAYS
        .iter()
        .map(|(name, valid)| format!("\"{name}\":{}", if *name == field { json } else { valid }))
        .collect();
    format!("{{{}}}", members.join(","))
}

fn arrays_errors(field: &str, json: &str) -> Vec<(Stage, String, &'static str)> {
    let raw = arrays_with(field, json);
    Arrays::from_json(&raw)
        .unwrap_err()
        .errors
        .iter()
        .map(|e| (e.stage, e.pointer.to_string(), e.code))
        .collect()
}

fn schema(pointer: &str, code: &'static str) -> (Stage, String, &'static str) {
    (Stage::Schema, pointer.to_owned(), code)
}

#[test]
fn the_arrays_document_is_valid() {
    assert!(Arrays::from_json(&arrays_with("", "")).is_ok());
}

#[test]
fn an_array_too_long_is_reported_although_an_item_has_the_wrong_type() {
    assert_eq!(
        arrays_errors("counts", r#"[1,"x",3,4]"#),
        [
            schema("/counts/1", "invalid_type"),
            schema("/counts", "too_long")
        ]
    );
}

#[test]
fn an_array_too_short_is_reported_although_an_item_is_out_of_range() {
    assert_eq!(
        arrays_errors("counts", "[300]"),
        [
            schema("/counts/0", "out_of_range"),
            schema("/counts", "too_short")
        ]
    );
}

#[test]
fn each_item_is_matched_against_the_pattern_although_another_has_the_wrong_type() {
    assert_eq!(
        arrays_errors("tags", r#"["ABC",1]"#),
        [
            schema("/tags/0", "pattern_mismatch"),
            schema("/tags/1", "invalid_type")
        ]
    );
}

#[test]
fn an_optional_arrays_errors_come_in_the_order_of_the_text_then_its_length() {
    assert_eq!(
        arrays_errors("labels", r#"["A",1,"b","C"]"#),
        [
            schema("/labels/0", "pattern_mismatch"),
            schema("/labels/1", "invalid_type"),
            schema("/labels/3", "pattern_mismatch"),
            schema("/labels", "too_long"),
        ]
    );
}

#[test]
fn an_array_of_contracts_reports_each_items_errors_and_its_length() {
    assert_eq!(
        arrays_errors("items", r#"[{"sku":1,"qty":1},{"sku":"a","qty":-1}]"#),
        [
            schema("/items/0/sku", "invalid_type"),
            schema("/items/1/qty", "out_of_range"),
            schema("/items", "too_long"),
        ]
    );
}

#[test]
fn an_array_of_enums_reports_each_items_errors_and_its_length() {
    assert_eq!(
        arrays_errors("levels", r#"["mid",3,"low"]"#),
        [
            schema("/levels/0", "not_one_of"),
            schema("/levels/1", "invalid_type"),
            schema("/levels", "too_long"),
        ]
    );
}

#[derive(Contract, Debug, PartialEq)]
struct Page<T> {
    #[contract(max_len = 1)]
    items: Vec<T>,
}

#[test]
fn a_generic_array_reports_each_items_errors_and_its_length() {
    let r = Page::<Item>::from_json(r#"{"items":[{"sku":1,"qty":1},{"sku":"a","qty":1}]}"#)
        .unwrap_err();
    assert_eq!(
        codes(&r),
        [
            (Stage::Schema, "/items/0/sku", "invalid_type"),
            (Stage::Schema, "/items", "too_long"),
        ]
    );
}

#[derive(Contract, Debug, PartialEq)]
#[contract(tag = "action", rename_all = "snake_case")]
enum Batch {
    Close {
        #[contract(max_len = 1, pattern = "^T-")]
        ids: Vec<String>,
    },
}

#[test]
fn a_union_variants_array_reports_each_items_errors_and_its_length() {
    let r = Batch::from_json(r#"{"action":"close","ids":[1,"x"]}"#).unwrap_err();
    assert_eq!(
        codes(&r),
        [
            (Stage::Schema, "/ids/0", "invalid_type"),
            (Stage::Schema, "/ids/1", "pattern_mismatch"),
            (Stage::Schema, "/ids", "too_long"),
        ]
    );
}

#[test]
fn a_map_reports_every_values_errors() {
    assert_eq!(
        arrays_errors(
            "by_name",
            r#"{"a":1,"b":{"sku":"b","qty":-1},"c":{"sku":2,"qty":1}}"#
        ),
        [
            schema("/by_name/a", "invalid_type"),
            schema("/by_name/b/qty", "out_of_range"),
            schema("/by_name/c/sku", "invalid_type"),
        ]
    );
}

#[test]
fn the_streams_first_error_in_an_array_is_the_first_error_check_reports() {
    for (field, json) in [
        ("tags", r#"["ABC",1]"#),
        ("counts", r#"[1,"x",3,4]"#),
        ("labels", r#"["A",1,"b","C"]"#),
    ] {
        let raw = arrays_with(field, json);
        let all = Arrays::from_json(&raw).unwrap_err();
        let mut stream = Arrays::stream();
        let contract_runtime::stream::Progress::Rejected(early) = stream.push(&raw) else {
            panic!("{raw}: the stream decides");
        };
        assert_eq!(
            (early.errors[0].pointer.as_str(), early.errors[0].code),
            (all.errors[0].pointer.as_str(), all.errors[0].code),
            "{raw}"
        );
        let mut finished = Arrays::stream();
        let _ = finished.push(&raw);
        assert_eq!(finished.finish().rejection(), Some(&all), "{raw}");
    }
}

#[derive(Contract, Debug, PartialEq)]
struct QuarantinedArrays {
    #[contract(quarantine, max_len = 2, pattern = "^[a-z]+$")]
    tags: Option<Vec<String>>,
    #[contract(quarantine, max_len = 1)]
    levels: Option<Vec<Level>>,
}

#[test]
fn a_quarantined_array_with_an_item_of_the_wrong_type_reports_its_length_too() {
    let r = QuarantinedArrays::from_json(r#"{"tags":["A",1,"c"],"levels":null}"#).unwrap_err();
    assert_eq!(
        codes(&r),
        [
            (Stage::Schema, "/tags/0", "pattern_mismatch"),
            (Stage::Schema, "/tags/1", "invalid_type"),
            (Stage::Schema, "/tags", "too_long"),
        ]
    );
}

#[test]
fn a_quarantined_arrays_item_and_length_failures_are_all_review_reasons() {
    let outcome = QuarantinedArrays::check(r#"{"tags":null,"levels":["mid","high"]}"#);
    let reasons: Vec<_> = outcome
        .reasons()
        .iter()
        .map(|v| (v.pointer.as_str(), v.code))
        .collect();
    assert_eq!(
        reasons,
        [("/levels/0", "not_one_of"), ("/levels", "too_long")]
    );
    assert_eq!(
        outcome.into_value(),
        Some(QuarantinedArrays {
            tags: None,
            levels: None
        })
    );
}

// A text cut inside an escape (an output stopped by the token limit) is a
// cut text, `unexpected_end`; an escape that no continuation makes valid
// stays `invalid_escape` / `lone_surrogate`.

/// Escapes the input ends inside: a value's, then a key's.
const CUT_ESCAPES: [&str; 10] = [
    r#"{"reason":"\"#,
    r#"{"reason":"\u"#,
    r#"{"reason":"\u00"#,
    r#"{"reason":"\ud83d"#,
    r#"{"reason":"\ud83d\"#,
    r#"{"reason":"\ud83d\u"#,
    r#"{"reason":"\ud83d\ude0"#,
    r#"{"reas\u006"#,
    r#"{"\ud83d"#,
    r#"{"\ud83d\ude"#,
];

#[test]
fn a_text_cut_inside_an_escape_is_unexpected_end() {
    for raw in CUT_ESCAPES {
        let r = CloseTicket::from_json(raw).unwrap_err();
        assert_eq!(codes(&r), [(Stage::Parse, "", "unexpected_end")], "{raw}");
        assert_eq!(r.errors[0].column, Some(raw.chars().count() + 1), "{raw}");
    }
}

#[test]
fn json_parse_reports_a_text_cut_inside_an_escape_as_unexpected_end() {
    let limits = contract_runtime::json::Limits::default();
    for raw in CUT_ESCAPES {
        let r = contract_runtime::json::parse(raw.as_bytes(), &limits).unwrap_err();
        assert_eq!(codes(&r), [(Stage::Parse, "", "unexpected_end")], "{raw}");
    }
}

#[test]
fn a_streamed_text_cut_inside_an_escape_finishes_with_unexpected_end() {
    for raw in CUT_ESCAPES {
        let mut stream = CloseTicket::stream();
        // Some continuation completes the escape: the prefix decides nothing.
        assert_eq!(
            stream.push(raw),
            contract_runtime::stream::Progress::Pending,
            "{raw}"
        );
        let outcome = stream.finish();
        let r = outcome.rejection().unwrap();
        assert_eq!(codes(r), [(Stage::Parse, "", "unexpected_end")], "{raw}");
    }
}

#[test]
fn an_escape_no_continuation_makes_valid_is_still_invalid_escape_or_lone_surrogate() {
    for (raw, code) in [
        (r#"{"reason":"\x"#, "invalid_escape"),
        (r#"{"reason":"\u0g"#, "invalid_escape"),
        (r#"{"reason":"\u00g0"}"#, "invalid_escape"),
        (r#"{"reason":"\ud83d\u0g"#, "invalid_escape"),
        (r#"{"reason":"\ud83d"}"#, "lone_surrogate"),
        (r#"{"reason":"\ud83dx"#, "lone_surrogate"),
        (r#"{"reason":"\ud83d\n"#, "lone_surrogate"),
        (r#"{"reason":"\ud83d\u0041"#, "lone_surrogate"),
        (r#"{"reason":"\ude00"#, "lone_surrogate"),
        (r#"{"\ud83d\u0041":1}"#, "lone_surrogate"),
    ] {
        let r = CloseTicket::from_json(raw).unwrap_err();
        assert_eq!(codes(&r), [(Stage::Parse, "", code)], "{raw}");
    }
}

#[test]
fn a_text_cut_inside_a_number_or_a_literal_is_unexpected_end() {
    for raw in [
        r#"{"ticket_id":-"#,
        r#"{"ticket_id":1."#,
        r#"{"ticket_id":1e"#,
        r#"{"ticket_id":1E-"#,
        r#"{"ticket_id":tr"#,
        r#"{"ticket_id":f"#,
        r#"{"ticket_id":nul"#,
    ] {
        let r = CloseTicket::from_json(raw).unwrap_err();
        assert_eq!(codes(&r), [(Stage::Parse, "", "unexpected_end")], "{raw}");
        assert_eq!(r.errors[0].column, Some(raw.len() + 1), "{raw}");
    }
}

#[test]
fn a_streamed_text_cut_inside_a_number_or_a_literal_finishes_with_unexpected_end() {
    let triage = r#"{"categoria":"bug","prioridade":"alta","motivo":"x","confianca":"#;
    let cut_numbers = ["-", "1.", "1e", "1E-"].map(|n| format!("{triage}{n}"));
    let order = r#"{"items":[],"labels":{},"coupon":nul"#;
    let outcomes = cut_numbers
        .iter()
        .map(|raw| {
            let mut stream = Triage::stream();
            (
                raw.as_str(),
                stream.push(raw),
                stream.finish().rejection().cloned(),
            )
        })
        .chain(std::iter::once({
            let mut stream = Order::stream();
            (
                order,
                stream.push(order),
                stream.finish().rejection().cloned(),
            )
        }));
    for (raw, progress, rejection) in outcomes {
        assert_eq!(
            progress,
            contract_runtime::stream::Progress::Pending,
            "{raw}"
        );
        let rejection = rejection.unwrap();
        assert_eq!(
            codes(&rejection),
            [(Stage::Parse, "", "unexpected_end")],
            "{raw}"
        );
    }
}

#[test]
fn a_number_or_a_literal_no_continuation_makes_valid_is_still_a_syntax_error() {
    for (raw, code) in [
        (r#"{"ticket_id":-x"#, "invalid_number"),
        (r#"{"ticket_id":1.}"#, "invalid_number"),
        (r#"{"ticket_id":1e}"#, "invalid_number"),
        (r#"{"ticket_id":tru}"#, "syntax"),
        (r#"{"ticket_id":nulx"#, "syntax"),
    ] {
        let r = CloseTicket::from_json(raw).unwrap_err();
        assert_eq!(codes(&r), [(Stage::Parse, "", code)], "{raw}");
    }
}

// A field that must equal a literal, or be one of a few, is matched as the
// literal's raw bytes first: every other way of writing a string still reads
// and checks as a string.
#[test]
fn a_literal_field_reads_however_the_string_is_written() {
    let doc = |action: &str| format!(r#"{{"action":{action},"ticket_id":7,"reason":"x"}}"#);
    for ok in [
        r#""close_ticket""#,
        r#"  "close_ticket""#,
        r#""close\u005fticket""#,
        r#""\u0063lose_ticket""#,
    ] {
        let t = CloseTicket::from_json(&doc(ok)).unwrap_or_else(|r| panic!("{ok}: {r:?}"));
        assert_eq!(t.action, "close_ticket", "{ok}");
    }
    for wrong in [
        r#""close_ticket2""#,
        r#""close_tick""#,
        r#""close_ticket ""#,
        r#""Close_ticket""#,
        r#""""#,
    ] {
        let r = CloseTicket::from_json(&doc(wrong)).unwrap_err();
        assert_eq!(
            codes(&r),
            [(Stage::Schema, "/action", "not_equal")],
            "{wrong}"
        );
    }
    let r = CloseTicket::from_json(r#"{"action":"close_ticket"#).unwrap_err();
    assert_eq!(r.errors[0].stage, Stage::Parse);
    let r = CloseTicket::from_json(
        r#"{"action":"close_ticket","action":"close_ticket","ticket_id":7,"reason":"x"}"#,
    )
    .unwrap_err();
    assert_eq!(codes(&r), [(Stage::Parse, "/action", "duplicate_key")]);
}

#[test]
fn a_one_of_field_reads_however_the_string_is_written() {
    let doc = |categoria: &str| {
        format!(r#"{{"categoria":{categoria},"prioridade":"alta","confianca":0.5,"motivo":"m"}}"#)
    };
    for (raw, value) in [
        (r#""bug""#, "bug"),
        (r#""b\u0075g""#, "bug"),
        (r#""cobranca""#, "cobranca"),
        (r#""reclamacao""#, "reclamacao"),
        (r#""outro""#, "outro"),
        (r#" "duvida""#, "duvida"),
    ] {
        let t = Triage::from_json(&doc(raw)).unwrap_or_else(|r| panic!("{raw}: {r:?}"));
        assert_eq!(t.categoria, value, "{raw}");
        assert_eq!(t.prioridade, "alta");
    }
    for wrong in [r#""bugs""#, r#""bu""#, r#""Bug""#, r#""outro\n""#] {
        let r = Triage::from_json(&doc(wrong)).unwrap_err();
        assert_eq!(
            codes(&r),
            [(Stage::Schema, "/categoria", "not_one_of")],
            "{wrong}"
        );
    }
    let r = Triage::from_json(&doc("7")).unwrap_err();
    assert_eq!(codes(&r), [(Stage::Schema, "/categoria", "invalid_type")]);
}

/// Variants whose names share their first bytes.
#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
enum Tier {
    Low,
    Lower,
    LowerStill,
    High,
}

#[derive(Contract, Debug, PartialEq)]
struct Tiers {
    level: Tier,
    #[contract(optional)]
    other: Option<Tier>,
}

// An enum's names are matched as raw bytes first: a name that is a prefix
// of another, an escaped name, whitespace before it and any other string
// all read as a string would.
#[test]
fn an_enum_reads_however_its_name_is_written() {
    for (raw, level) in [
        (r#""low""#, Tier::Low),
        (r#""lower""#, Tier::Lower),
        (r#""lower_still""#, Tier::LowerStill),
        (r#""high""#, Tier::High),
        (r#" "high""#, Tier::High),
        (r#""l\u006fw""#, Tier::Low),
        (r#""\u006cower""#, Tier::Lower),
    ] {
        let doc = format!(r#"{{"level":{raw},"other":{raw}}}"#);
        let l = Tiers::from_json(&doc).unwrap_or_else(|r| panic!("{raw}: {r:?}"));
        assert_eq!((l.level, l.other), (level, Some(level)), "{raw}");
    }
    for wrong in [
        r#""lo""#,
        r#""lowe""#,
        r#""lower_""#,
        r#""Low""#,
        r#""""#,
        r#""high ""#,
    ] {
        let doc = format!(r#"{{"level":{wrong}}}"#);
        let r = Tiers::from_json(&doc).unwrap_err();
        assert_eq!(
            codes(&r),
            [(Stage::Schema, "/level", "not_one_of")],
            "{wrong}"
        );
    }
    let r = Tiers::from_json(r#"{"level":"low"#).unwrap_err();
    assert_eq!(r.errors[0].stage, Stage::Parse);
}

#[derive(Contract, Debug, PartialEq)]
struct Dated {
    on: contract_runtime::Date,
    #[contract(optional)]
    until: Option<contract_runtime::Date>,
}

// A date's ten bytes are read in place when the string is written plainly;
// an escaped date, whitespace before it and every wrong date read and are
// judged as any string.
#[test]
fn a_date_reads_however_it_is_written() {
    let day = contract_runtime::Date::parse("2027-02-28").unwrap();
    for raw in [
        r#""2027-02-28""#,
        r#" "2027-02-28""#,
        r#""2027\u002d02-28""#,
        r#""\u0032027-02-28""#,
    ] {
        let doc = format!(r#"{{"on":{raw},"until":{raw}}}"#);
        let d = Dated::from_json(&doc).unwrap_or_else(|r| panic!("{raw}: {r:?}"));
        assert_eq!((d.on, d.until), (day, Some(day)), "{raw}");
    }
    for wrong in [
        r#""2027-02-29""#,
        r#""2027-13-01""#,
        r#""2027-02-2""#,
        r#""2027-02-280""#,
        r#""2027/02/28""#,
        r#""2027-02-2\"""#,
        r#""20270-2-28""#,
    ] {
        let doc = format!(r#"{{"on":{wrong}}}"#);
        let r = Dated::from_json(&doc).unwrap_err();
        assert_eq!(
            codes(&r),
            [(Stage::Schema, "/on", "invalid_date")],
            "{wrong}"
        );
    }
    let r = Dated::from_json(r#"{"on":"2027-02-28"#).unwrap_err();
    assert_eq!(r.errors[0].stage, Stage::Parse);
}
