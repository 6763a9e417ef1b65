//! Tagged unions on the stream: the tag first or later, members met before
//! it judged once it names the variant, and a number where the object
//! should be.
use super::super::Progress;
use super::{at, rejected_at};
use crate::Contract;

/// A union: the tag first or later.
#[derive(Contract, Debug)]
#[contract(tag = "action", rename_all = "snake_case")]
enum Step {
    Close {
        ticket_id: u64,
    },
    Ask {
        question: String,
    },
    #[contract(decline)]
    Nothing,
}

#[test]
fn a_tag_no_variant_starts_with_is_unknown_variant() {
    let text = r#"{"action":"clx"#;
    assert_eq!(
        rejected_at::<Step>(text),
        Some((text.len() - 1, "/action".into(), "unknown_variant"))
    );
    assert_eq!(
        rejected_at::<Step>(r#"{"action":7"#).map(|r| r.2),
        Some("invalid_type")
    );
}

#[test]
fn a_member_before_the_tag_is_judged_when_the_tag_names_the_variant() {
    let text = r#"{"question":"?","action":"close","ticket_id":1}"#;
    let close = at(text, r#"close""#) + 5;
    assert_eq!(
        rejected_at::<Step>(text),
        Some((close, "/question".into(), "unknown_key"))
    );
    assert_eq!(
        rejected_at::<Step>(r#"{"ticket_id":1,"action":"close"}"#),
        None
    );
    let missing = r#"{"ticket_id":1}"#;
    assert_eq!(
        rejected_at::<Step>(missing),
        Some((14, "/action".into(), "missing_key"))
    );
}

#[test]
fn a_member_before_the_tag_is_judged_against_the_variant_at_the_tags_closing_quote() {
    // A wrong type, and a number out of the type's range.
    for (text, code) in [
        (r#"{"ticket_id":"7","action":"close"}"#, "invalid_type"),
        (r#"{"ticket_id": -1 ,"action":"close"}"#, "out_of_range"),
    ] {
        let close = at(text, r#"close""#) + 5;
        assert_eq!(
            rejected_at::<Step>(text),
            Some((close, "/ticket_id".into(), code)),
            "{text}"
        );
        let whole = Step::check(text);
        let errors = &whole.rejection().unwrap().errors;
        assert_eq!(
            (errors[0].pointer.as_str(), errors[0].code),
            ("/ticket_id", code)
        );
    }
    // The second member before the tag, and a string past `max_len`.
    let text = r#"{"ticket_id":7,"reason":"too long","action":"close_reason"}"#;
    let tag_end = at(text, r#"close_reason""#) + 12;
    assert_eq!(
        rejected_at::<Reasoned>(text),
        Some((tag_end, "/reason".into(), "too_long"))
    );
    // Valid members before the tag stay pending.
    assert_eq!(
        rejected_at::<Reasoned>(r#"{"ticket_id":7,"reason":"ok","action":"close_reason"}"#),
        None
    );
}

#[test]
fn a_member_before_a_nested_tag_is_pointed_from_the_root() {
    let text = r#"{"steps":[{"action":"ask","question":"?"},{"ticket_id":{},"action":"close"}]}"#;
    let close = at(text, r#"close""#) + 5;
    assert_eq!(
        rejected_at::<Steps>(text),
        Some((close, "/steps/1/ticket_id".into(), "invalid_type"))
    );
}

#[test]
fn a_rule_over_members_before_the_tag_is_decided_once_the_tag_names_the_variant() {
    // Both fields before the tag: decided at the tag's closing quote.
    let text = r#"{"refund_cents":500,"order_total_cents":100,"action":"refund"}"#;
    let tag_end = at(text, r#"refund"}"#) + 6;
    let rule = |text: &str| {
        let whole = Pay::check(text);
        let e = &whole.rejection().unwrap().errors[0];
        (e.pointer.clone(), e.code)
    };
    assert_eq!(rule(text), ("/order_total_cents".into(), "order"));
    assert_eq!(
        rejected_at::<Pay>(text),
        Some((tag_end, "/order_total_cents".into(), "order"))
    );
    // One before the tag, one after: at the end of the later.
    let text = r#"{"refund_cents":500,"action":"refund","order_total_cents":100}"#;
    assert_eq!(rule(text), ("/order_total_cents".into(), "order"));
    assert_eq!(
        rejected_at::<Pay>(text),
        Some((text.len() - 1, "/order_total_cents".into(), "order"))
    );
    assert_eq!(
        rejected_at::<Pay>(r#"{"refund_cents":5,"order_total_cents":100,"action":"refund"}"#),
        None
    );
}

/// A union with a rule in a variant.
#[derive(Contract, Debug)]
#[contract(tag = "action", rename_all = "snake_case")]
enum Pay {
    Refund(Refund),
    #[contract(decline)]
    Nothing,
}

#[derive(Contract, Debug)]
#[contract(order(refund_cents <= order_total_cents))]
struct Refund {
    refund_cents: u32,
    order_total_cents: u32,
}

/// A union whose variant bounds its members.
#[derive(Contract, Debug)]
#[contract(tag = "action", rename_all = "snake_case")]
enum Reasoned {
    CloseReason {
        ticket_id: u64,
        #[contract(max_len = 3)]
        reason: String,
    },
}

/// Unions in an array.
#[derive(Contract, Debug)]
#[contract(rename_all = "snake_case")]
struct Steps {
    steps: Vec<Step>,
}

// Found by the `stream` fuzz target: `-` alone, for a union. The push
// rejects (a number is not an object); the text ends inside the number,
// and `finish` is `check`'s `unexpected_end`.
#[test]
fn a_text_cut_short_inside_a_number_finishes_as_check_says() {
    let mut stream = Step::stream();
    let Progress::Rejected(early) = stream.push("-") else {
        panic!("a number is not an object");
    };
    assert_eq!(early.errors[0].code, "invalid_type");
    let whole = Step::check("-");
    assert_eq!(whole.rejection().unwrap().errors[0].code, "unexpected_end");
    assert_eq!(stream.finish().rejection(), whole.rejection());
    let mut stream = Step::stream();
    stream.push("-1");
    assert_eq!(stream.finish().rejection(), Step::check("-1").rejection());
}
