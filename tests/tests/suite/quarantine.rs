//! What `quarantine` absorbs and what it does not. A value of the right JSON
//! type that fails its checks (a bound, a length, a date, `one_of`, a number
//! the Rust type cannot hold) is dropped to `None` with a review reason; a
//! structural error (a wrong JSON type, a missing or unknown key, anywhere
//! inside the field's value) rejects, as it does for any other field. An
//! `evidence` quote that is empty or only whitespace is no evidence.
use contract_runtime::{Contract, Date, EvidenceSource, OutcomeKind, Stage};

#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
enum Level {
    Low,
    High,
}

#[derive(Contract, Debug, PartialEq)]
struct Part {
    #[contract(min_len = 1)]
    name: String,
    count: u8,
}

/// Every field quarantined; each `null` in [`NULLS`] is valid.
#[derive(Contract, Debug, PartialEq)]
struct Reading {
    #[contract(quarantine, min_len = 2, max_len = 5)]
    label: Option<String>,
    #[contract(quarantine)]
    day: Option<Date>,
    #[contract(quarantine)]
    count: Option<u8>,
    #[contract(quarantine, min = 1, max = 10)]
    score: Option<i32>,
    #[contract(quarantine, one_of = ["a", "b"])]
    choice: Option<String>,
    #[contract(quarantine)]
    level: Option<Level>,
    #[contract(quarantine, max_len = 2)]
    tags: Option<Vec<String>>,
    #[contract(quarantine)]
    sizes: Option<Vec<u8>>,
    #[contract(quarantine)]
    part: Option<Part>,
}

const NULLS: &str = r#"{"label":null,"day":null,"count":null,"score":null,"choice":null,"level":null,"tags":null,"sizes":null,"part":null}"#;

/// The document with `field` set to `json`.
fn with(field: &str, json: &str) -> String {
    NULLS.replace(&format!("\"{field}\":null"), &format!("\"{field}\":{json}"))
}

/// `(pointer, code)` of each review reason, after checking that the
/// outcome is a review and that every field but the reviewed ones is null.
fn dropped(field: &str, json: &str) -> Vec<(String, &'static str)> {
    let raw = with(field, json);
    let outcome = Reading::check(&raw);
    assert_eq!(outcome.kind(), OutcomeKind::Review, "{raw}");
    let value = outcome.value().unwrap();
    assert_eq!(
        *value,
        Reading::from_json(NULLS).unwrap(),
        "the value is dropped to null: {raw}"
    );
    outcome
        .reasons()
        .iter()
        .map(|r| (r.pointer.clone(), r.code))
        .collect()
}

/// `(stage, pointer, code)` of each error, after checking that the outcome
/// is a rejection.
fn rejected(field: &str, json: &str) -> Vec<(Stage, String, &'static str)> {
    let raw = with(field, json);
    let outcome = Reading::check(&raw);
    let rejection = outcome
        .rejection()
        .unwrap_or_else(|| panic!("rejected: {raw}"));
    rejection
        .errors
        .iter()
        .map(|e| (e.stage, e.pointer.to_string(), e.code))
        .collect()
}

fn one(pointer: &str, code: &'static str) -> Vec<(String, &'static str)> {
    vec![(pointer.to_owned(), code)]
}

fn wrong_type(pointer: &str) -> Vec<(Stage, String, &'static str)> {
    vec![(Stage::Schema, pointer.to_owned(), "invalid_type")]
}

#[test]
fn a_valid_quarantined_value_is_kept() {
    let raw = with("label", r#""abc""#);
    let outcome = Reading::check(&raw);
    assert_eq!(outcome.kind(), OutcomeKind::Accept);
    assert_eq!(outcome.value().unwrap().label.as_deref(), Some("abc"));
}

#[test]
fn a_string_outside_its_length_bounds_is_dropped_for_review() {
    assert_eq!(dropped("label", r#""a""#), one("/label", "too_short"));
    assert_eq!(dropped("label", r#""abcdef""#), one("/label", "too_long"));
}

#[test]
fn a_number_for_a_bounded_string_is_a_wrong_type_and_rejects() {
    assert_eq!(rejected("label", "7"), wrong_type("/label"));
    assert_eq!(rejected("label", "[]"), wrong_type("/label"));
}

#[test]
fn a_string_that_is_not_a_date_is_dropped_for_review() {
    assert_eq!(
        dropped("day", r#""2027-02-30""#),
        one("/day", "invalid_date")
    );
    assert_eq!(
        dropped("day", r#""next Tuesday""#),
        one("/day", "invalid_date")
    );
}

#[test]
fn a_number_for_a_date_is_a_wrong_type_and_rejects() {
    assert_eq!(rejected("day", "20270612"), wrong_type("/day"));
    assert_eq!(rejected("day", "true"), wrong_type("/day"));
}

#[test]
fn an_integer_the_rust_type_cannot_hold_is_dropped_for_review() {
    assert_eq!(dropped("count", "300"), one("/count", "out_of_range"));
    assert_eq!(dropped("count", "-1"), one("/count", "out_of_range"));
}

#[test]
fn a_string_or_a_fraction_for_an_integer_is_a_wrong_type_and_rejects() {
    assert_eq!(rejected("count", r#""7""#), wrong_type("/count"));
    // The schema says `"type": "integer"`: `7.5` and `7.0` fail its type.
    assert_eq!(rejected("count", "7.5"), wrong_type("/count"));
    assert_eq!(rejected("count", "7.0"), wrong_type("/count"));
}

#[test]
fn a_number_outside_min_and_max_is_dropped_for_review() {
    assert_eq!(dropped("score", "11"), one("/score", "above_maximum"));
    assert_eq!(dropped("score", "0"), one("/score", "below_minimum"));
}

#[test]
fn a_string_outside_one_of_is_dropped_for_review() {
    assert_eq!(dropped("choice", r#""c""#), one("/choice", "not_one_of"));
    assert_eq!(rejected("choice", "1"), wrong_type("/choice"));
}

#[test]
fn a_string_that_names_no_variant_is_dropped_but_a_number_rejects() {
    assert_eq!(dropped("level", r#""medium""#), one("/level", "not_one_of"));
    assert_eq!(rejected("level", "1"), wrong_type("/level"));
}

#[test]
fn a_list_too_long_is_dropped_but_a_wrong_item_type_rejects() {
    assert_eq!(
        dropped("tags", r#"["a","b","c"]"#),
        one("/tags", "too_long")
    );
    assert_eq!(rejected("tags", r#"["a",7]"#), wrong_type("/tags/1"));
    assert_eq!(rejected("tags", r#""a""#), wrong_type("/tags"));
}

#[test]
fn items_the_rust_type_cannot_hold_are_dropped_with_one_reason_each() {
    assert_eq!(
        dropped("sizes", "[1,256,-1]"),
        [
            ("/sizes/1".to_owned(), "out_of_range"),
            ("/sizes/2".to_owned(), "out_of_range"),
        ]
    );
}

#[test]
fn a_wrong_item_type_past_the_error_cap_still_rejects() {
    // Seventy value failures fill the error list; the wrong type after them
    // is only counted, and still makes the list a structural failure.
    let mut items = vec!["256"; 70];
    items.push(r#""7""#);
    let raw = with("sizes", &format!("[{}]", items.join(",")));
    let outcome = Reading::check(&raw);
    let rejection = outcome.rejection().expect("rejected");
    assert_eq!(rejection.errors.len() + rejection.omitted, 71);
    assert!(rejection.errors.iter().all(|e| e.code == "out_of_range"));
}

#[test]
fn a_value_failure_inside_a_nested_contract_drops_the_whole_value() {
    assert_eq!(
        dropped("part", r#"{"name":"","count":1}"#),
        one("/part/name", "too_short")
    );
    assert_eq!(
        dropped("part", r#"{"name":"x","count":999}"#),
        one("/part/count", "out_of_range")
    );
}

#[test]
fn a_structural_error_inside_a_nested_contract_rejects() {
    assert_eq!(
        rejected("part", r#"{"name":"x","count":"1"}"#),
        wrong_type("/part/count")
    );
    assert_eq!(
        rejected("part", r#"{"name":"x"}"#),
        [(Stage::Schema, "/part/count".to_owned(), "missing_key")]
    );
    assert_eq!(
        rejected("part", r#"{"name":"x","count":1,"extra":0}"#),
        [(Stage::Schema, "/part/extra".to_owned(), "unknown_key")]
    );
}

#[test]
fn a_structural_error_next_to_a_value_failure_rejects_with_both() {
    assert_eq!(
        rejected("part", r#"{"name":"","count":"1"}"#),
        [
            (Stage::Schema, "/part/name".to_owned(), "too_short"),
            (Stage::Schema, "/part/count".to_owned(), "invalid_type"),
        ]
    );
}

#[test]
fn a_missing_quarantined_key_rejects() {
    let raw = NULLS.replace(r#""day":null,"#, "");
    let outcome = Reading::check(&raw);
    let rejection = outcome.rejection().expect("rejected");
    assert_eq!(rejection.pointers(), ["/day"]);
    assert_eq!(rejection.errors[0].code, "missing_key");
}

#[derive(Contract, Debug, PartialEq)]
#[contract(order(from <= to))]
struct Span {
    from: Date,
    to: Date,
}

#[derive(Contract, Debug, PartialEq)]
struct Booking {
    #[contract(quarantine)]
    span: Option<Span>,
}

#[test]
fn a_rule_of_a_quarantined_nested_contract_still_rejects() {
    // Rules are cross-field and run after decoding: quarantine is a decoding
    // (and evidence, review) matter.
    let raw = r#"{"span":{"from":"2027-06-12","to":"2027-06-01"}}"#;
    let outcome = Booking::check(raw);
    let rejection = outcome.rejection().expect("rejected");
    assert_eq!(
        (rejection.errors[0].stage, rejection.pointers()),
        (Stage::Rule, vec!["/span/to"])
    );
    let bad_date = r#"{"span":{"from":"2027-06-12","to":"2027-06-31"}}"#;
    assert_eq!(Booking::check(bad_date).kind(), OutcomeKind::Review);
}

// ---------------------------------------------------------------- evidence

struct Email(&'static str);

impl EvidenceSource for Email {
    fn source_text(&self) -> &str {
        self.0
    }
}

#[derive(Contract, Debug, PartialEq)]
#[contract(context = Email)]
struct Quoted {
    #[contract(evidence)]
    quote: String,
    #[contract(evidence, quarantine)]
    aside: Option<String>,
}

const EMAIL: Email = Email("The export fails since Monday.");

#[test]
fn an_empty_quote_is_a_business_error_on_a_field_not_quarantined() {
    for quote in [r#""""#, r#"" ""#, r#""\n\t""#] {
        let raw = format!(r#"{{"quote":{quote},"aside":null}}"#);
        let outcome = Quoted::check_with(&raw, &EMAIL);
        let rejection = outcome.rejection().expect("rejected");
        let errors: Vec<_> = rejection
            .errors
            .iter()
            .map(|e| (e.stage, e.pointer.as_str(), e.code))
            .collect();
        assert_eq!(
            errors,
            [(Stage::Business, "/quote", "evidence_not_found")],
            "{raw}"
        );
    }
}

#[test]
fn an_empty_quote_is_dropped_for_review_on_a_quarantined_field() {
    for quote in [r#""""#, r#"" ""#] {
        let raw = format!(r#"{{"quote":"export fails","aside":{quote}}}"#);
        let outcome = Quoted::check_with(&raw, &EMAIL);
        assert_eq!(outcome.kind(), OutcomeKind::Review, "{raw}");
        let reasons: Vec<_> = outcome
            .reasons()
            .iter()
            .map(|r| (r.pointer.as_str(), r.code))
            .collect();
        assert_eq!(reasons, [("/aside", "evidence_not_found")]);
        assert_eq!(outcome.value().unwrap().aside, None);
    }
}

#[test]
fn surrounding_whitespace_in_a_quote_must_occur_verbatim_too() {
    let raw = r#"{"quote":" fails ","aside":"Monday."}"#;
    assert_eq!(Quoted::check_with(raw, &EMAIL).kind(), OutcomeKind::Accept);
    // Not trimmed: two spaces after "fails" are not in the source.
    let raw = r#"{"quote":" fails  ","aside":null}"#;
    let outcome = Quoted::check_with(raw, &EMAIL);
    assert_eq!(
        outcome.rejection().expect("rejected").pointers(),
        ["/quote"]
    );
}
