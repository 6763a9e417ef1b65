//! The step example: a tagged union whose tag may come anywhere. Raw bytes
//! are decoded as they are; then, structured, the same document with its
//! tag moved last must get the same decision (the decoder guesses the
//! variant from the first member, or skips the members before the tag and
//! reads them again).
#![no_main]
use contract_fuzz::{Step, assert_well_formed, decode, with_member_last};
use contract_runtime::json::{Limits, parse};
use contract_runtime::{Contract, OutcomeKind, Stage};
use libfuzzer_sys::fuzz_target;

fn invariant(step: &Step) {
    match step {
        Step::CloseTicket { ticket_id, reason } => {
            assert!(*ticket_id >= 1);
            assert!((1..=200).contains(&reason.chars().count()));
        }
        Step::Refund(r) => assert!(r.refund_cents <= r.order_total_cents),
        Step::AskCustomer { question } => {
            assert!((1..=300).contains(&question.chars().count()));
        }
        Step::NoAction => {}
    }
    let kind = match step {
        Step::AskCustomer { .. } => OutcomeKind::Clarify,
        Step::NoAction => OutcomeKind::Decline,
        _ => OutcomeKind::Accept,
    };
    assert_eq!(Step::check(&step.to_json().to_string()).kind(), kind);
    // The encoder writes the tag first; the decoder takes it last too.
    let last = with_member_last(&step.to_json(), "action").expect("an object with the tag");
    assert_eq!(Step::from_json(&last).as_ref(), Ok(step), "tag last does not round-trip");
}

// (stage, pointer, code) of every error, sorted: the same set whatever the
// order of the members.
fn error_set(r: &contract_runtime::Rejection) -> Vec<(Stage, String, &'static str)> {
    let mut set: Vec<_> = r
        .errors
        .iter()
        .map(|e| (e.stage, e.pointer.to_string(), e.code))
        .collect();
    set.sort();
    set
}

// Whether a number in `value` is not a 64-bit integer: re-serialized, it
// is written as a float (an integer too large for u64 becomes `5e37`), so
// its error may differ (`invalid_type` for `out_of_range`) though both
// documents are rejected.
fn has_float(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Number(n) => n.is_f64(),
        serde_json::Value::Array(items) => items.iter().any(has_float),
        serde_json::Value::Object(members) => members.values().any(has_float),
        _ => false,
    }
}

fuzz_target!(|data: &[u8]| {
    decode::<Step>(data, invariant);
    // Structured: a document that parses, its tag moved last.
    let Ok(value) = parse(data, &Limits::DEFAULT) else {
        return;
    };
    let Some(last) = with_member_last(&value, "action") else {
        return;
    };
    let Ok(raw) = std::str::from_utf8(data) else {
        return;
    };
    decode::<Step>(last.as_bytes(), invariant);
    match (Step::from_json(raw), Step::from_json(&last)) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "the tag's place changed the value"),
        (Err(a), Err(b)) => {
            assert_well_formed(&b);
            let parse_error = |r: &contract_runtime::Rejection| r.stage() == Some(Stage::Parse);
            let capped = a.errors.len() >= contract_runtime::error::MAX_ERRORS;
            if !parse_error(&a) && !parse_error(&b) && !capped && !has_float(&value) {
                assert_eq!(error_set(&a), error_set(&b), "the tag's place changed the errors");
            }
        }
        (a, b) => panic!(
            "the tag's place changed the decision: {:?} then {:?} for {last}",
            a.is_ok(),
            b.is_ok()
        ),
    }
});
