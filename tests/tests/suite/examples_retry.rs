//! The retry example (`contract_examples::retry_demo`, run with
//! `cargo run -q -p contract-examples --example retry`): a scripted model
//! gives an invalid output, an inconsistent one, then a valid one; the loop
//! takes three attempts, keeps every attempt's codes, and the feedback sent
//! to the model never contains a rejected value. Then a property test: for
//! random secret strings placed in model outputs (values) and in a trusted
//! context, no feedback the retry loop sends (and no attempt in its
//! history) contains them.
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use contract_examples::close_ticket::{CloseTicket, Ticket, TicketContext, TicketStatus};
use contract_examples::retry_demo::{
    self, MAX_ATTEMPTS, SCOPE, SCRIPT, ScriptEnded, ScriptedModel,
};
use contract_examples::ticket_extraction::{EmailContext, check_extraction};
use contract_examples::vacation::VacationRequest;
use contract_runtime::retry::{Attempt, retry, retry_async};
use contract_runtime::{Contract, Feedback, Outcome, OutcomeKind, Stage};
use proptest::prelude::*;
use serde_json::Value;

fn codes(attempt: &Attempt) -> Vec<(Stage, &str, &str)> {
    attempt
        .errors
        .iter()
        .map(|(stage, pointer, code)| (*stage, pointer.as_str(), *code))
        .collect()
}

/// Every string and number in a JSON value (the values a model wrote).
fn leaves(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Number(n) => out.push(n.to_string()),
        Value::Array(items) => items.iter().for_each(|v| leaves(v, out)),
        Value::Object(map) => map.values().for_each(|v| leaves(v, out)),
        Value::Bool(_) | Value::Null => {}
    }
}

/// The feedback, as the model would see it (text) and as a caller might
/// send it (JSON).
fn renderings(feedback: &Feedback) -> [String; 2] {
    [
        feedback.to_string(),
        serde_json::to_string(feedback).unwrap(),
    ]
}

// ------------------------------------------------------------ the example's flow

#[test]
fn the_scripted_flow_takes_three_attempts_and_accepts() {
    let run = retry_demo::run(&SCRIPT, MAX_ATTEMPTS, SCOPE).unwrap();
    let retried = &run.retried;
    assert_eq!(retried.attempts.len(), 3);
    assert_eq!(retried.outcome.kind(), OutcomeKind::Accept);
    assert_eq!(retried.last_output, SCRIPT[2]);

    let numbers: Vec<usize> = retried.attempts.iter().map(|a| a.number).collect();
    assert_eq!(numbers, [1, 2, 3]);
    let outcomes: Vec<&str> = retried
        .attempts
        .iter()
        .map(|a| a.outcome.as_str())
        .collect();
    assert_eq!(outcomes, ["reject", "reject", "accept"]);
    assert_eq!(
        codes(&retried.attempts[0]),
        [
            (Stage::Schema, "/status", "not_one_of"),
            (Stage::Schema, "/start_date", "invalid_date"),
            (Stage::Schema, "/end_date", "invalid_date"),
        ]
    );
    assert_eq!(
        codes(&retried.attempts[1]),
        [
            (Stage::Rule, "/clarification_question", "forbidden"),
            (Stage::Rule, "/end_date", "order"),
        ]
    );
    assert!(retried.attempts[2].errors.is_empty());

    // Per-stage counters over the attempts.
    let report = &retried.report;
    assert_eq!(report.read, 3);
    assert_eq!(report.parsed, 3);
    assert_eq!(report.schema_valid, 2);
    assert_eq!(report.rule_valid, 1);
    assert_eq!(report.accepted, 1);
    assert_eq!(report.rejected.schema, 1);
    assert_eq!(report.rejected.rule, 1);
    assert_eq!(report.rejected.total(), 2);

    // The decision and its key.
    let accepted = VacationRequest::from_json(SCRIPT[2]).unwrap();
    assert_eq!(retried.outcome.value(), Some(&accepted));
    assert_eq!(run.key, Some(accepted.idempotency_key(Some(SCOPE))));
}

#[test]
fn each_call_gets_the_feedback_of_the_attempt_before() {
    let run = retry_demo::run(&SCRIPT, MAX_ATTEMPTS, SCOPE).unwrap();
    assert_eq!(run.received.len(), 3);
    assert!(run.received[0].is_none(), "the first call has no feedback");
    for (attempt, feedback) in run.retried.attempts.iter().zip(&run.received[1..]) {
        let feedback = feedback.as_ref().unwrap();
        let items: Vec<(Stage, &str, &str)> = feedback
            .items
            .iter()
            .map(|i| (i.stage, i.pointer.as_str(), i.code))
            .collect();
        assert_eq!(items, codes(attempt));
        assert!(feedback.items.iter().all(|i| !i.expected.is_empty()));
    }
}

#[test]
fn no_feedback_contains_a_rejected_value() {
    let run = retry_demo::run(&SCRIPT, MAX_ATTEMPTS, SCOPE).unwrap();
    // The values the model wrote in the rejected outputs, except the ones
    // the schema itself names (a valid `status`).
    let schema = VacationRequest::json_schema().to_string();
    let mut rejected = Vec::new();
    for (attempt, raw) in run.retried.attempts.iter().zip(SCRIPT) {
        if attempt.outcome == OutcomeKind::Reject {
            leaves(&serde_json::from_str(raw).unwrap(), &mut rejected);
        }
    }
    rejected.retain(|v| !schema.contains(&format!("\"{v}\"")));
    assert_eq!(
        rejected,
        [
            "approved",
            "14/06/2027",
            "next Friday",
            "2027-06-21",
            "2027-06-17",
            "Which week did you mean?"
        ]
    );
    let mut sent = 0;
    for feedback in run.received.iter().flatten() {
        for text in renderings(feedback) {
            for value in &rejected {
                assert!(!text.contains(value.as_str()), "{value:?} in {text}");
            }
            sent += 1;
        }
    }
    assert_eq!(sent, 4, "two feedbacks, two renderings each");

    // Nor does the history.
    let history = serde_json::to_string(&run.retried.attempts).unwrap();
    for value in &rejected {
        assert!(!history.contains(value.as_str()), "{value:?} in {history}");
    }
}

#[test]
fn the_printout_shows_each_attempt_the_feedback_and_the_decision() {
    let mut out = Vec::new();
    let code = retry_demo::main_with(&mut out).unwrap();
    assert_eq!(code, 0);
    let out = String::from_utf8(out).unwrap();
    let run = retry_demo::run(&SCRIPT, MAX_ATTEMPTS, SCOPE).unwrap();
    let key = run.key.unwrap().to_string();
    for expected in [
        "attempt 1 of 3: reject",
        "  schema   /status                    not_one_of",
        "  feedback sent with attempt 2:",
        "  | - at /status: not_one_of (schema stage); expected one of: \"complete\", \"needs_clarification\", \"not_a_request\"",
        "attempt 2 of 3: reject",
        "  rule     /end_date                  order",
        "  feedback sent with attempt 3:",
        "attempt 3 of 3: accept",
        "final decision after 3 attempt(s): accept",
        &format!("idempotency key (VacationRequest v1, scope employee-4711): {key}"),
        "reject           2   66.7%  (schema 1, rule 1)",
        &format!("booked under key {key}"),
        "the same decision again: refused (already booked",
        "bookings: 1",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in:\n{out}");
    }
    // The log quotes no rejected value either (only the accepted decision).
    for value in ["approved", "14/06/2027", "next Friday", "Which week"] {
        assert!(!out.contains(value), "{value:?} in:\n{out}");
    }
}

#[test]
fn the_loop_is_bounded_and_keeps_the_last_output() {
    let run = retry_demo::run(&SCRIPT, 2, SCOPE).unwrap();
    assert_eq!(run.retried.attempts.len(), 2);
    assert_eq!(run.retried.outcome.kind(), OutcomeKind::Reject);
    assert_eq!(run.retried.last_output, SCRIPT[1]);
    let rejection = run.retried.outcome.rejection().unwrap();
    assert_eq!(
        rejection.pointers(),
        ["/clarification_question", "/end_date"]
    );
    assert_eq!(run.key, None, "nothing accepted, nothing to act on");
    assert_eq!(run.received.len(), 2, "the model was asked twice");

    let mut out = Vec::new();
    retry_demo::print(&run, 2, SCOPE, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("final decision after 2 attempt(s): reject"),
        "{out}"
    );
    assert!(out.contains("no action"), "{out}");
    assert!(!out.contains("idempotency key"), "{out}");
}

#[test]
fn the_loop_stops_at_the_first_output_that_is_not_rejected() {
    let run = retry_demo::run(&[SCRIPT[2], SCRIPT[0]], MAX_ATTEMPTS, SCOPE).unwrap();
    assert_eq!(run.retried.attempts.len(), 1);
    assert_eq!(run.received, [None]);
}

#[test]
fn a_script_that_runs_out_keeps_the_attempts_made() {
    let failed = retry_demo::run(&[SCRIPT[0]], MAX_ATTEMPTS, SCOPE).unwrap_err();
    assert_eq!(failed.error, ScriptEnded { call: 2 });
    assert_eq!(failed.attempts.len(), 1);
    assert_eq!(failed.report.rejected.schema, 1);
}

#[test]
fn the_scripted_model_records_what_it_was_sent() {
    let mut model = ScriptedModel::new(["a"]);
    assert_eq!(model.answer(None).unwrap(), "a");
    assert_eq!(model.answer(None), Err(ScriptEnded { call: 2 }));
    assert_eq!(model.received().len(), 2);
}

// ------------------------------------------------------------ property

/// A secret: plain ASCII, or arbitrary printable Unicode (quotes,
/// backslashes and all, escaped when placed in JSON).
fn secret() -> impl Strategy<Value = String> {
    prop_oneof!["[A-Za-z0-9]{12,24}", "\\PC{12,24}"]
}

/// A JSON string literal of `s`.
fn lit(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// Model outputs for the vacation contract that are rejected and carry
/// `secret` in a value (at the failing pointer or elsewhere).
fn vacation_output(shape: usize, secret: &str) -> String {
    let s = lit(secret);
    let long = lit(&secret.repeat(1 + 500 / secret.chars().count()));
    match shape % 11 {
        0 => format!(
            r#"{{"status":{s},"start_date":null,"end_date":null,"clarification_question":null}}"#
        ),
        1 => format!(
            r#"{{"status":"complete","start_date":{s},"end_date":"2027-06-18","clarification_question":null}}"#
        ),
        2 => format!(
            r#"{{"status":"complete","start_date":"2027-06-14","end_date":"2027-06-18","clarification_question":{s}}}"#
        ),
        3 => format!(
            r#"{{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":{long}}}"#
        ),
        4 => format!(
            r#"{{"status":"complete","start_date":"2027-06-14","end_date":"2027-06-18","clarification_question":null,"note":{s}}}"#
        ),
        5 => format!(
            r#"{{"status":"not_a_request","start_date":"2027-06-14","end_date":null,"clarification_question":{s}}}"#
        ),
        6 => format!(r#"Here you go: {{"clarification_question": {s}}}"#),
        7 => format!(
            r#"{{"status":"complete","start_date":"2027-06-14","start_date":{s},"end_date":"2027-06-18","clarification_question":null}}"#
        ),
        8 => format!(r#"{{"status":"complete","start_date":"2027-06-14","end_date":{s}"#),
        9 => format!("[{s}]"),
        _ => format!(
            r#"{{"status":"complete","start_date":"2027-06-14","end_date":"2027-06-18","clarification_question":null}} {s}"#
        ),
    }
}

/// Rejected close-ticket proposals carrying `secret`; the business stage
/// runs against a context whose tenants are secrets too.
fn close_ticket_output(shape: usize, secret: &str) -> String {
    let s = lit(secret);
    let long = lit(&secret.repeat(1 + 200 / secret.chars().count()));
    match shape % 7 {
        // Ticket 7 belongs to the other (secret) tenant.
        0 => format!(r#"{{"action":"close_ticket","ticket_id":7,"reason":{s}}}"#),
        // Ticket 9 is the tenant's, but open.
        1 => format!(r#"{{"action":"close_ticket","ticket_id":9,"reason":{s}}}"#),
        2 => format!(r#"{{"action":"close_ticket","ticket_id":404,"reason":{s}}}"#),
        3 => format!(r#"{{"action":"close_ticket","ticket_id":{s},"reason":"done"}}"#),
        4 => format!(r#"{{"action":{s},"ticket_id":7,"reason":"done"}}"#),
        5 => format!(r#"{{"action":"close_ticket","ticket_id":7,"reason":{long}}}"#),
        _ => format!(r#"{{"action":"close_ticket","ticket_id":7,"reason":"done","tenant":{s}}}"#),
    }
}

/// Rejected extractions carrying `secret` (the context's e-mail and
/// clusters hold secrets too).
fn extraction_output(shape: usize, secret: &str) -> String {
    let s = lit(secret);
    match shape % 4 {
        0 => format!(
            r#"{{"issue_summary":"","deadline_iso":null,"deadline_context":null,"affected_cluster":{s},"raw_quote":{s}}}"#
        ),
        1 => format!(
            r#"{{"issue_summary":{s},"deadline_iso":null,"deadline_context":null,"affected_cluster":null,"raw_quote":null,"cluster":{s}}}"#
        ),
        2 => format!(
            r#"{{"issue_summary":"export fails","deadline_iso":null,"deadline_context":{s},"affected_cluster":{s}}}"#
        ),
        _ => format!(
            r#"{{"issue_summary":7,"deadline_iso":{s},"deadline_context":{s},"affected_cluster":null,"raw_quote":null}}"#
        ),
    }
}

/// Runs the retry loop (sync, then async) over `outputs`, all rejected, and
/// returns every feedback sent plus the serialized history.
fn feedback_sent<T: Contract>(
    outputs: &[String],
    check: impl Fn(&str) -> Outcome<T> + Copy,
) -> Result<Vec<String>, TestCaseError> {
    let mut texts = Vec::new();

    let mut model = ScriptedModel::new(outputs.iter().cloned());
    let retried = retry(outputs.len(), check, |fb| model.answer(fb))
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(retried.attempts.len(), outputs.len());
    prop_assert!(
        retried
            .attempts
            .iter()
            .all(|a| a.outcome == OutcomeKind::Reject),
        "every output is rejected: {:?}",
        retried.attempts
    );
    prop_assert_eq!(model.received().len(), outputs.len());
    prop_assert!(model.received()[0].is_none());
    for feedback in model.received().iter().flatten() {
        prop_assert!(!feedback.items.is_empty());
        texts.extend(renderings(feedback));
    }
    texts.push(serde_json::to_string(&retried.attempts).unwrap());

    // The async loop sends the same feedback.
    let mut async_model = ScriptedModel::new(outputs.iter().cloned());
    let async_retried = {
        let fut = retry_async(outputs.len(), check, |fb: Option<Feedback>| {
            let answer = async_model.answer(fb.as_ref());
            async move { answer }
        });
        let mut fut = pin!(fut);
        let Poll::Ready(result) = fut.as_mut().poll(&mut Context::from_waker(Waker::noop())) else {
            return Err(TestCaseError::fail("ready futures complete at once"));
        };
        result.map_err(|e| TestCaseError::fail(e.to_string()))?
    };
    prop_assert_eq!(&async_retried.attempts, &retried.attempts);
    prop_assert_eq!(async_model.received(), model.received());
    for feedback in async_model.received().iter().flatten() {
        texts.extend(renderings(feedback));
    }
    Ok(texts)
}

fn assert_absent(texts: &[String], secrets: &[&str]) -> Result<(), TestCaseError> {
    for text in texts {
        for secret in secrets {
            prop_assert!(!text.contains(secret), "{:?} in {}", secret, text);
            let escaped = lit(secret);
            let inner = &escaped[1..escaped.len() - 1];
            prop_assert!(!text.contains(inner), "{:?} (escaped) in {}", secret, text);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn vacation_feedback_never_contains_the_values(
        secret in secret(),
        shapes in proptest::collection::vec(0usize..11, 1..5),
    ) {
        let outputs: Vec<String> = shapes.iter().map(|&n| vacation_output(n, &secret)).collect();
        let texts = feedback_sent(&outputs, VacationRequest::check)?;
        assert_absent(&texts, &[&secret])?;
    }

    #[test]
    fn close_ticket_feedback_never_contains_the_values_or_the_context(
        secret in secret(),
        tenant in secret(),
        other_tenant in secret(),
        shapes in proptest::collection::vec(0usize..7, 1..5),
    ) {
        let ticket = |tenant: &str, status| Ticket { tenant: tenant.to_owned(), status };
        let ctx = TicketContext {
            tenant: tenant.clone(),
            tickets: [
                (7, ticket(&other_tenant, TicketStatus::Resolved)),
                (9, ticket(&tenant, TicketStatus::Open)),
            ]
            .into_iter()
            .collect(),
            closable_ticket_ids: Vec::new(),
        };
        let outputs: Vec<String> =
            shapes.iter().map(|&n| close_ticket_output(n, &secret)).collect();
        let check = |raw: &str| CloseTicket::check_with(raw, &ctx);
        let texts = feedback_sent(&outputs, check)?;
        assert_absent(&texts, &[&secret, &tenant, &other_tenant])?;
    }

    #[test]
    fn extraction_feedback_never_contains_the_values_or_the_email(
        secret in secret(),
        in_email in secret(),
        cluster in secret(),
        shapes in proptest::collection::vec(0usize..4, 1..5),
    ) {
        let ctx = EmailContext {
            source: format!("Hello, the export fails since {in_email}. Cluster {cluster}?"),
            confirmed_clusters: vec![cluster.clone()],
        };
        let outputs: Vec<String> =
            shapes.iter().map(|&n| extraction_output(n, &secret)).collect();
        let check = |raw: &str| check_extraction(raw, &ctx);
        let texts = feedback_sent(&outputs, check)?;
        assert_absent(&texts, &[&secret, &in_email, &cluster])?;
    }
}
