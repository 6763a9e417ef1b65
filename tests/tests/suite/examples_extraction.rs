//! Seed 003's review decisions come from the contract itself
//! (`TicketExtraction::check_with`), with nothing layered on top.
use contract_examples::ticket_extraction::{EmailContext, TicketExtraction};
use contract_runtime::{Contract, OutcomeKind};

fn ctx() -> EmailContext {
    EmailContext {
        source:
            "The PDF export fails on eu-central-1. If legal signs off, we need it by 2027-06-12."
                .into(),
        confirmed_clusters: vec!["eu-central-1".into()],
    }
}

fn doc(deadline: &str, context: &str, cluster: &str, quote: &str) -> String {
    format!(
        r#"{{"issue_summary":"PDF export fails","deadline_iso":{deadline},"deadline_context":{context},"affected_cluster":{cluster},"raw_quote":{quote}}}"#
    )
}

#[test]
fn a_conditional_deadline_is_dropped_with_one_reason() {
    let raw = doc(
        r#""2027-06-12""#,
        r#""if legal signs off""#,
        r#""eu-central-1""#,
        r#""The PDF export fails""#,
    );
    let outcome = TicketExtraction::check_with(&raw, &ctx());
    assert_eq!(outcome.kind(), OutcomeKind::Review);
    let reasons: Vec<_> = outcome
        .reasons()
        .iter()
        .map(|r| (r.pointer.as_str(), r.code))
        .collect();
    assert_eq!(reasons, [("/deadline_iso", "deadline_conditional")]);
    assert_eq!(outcome.value().unwrap().deadline_iso, None);
}

#[test]
fn an_invalid_date_is_one_reason_not_also_a_missing_deadline() {
    let raw = doc(
        r#""next Tuesday""#,
        "null",
        r#""eu-central-1""#,
        r#""The PDF export fails""#,
    );
    let outcome = TicketExtraction::check_with(&raw, &ctx());
    let reasons: Vec<_> = outcome
        .reasons()
        .iter()
        .map(|r| (r.pointer.as_str(), r.code))
        .collect();
    assert_eq!(reasons, [("/deadline_iso", "invalid_date")]);
}

#[test]
fn a_quote_not_in_the_source_and_an_unconfirmed_cluster_are_two_reasons() {
    let raw = doc(
        r#""2027-06-12""#,
        "null",
        r#""us-east-1""#,
        r#""the export is broken""#,
    );
    let outcome = TicketExtraction::check_with(&raw, &ctx());
    let reasons: Vec<_> = outcome
        .reasons()
        .iter()
        .map(|r| (r.pointer.as_str(), r.code))
        .collect();
    assert_eq!(
        reasons,
        [
            ("/raw_quote", "evidence_not_found"),
            ("/affected_cluster", "cluster_not_confirmed")
        ]
    );
    let value = outcome.value().unwrap();
    assert_eq!(value.raw_quote, None);
    assert_eq!(value.affected_cluster.as_deref(), Some("us-east-1"));
}

#[test]
fn a_clean_extraction_is_accepted() {
    let raw = doc(
        r#""2027-06-12""#,
        "null",
        r#""eu-central-1""#,
        r#""The PDF export fails""#,
    );
    assert_eq!(
        TicketExtraction::check_with(&raw, &ctx()).kind(),
        OutcomeKind::Accept
    );
}

#[test]
fn a_structural_error_still_rejects() {
    let raw = r#"{"issue_summary":"","deadline_iso":null,"deadline_context":null,"affected_cluster":null}"#;
    let outcome = TicketExtraction::check_with(raw, &ctx());
    let rejection = outcome.rejection().unwrap();
    assert_eq!(rejection.pointers(), ["/issue_summary", "/raw_quote"]);
}

/// The errors of a rejected outcome as `(stage, pointer, code)`.
fn rejected(raw: &str) -> Vec<(&'static str, String, &'static str)> {
    let outcome = TicketExtraction::check_with(raw, &ctx());
    let rejection = outcome.rejection().expect("rejected");
    rejection
        .errors
        .iter()
        .map(|e| (e.stage.as_str(), e.pointer.to_string(), e.code))
        .collect()
}

/// The review reasons of an outcome as `(pointer, code)`.
fn reviewed(raw: &str) -> (Vec<(String, &'static str)>, TicketExtraction) {
    let outcome = TicketExtraction::check_with(raw, &ctx());
    assert_eq!(outcome.kind(), OutcomeKind::Review, "{raw}");
    let reasons = outcome
        .reasons()
        .iter()
        .map(|r| (r.pointer.clone(), r.code))
        .collect();
    (reasons, outcome.value().unwrap().clone())
}

#[test]
fn a_number_as_the_quarantined_deadline_is_a_wrong_type_and_rejects() {
    let raw = doc("7", "null", "null", r#""The PDF export fails""#);
    assert_eq!(
        rejected(&raw),
        [("schema", "/deadline_iso".to_owned(), "invalid_type")]
    );
}

#[test]
fn an_array_as_the_quarantined_quote_is_a_wrong_type_and_rejects() {
    let raw = doc(r#""2027-06-12""#, "null", "null", "[]");
    assert_eq!(
        rejected(&raw),
        [("schema", "/raw_quote".to_owned(), "invalid_type")]
    );
}

#[test]
fn a_wrong_type_in_a_quarantined_field_is_listed_with_the_other_errors() {
    let raw = r#"{"issue_summary":"","deadline_iso":true,"deadline_context":null,"affected_cluster":null,"raw_quote":{}}"#;
    assert_eq!(
        rejected(raw),
        [
            ("schema", "/issue_summary".to_owned(), "too_short"),
            ("schema", "/deadline_iso".to_owned(), "invalid_type"),
            ("schema", "/raw_quote".to_owned(), "invalid_type"),
        ]
    );
}

#[test]
fn an_empty_quote_is_no_evidence_and_is_dropped_for_review() {
    let raw = doc(r#""2027-06-12""#, "null", "null", r#""""#);
    let (reasons, value) = reviewed(&raw);
    assert_eq!(reasons, [("/raw_quote".to_owned(), "evidence_not_found")]);
    assert_eq!(value.raw_quote, None);
}

#[test]
fn a_whitespace_only_quote_is_no_evidence_and_is_dropped_for_review() {
    // The source text has spaces, so a quote of spaces occurs in it.
    let raw = doc(r#""2027-06-12""#, "null", "null", r#"" ""#);
    let (reasons, value) = reviewed(&raw);
    assert_eq!(reasons, [("/raw_quote".to_owned(), "evidence_not_found")]);
    assert_eq!(value.raw_quote, None);
}

#[test]
fn an_invalid_date_is_still_dropped_for_review() {
    let raw = doc(
        r#""2027-02-30""#,
        "null",
        "null",
        r#""The PDF export fails""#,
    );
    let (reasons, value) = reviewed(&raw);
    assert_eq!(reasons, [("/deadline_iso".to_owned(), "invalid_date")]);
    assert_eq!(value.deadline_iso, None);
}
