use serde_json::{Value, json};

use super::plan::Plan;
use super::scan::{Scanner, Stop};
use super::{Progress, Stream};
use crate::pipeline::Document;
use crate::schema::Definition;
use crate::{Contract, Date, OutcomeKind};

mod unions;

#[derive(Contract, Debug)]
#[contract(rename_all = "snake_case")]
enum Level {
    Low,
    High,
}

#[derive(Contract, Debug)]
#[contract(max_bytes = 256, order(starts_on <= ends_on))]
struct Ticket {
    #[contract(min = 1)]
    id: u64,
    #[contract(min_len = 2, max_len = 5)]
    title: String,
    level: Level,
    starts_on: Date,
    ends_on: Option<Date>,
    #[contract(max_len = 2)]
    tags: Vec<String>,
    #[contract(quarantine, max_len = 3)]
    note: Option<String>,
    count: u32,
}

const OK: &str = r#"{"id":7,"title":"abc","level":"high","starts_on":"2027-06-01","ends_on":null,"tags":["a"],"note":null,"count":3}"#;

/// Where (the offset of the piece) a one-byte-at-a-time stream rejects
/// `text`, and the pointer and code it gives.
fn rejected_at<T: Document + Definition>(text: &str) -> Option<(usize, String, &'static str)> {
    let mut stream = Stream::<T>::new(None);
    for (at, c) in text.char_indices() {
        if let Progress::Rejected(r) = stream.push(&text[at..at + c.len_utf8()]) {
            let e = &r.errors[0];
            return Some((at, e.pointer.clone().into(), e.code));
        }
    }
    None
}

fn at(text: &str, needle: &str) -> usize {
    text.find(needle).unwrap()
}

#[test]
fn an_accepted_document_is_pending_at_every_byte_and_finishes_accepted() {
    assert_eq!(rejected_at::<Ticket>(OK), None);
    let mut stream = Ticket::stream();
    for c in OK.chars() {
        stream.push(&c.to_string());
    }
    assert_eq!(stream.finish().kind(), OutcomeKind::Accept);
}

#[test]
fn an_unknown_key_is_rejected_at_its_closing_quote() {
    let text = r#"{"id":7,"titel":"abc"}"#;
    let end = at(text, r#"titel""#) + 5;
    assert_eq!(
        rejected_at::<Ticket>(text),
        Some((end, "/titel".into(), "unknown_key"))
    );
}

#[test]
fn a_wrong_type_is_rejected_at_its_first_byte() {
    let text = r#"{"id":"7"}"#;
    assert_eq!(
        rejected_at::<Ticket>(text),
        Some((6, "/id".into(), "invalid_type"))
    );
    assert_eq!(
        rejected_at::<Ticket>("[1]"),
        Some((0, String::new(), "invalid_type"))
    );
    let null = r#"{"id":7,"title":null}"#;
    assert_eq!(
        rejected_at::<Ticket>(null),
        Some((16, "/title".into(), "invalid_type"))
    );
}

#[test]
fn a_fraction_for_an_integer_is_rejected_at_the_dot_or_exponent() {
    assert_eq!(
        rejected_at::<Ticket>(r#"{"id":7.0}"#),
        Some((7, "/id".into(), "invalid_type"))
    );
    assert_eq!(
        rejected_at::<Ticket>(r#"{"id":7e0}"#),
        Some((7, "/id".into(), "invalid_type"))
    );
}

#[test]
fn a_number_out_of_bounds_is_rejected_at_its_end() {
    let text = r#"{"id":0,"#;
    assert_eq!(
        rejected_at::<Ticket>(text),
        Some((7, "/id".into(), "below_minimum"))
    );
    // The field is a `u32`: -1 is out of its range (an `i64` with
    // `min = 0` would say below_minimum), decided at the number's end.
    let text = r#"{"count":-1,"#;
    assert_eq!(
        rejected_at::<Ticket>(text),
        Some((11, "/count".into(), "out_of_range"))
    );
}

#[derive(Contract, Debug)]
struct Kinds {
    #[contract(optional)]
    byte: Option<u8>,
    #[contract(optional, min = 1)]
    low: Option<u8>,
    #[contract(optional, min = 0)]
    wide: Option<i64>,
    #[contract(optional)]
    narrow: Option<f32>,
    #[contract(optional, equals = 3)]
    three: Option<u16>,
}

/// The early rejection of `text` (pushed a byte at a time) and where,
/// checked to be an error `check` reports on the same text closed.
fn decided<T: Document + Definition + Contract>(
    text: &str,
    closed: &str,
) -> Option<(usize, String, &'static str)> {
    let early = rejected_at::<T>(text)?;
    let whole = T::check(closed);
    let errors = &whole
        .rejection()
        .expect("the closed text is rejected")
        .errors;
    assert!(
        errors
            .iter()
            .any(|e| (e.pointer.as_str(), e.code) == (early.1.as_str(), early.2)),
        "{early:?} not in {errors:?}"
    );
    Some(early)
}

#[test]
fn an_integer_past_its_rust_type_is_out_of_range_at_its_end() {
    assert_eq!(
        decided::<Kinds>(r#"{"byte":300,"#, r#"{"byte":300}"#),
        Some((11, "/byte".into(), "out_of_range"))
    );
    // `min = 1` on a `u8`: -1 is out of the type's range before the bound.
    assert_eq!(
        decided::<Kinds>(r#"{"low":-1,"#, r#"{"low":-1}"#),
        Some((9, "/low".into(), "out_of_range"))
    );
    assert_eq!(
        decided::<Kinds>(r#"{"wide":-1,"#, r#"{"wide":-1}"#),
        Some((10, "/wide".into(), "below_minimum"))
    );
}

#[test]
fn a_float_past_f32_is_out_of_range_at_its_end() {
    assert_eq!(
        decided::<Kinds>(r#"{"narrow":1e39,"#, r#"{"narrow":1e39}"#),
        Some((14, "/narrow".into(), "out_of_range"))
    );
}

#[test]
fn a_nullable_equals_is_not_equal_at_the_numbers_end() {
    assert_eq!(
        decided::<Kinds>(r#"{"three":4,"#, r#"{"three":4}"#),
        Some((10, "/three".into(), "not_equal"))
    );
    assert_eq!(
        rejected_at::<Kinds>(r#"{"three":null,"three2""#).map(|r| r.2),
        Some("unknown_key")
    );
}

#[test]
fn a_string_past_max_len_is_rejected_before_it_closes() {
    let text = r#"{"id":7,"title":"abcdefgh"#;
    let sixth = at(text, "abcdef") + 5;
    assert_eq!(
        rejected_at::<Ticket>(text),
        Some((sixth, "/title".into(), "too_long"))
    );
}

#[test]
fn min_len_waits_for_the_closing_quote() {
    let text = r#"{"id":7,"title":"a","#;
    let close = at(text, r#"a","#) + 1;
    assert_eq!(
        rejected_at::<Ticket>(text),
        Some((close, "/title".into(), "too_short"))
    );
}

#[test]
fn an_enum_value_no_variant_starts_with_is_rejected_at_that_character() {
    let text = r#"{"id":7,"title":"abc","level":"hx"#;
    assert_eq!(
        rejected_at::<Ticket>(text),
        Some((text.len() - 1, "/level".into(), "not_one_of"))
    );
    // A prefix of a variant is not a variant.
    let text = r#"{"id":7,"title":"abc","level":"hig","#;
    let close = text.len() - 2;
    assert_eq!(
        rejected_at::<Ticket>(text),
        Some((close, "/level".into(), "not_one_of"))
    );
}

#[test]
fn a_date_no_calendar_day_starts_with_is_rejected_at_that_character() {
    let text = r#"{"id":7,"title":"abc","level":"low","starts_on":"2027-02-3"#;
    assert_eq!(
        rejected_at::<Ticket>(text),
        Some((text.len() - 1, "/starts_on".into(), "invalid_date"))
    );
    let text = r#"{"id":7,"title":"abc","level":"low","starts_on":"2027-1"#;
    assert_eq!(rejected_at::<Ticket>(text), None);
}

// The first missing member in declaration order, as `check` reports it
// (the plan is built from the description, so serde_json's
// `preserve_order` changes nothing here).
#[test]
fn a_missing_key_waits_for_the_close() {
    let text = r#"{"id":7}"#;
    assert_eq!(
        rejected_at::<Ticket>(text),
        Some((7, "/title".into(), "missing_key"))
    );
}

#[test]
fn an_array_past_max_len_is_rejected_at_its_close() {
    let text = r#"{"id":7,"title":"abc","level":"low","starts_on":"2027-06-01","ends_on":null,"tags":["a","b","c"]"#;
    let close = text.len() - 1;
    assert_eq!(
        rejected_at::<Ticket>(text),
        Some((close, "/tags".into(), "too_long"))
    );
}

#[test]
fn a_quarantined_value_failure_is_not_rejected_but_its_type_is() {
    let base =
        r#"{"id":7,"title":"abc","level":"low","starts_on":"2027-06-01","ends_on":null,"tags":[],"#;
    let long = format!(r#"{base}"note":"too long","count":1}}"#);
    assert_eq!(rejected_at::<Ticket>(&long), None);
    assert_eq!(Ticket::stream_all(&long), Ticket::check(&long).kind());
    let typed = format!(r#"{base}"note":7"#);
    assert_eq!(
        rejected_at::<Ticket>(&typed).map(|r| r.2),
        Some("invalid_type")
    );
}

#[test]
fn an_order_rule_is_decided_once_both_values_are_complete() {
    let text = r#"{"id":7,"title":"abc","level":"low","starts_on":"2027-06-02","ends_on":"2027-06-01","tags":[],"note":null,"count":1}"#;
    let end = at(text, r#","tags""#) - 1;
    assert_eq!(
        rejected_at::<Ticket>(text),
        Some((end, "/ends_on".to_owned(), "order"))
    );
    let mut stream = Ticket::stream();
    stream.push(text);
    let whole = Ticket::check(text);
    assert_eq!(whole.rejection().unwrap().errors[0].code, "order");
    let finished = stream.finish();
    assert_eq!(finished.rejection(), whole.rejection());
    // In either order of the keys; equal days are in order.
    let swapped = r#"{"ends_on":"2027-06-01","id":7,"title":"abc","level":"low","starts_on":"2027-06-02","tags":[],"note":null,"count":1}"#;
    let end = at(swapped, r#","tags""#) - 1;
    assert_eq!(
        rejected_at::<Ticket>(swapped),
        Some((end, "/ends_on".to_owned(), "order"))
    );
    let equal = text.replace("2027-06-02", "2027-06-01");
    assert_eq!(rejected_at::<Ticket>(&equal), None);
    assert!(Ticket::check(&equal).is_accept());
}

#[derive(Contract, Debug)]
#[contract(rename_all = "snake_case")]
enum State {
    Open,
    Closed,
}

#[derive(Contract, Debug)]
#[contract(when(state = State::Closed, require(closed_on), forbid(reason)))]
struct Case {
    state: State,
    closed_on: Option<Date>,
    reason: Option<String>,
}

#[test]
fn a_when_rule_is_decided_once_the_condition_and_the_field_are_complete() {
    for (text, expected) in [
        (
            r#"{"state":"closed","closed_on":null,"reason":null}"#,
            Some(("/closed_on", "required", r#","reason""#)),
        ),
        (
            r#"{"reason":"x","closed_on":"2027-01-01","state":"closed"}"#,
            Some(("/reason", "forbidden", "}")),
        ),
        (
            r#"{"closed_on":null,"state":"closed","reason":null}"#,
            Some(("/closed_on", "required", r#","reason""#)),
        ),
        (r#"{"state":"open","closed_on":null,"reason":"x"}"#, None),
        (
            r#"{"state":"closed","closed_on":"2027-01-01","reason":null}"#,
            None,
        ),
    ] {
        let got = rejected_at::<Case>(text);
        let whole = Case::check(text);
        match expected {
            Some((pointer, code, end)) => {
                let end = at(text, end) - 1;
                assert_eq!(got, Some((end, pointer.to_owned(), code)), "{text}");
                let e = &whole.rejection().unwrap().errors[0];
                assert_eq!((e.pointer.as_str(), e.code), (pointer, code), "{text}");
            }
            None => {
                assert_eq!(got, None, "{text}");
                assert!(whole.is_accept(), "{text}");
            }
        }
    }
}

#[test]
fn a_syntax_error_is_the_decoders_parse_error_at_that_byte() {
    let text = "{\"id\":7,\n \"title\" 1";
    let mut stream = Ticket::stream();
    let Progress::Rejected(r) = stream.push(text) else {
        panic!("a missing colon decides");
    };
    let whole = Ticket::check(text);
    assert_eq!(r, *whole.rejection().unwrap());
    assert_eq!((r.errors[0].line, r.errors[0].column), (Some(2), Some(10)));
}

#[test]
fn a_duplicate_key_is_rejected_at_the_key() {
    let text = r#"{"id":7,"id":8}"#;
    let (offset, pointer, code) = rejected_at::<Ticket>(text).unwrap();
    // The decoder reads the `:` before it compares the key.
    assert_eq!(
        (offset, pointer.as_str(), code),
        (12, "/id", "duplicate_key")
    );
}

#[test]
fn input_past_max_bytes_is_too_large_at_the_push_that_crosses_it_and_finishes_as_check() {
    let mut stream = Ticket::stream();
    assert_eq!(stream.push(&" ".repeat(250)), Progress::Pending);
    let Progress::Rejected(r) = stream.push(&" ".repeat(10)) else {
        panic!("260 bytes > 256");
    };
    assert_eq!(r.errors[0].code, "too_large");
    assert_eq!(stream.push("{"), Progress::Rejected(r.clone()));
    assert_eq!(stream.received(), 261);
    let whole = format!("{}{}{{", " ".repeat(250), " ".repeat(10));
    assert_eq!(
        stream.finish().rejection(),
        Ticket::check(&whole).rejection()
    );
}

#[test]
fn an_early_parse_error_stands_for_push_and_finish_is_too_large_past_max_bytes() {
    // `check` on the whole text says only `too_large`; the pushes keep
    // saying what decided (the control character), `finish` says `check`'s.
    let head = "{\"id\":7,\"title\":\"a\u{1b}";
    let tail = "b".repeat(300);
    let mut stream = Ticket::stream();
    let Progress::Rejected(early) = stream.push(head) else {
        panic!("a control character in a string is a parse error");
    };
    assert_eq!(early.errors[0].code, "control_character");
    assert_eq!(stream.push(&tail), Progress::Rejected(early.clone()));
    let whole = Ticket::check(&format!("{head}{tail}"));
    assert_eq!(stream.finish().rejection(), whole.rejection());
    let codes: Vec<&str> = whole
        .rejection()
        .map_or(vec![], |r| r.errors.iter().map(|e| e.code).collect());
    assert_eq!(codes, ["too_large"]);
}

#[test]
fn pieces_after_a_rejection_are_kept_and_finish_is_check_on_the_whole_text() {
    let mut stream = Ticket::stream();
    assert_eq!(stream.push(r#"{"id":"#), Progress::Pending);
    let Progress::Rejected(early) = stream.push(r#""7""#) else {
        panic!("a string for an integer decides");
    };
    let rest = r#","title":"a","level":"low","starts_on":"2027-06-01","ends_on":null,"tags":[],"note":null,"count":1}"#;
    assert_eq!(stream.push(rest), Progress::Rejected(early.clone()));
    let whole = Ticket::check(&format!(r#"{{"id":"7"{rest}"#));
    let codes: Vec<&str> = whole
        .rejection()
        .map_or(vec![], |r| r.errors.iter().map(|e| e.code).collect());
    assert_eq!(codes, ["invalid_type", "too_short"]);
    assert_eq!(stream.finish().rejection(), whole.rejection());
}

#[test]
fn finish_after_a_rejection_by_the_last_piece_is_check_on_the_whole_text() {
    let text = r#"{"id":"7","title":"abc","level":"low","starts_on":"2027-06-01","ends_on":null,"tags":[],"note":null,"count":1}"#;
    let mut stream = Ticket::stream();
    assert!(matches!(stream.push(text), Progress::Rejected(_)));
    assert_eq!(stream.finish().rejection(), Ticket::check(text).rejection());
}

#[test]
fn a_text_cut_short_after_a_rejection_finishes_as_check_says() {
    // The caller stopped the model: `check` says the text ends early.
    let text = r#"{"id":"7""#;
    let mut stream = Ticket::stream();
    let Progress::Rejected(early) = stream.push(text) else {
        panic!("decided");
    };
    assert_eq!(early.errors[0].code, "invalid_type");
    let whole = Ticket::check(text);
    assert_eq!(whole.rejection().unwrap().errors[0].code, "unexpected_end");
    assert_eq!(stream.finish().rejection(), whole.rejection());
}

#[test]
fn partial_shows_completed_members_and_the_open_string() {
    let mut stream = Ticket::stream();
    assert_eq!(stream.partial(), Value::Null);
    stream.push(r#"{"id":7,"title":"ab\u00"#);
    assert_eq!(stream.partial(), json!({"id": 7, "title": "ab"}));
    stream.push(r#"e9","tags":["x","#);
    assert_eq!(
        stream.partial(),
        json!({"id": 7, "title": "abé", "tags": ["x"]})
    );
    stream.push(r#""y"],"count":12"#);
    // The number is not complete until a delimiter follows.
    assert_eq!(
        stream.partial(),
        json!({"id": 7, "title": "abé", "tags": ["x", "y"]})
    );
}

impl Ticket {
    fn stream_all(text: &str) -> OutcomeKind {
        let mut stream = Ticket::stream();
        stream.push(text);
        stream.finish().kind()
    }
}

mod plan;

#[derive(Contract, Debug)]
#[contract(order(first <= last))]
struct Names {
    first: String,
    last: String,
}

#[derive(Contract, Debug)]
struct Holder {
    #[contract(quarantine)]
    held: Option<Case>,
    plain: Option<Case>,
}

/// `text` streamed in one piece: whether the stream decided it (its rules
/// included) and whether `finish` is `check`.
fn finish_decided<T: Document + Definition + Contract + std::fmt::Debug>(text: &str) -> bool {
    let mut stream = Stream::<T>::new(None);
    stream.push(text);
    let decided = stream.decided();
    let finished = stream.finish();
    let whole = T::check(text);
    assert_eq!(finished.kind(), whole.kind(), "{text}");
    assert_eq!(finished.rejection(), whole.rejection(), "{text}");
    decided
}

// `finish` leaves out the rule stage only when the stream decided every
// rule of the document: a rule the plan leaves to `finish` (an `order` of
// strings), or the rules of a contract under a `quarantine` field, are
// still checked there (a debug build asserts that a rule left out holds).
#[test]
fn finish_runs_the_rules_the_stream_did_not_decide() {
    assert!(finish_decided::<Ticket>(OK));
    let closed = r#"{"state":"closed","closed_on":"2027-06-01","reason":null}"#;
    assert!(finish_decided::<Case>(closed));
    // The stream rejected: `finish` is `check`.
    let broken = r#"{"state":"closed","closed_on":null,"reason":null}"#;
    assert!(!finish_decided::<Case>(broken));
    // Cut short: not decided.
    assert!(!finish_decided::<Case>(&closed[..closed.len() - 1]));
    assert!(!finish_decided::<Names>(r#"{"first":"a","last":"b"}"#));
    assert!(!finish_decided::<Names>(r#"{"first":"b","last":"a"}"#));
    let plain = format!(r#"{{"held":null,"plain":{closed}}}"#);
    assert!(finish_decided::<Holder>(&plain));
    for held in [closed, broken] {
        let text = format!(r#"{{"held":{held},"plain":null}}"#);
        assert!(!finish_decided::<Holder>(&text));
    }
}
