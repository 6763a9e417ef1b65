//! The vacation contract of seed 004, declared exactly as the seed contract
//! of `examples/` (`examples/src/vacation.rs`) declares it.
use contract_runtime::{Contract, Date, OutcomeKind};

/// A vacation request extracted from an employee's message.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    max_bytes = 4096,
    outcome = status,
    when(status = Status::Complete, require(start_date, end_date), forbid(clarification_question)),
    when(status = Status::NeedsClarification, require(clarification_question)),
    when(status = Status::NotARequest, forbid(start_date, end_date)),
    order(start_date <= end_date),
)]
pub struct VacationRequest {
    pub status: Status,
    pub start_date: Option<Date>,
    pub end_date: Option<Date>,
    #[contract(min_len = 1, max_len = 500)]
    pub clarification_question: Option<String>,
}

#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
pub enum Status {
    Complete,
    #[contract(clarify)]
    NeedsClarification,
    #[contract(decline)]
    NotARequest,
}

fn kind(raw: &str) -> OutcomeKind {
    VacationRequest::check(raw).kind()
}

#[test]
fn complete_request_is_accepted() {
    let raw = r#"{"status":"complete","start_date":"2027-06-01","end_date":"2027-06-12","clarification_question":null}"#;
    assert_eq!(kind(raw).as_str(), "accept");
}

#[test]
fn needs_clarification_is_clarify() {
    let raw = r#"{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":"Which dates?"}"#;
    assert_eq!(kind(raw).as_str(), "clarify");
}

#[test]
fn not_a_request_is_decline() {
    let raw = r#"{"status":"not_a_request","start_date":null,"end_date":null,"clarification_question":null}"#;
    assert_eq!(kind(raw).as_str(), "decline");
}

#[test]
fn every_rule_violation_is_reported() {
    let raw = r#"{"status":"complete","start_date":"2027-06-12","end_date":null,"clarification_question":"?"}"#;
    let rejection = VacationRequest::from_json(raw).unwrap_err();
    let got: Vec<_> = rejection
        .errors
        .iter()
        .map(|e| (e.stage.as_str(), e.pointer.as_str(), e.code))
        .collect();
    assert_eq!(
        got,
        [
            ("rule", "/end_date", "required"),
            ("rule", "/clarification_question", "forbidden")
        ]
    );
}

#[test]
fn end_before_start_is_an_order_error_at_end_date() {
    let raw = r#"{"status":"complete","start_date":"2027-06-12","end_date":"2027-06-01","clarification_question":null}"#;
    let rejection = VacationRequest::from_json(raw).unwrap_err();
    assert_eq!(rejection.errors[0].code, "order");
    assert_eq!(rejection.errors[0].pointer, "/end_date");
}

#[test]
fn schema_errors_are_all_collected_and_stop_rules() {
    let raw = r#"{"status":"done","start_date":"2027-02-30","end_date":"2027-6-1","extra":1}"#;
    let rejection = VacationRequest::from_json(raw).unwrap_err();
    let got: Vec<_> = rejection
        .errors
        .iter()
        .map(|e| (e.stage.as_str(), e.pointer.as_str(), e.code))
        .collect();
    assert_eq!(
        got,
        [
            ("schema", "/status", "not_one_of"),
            ("schema", "/start_date", "invalid_date"),
            ("schema", "/end_date", "invalid_date"),
            ("schema", "/extra", "unknown_key"),
            ("schema", "/clarification_question", "missing_key"),
        ]
    );
}

#[test]
fn schema_has_rules_and_extension() {
    let schema = VacationRequest::json_schema();
    println!("{}", serde_json::to_string_pretty(&schema).unwrap());
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["allOf"].as_array().unwrap().len(), 3);
    assert_eq!(schema["x-contract-rules"][0]["rule"], "order");
}
