//! Every line of every shipped example file leads to the decision
//! `shared/seeds/README.md` prescribes: the outcome, and for each error or
//! review reason its stage, pointer and code.
//!
//! Each expectation reads `"STAGE POINTER CODE"` (`review` as the stage of a
//! review reason, `(root)` for the pointer `""`).
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use contract_examples::registry;
use contract_runtime::cli::{self as runtime_cli, Decision, Setup};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/data")
        .join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap()
}

/// The decision on each line of `examples/data/<contract>.jsonl`.
fn decisions(contract: &str, setup: &Setup) -> Vec<Decision> {
    let checker = registry::find(contract).unwrap().checker(setup).unwrap();
    let mut input = BufReader::new(File::open(data(&format!("{contract}.jsonl"))).unwrap());
    let mut buf = Vec::new();
    let cap = checker.limits().max_bytes + 1;
    let mut out = Vec::new();
    while let Some(len) = runtime_cli::read_line_capped(&mut input, &mut buf, cap).unwrap() {
        out.push(runtime_cli::check_line(&checker, &buf, len));
    }
    out
}

fn summary(d: &Decision) -> Vec<String> {
    let pointer = |p: &str| {
        if p.is_empty() {
            "(root)".to_owned()
        } else {
            p.to_owned()
        }
    };
    let errors = d
        .errors
        .iter()
        .map(|e| format!("{} {} {}", e.stage.as_str(), pointer(&e.pointer), e.code));
    let reasons = d
        .reasons
        .iter()
        .map(|r| format!("review {} {}", pointer(&r.pointer), r.code));
    errors.chain(reasons).collect()
}

type Case = (&'static str, &'static str, &'static [&'static str]);

fn assert_cases(contract: &str, got: &[Decision], cases: &[Case]) {
    assert_eq!(
        got.len(),
        cases.len(),
        "{contract}: every line of the example file has an expectation"
    );
    for (i, (d, (what, outcome, items))) in got.iter().zip(cases).enumerate() {
        let line = i + 1;
        assert_eq!(
            d.outcome.as_str(),
            *outcome,
            "{contract} line {line} ({what})"
        );
        assert_eq!(summary(d), *items, "{contract} line {line} ({what})");
    }
}

#[test]
fn close_ticket_decisions_follow_seed_000() {
    let setup = Setup {
        context: Some(r#"{"tenant":"demo-a"}"#.into()),
        ..Setup::default()
    };
    let cases: &[Case] = &[
        // The article's thirteen kinds of input.
        ("ticket 7: demo-a, resolved", "accept", &[]),
        (
            "ticket 8: another tenant",
            "reject",
            &["business /ticket_id wrong_tenant"],
        ),
        (
            "ticket 9: still open",
            "reject",
            &["business /ticket_id ticket_not_resolved"],
        ),
        (
            "ticket 404: does not exist",
            "reject",
            &["business /ticket_id ticket_not_found"],
        ),
        ("truncated JSON", "reject", &["parse (root) unexpected_end"]),
        ("over 4,096 bytes", "reject", &["parse (root) too_large"]),
        (
            "duplicate key",
            "reject",
            &["parse /ticket_id duplicate_key"],
        ),
        ("NaN", "reject", &["parse (root) syntax"]),
        (
            "\"7\" is not 7",
            "reject",
            &["schema /ticket_id invalid_type"],
        ),
        (
            "extra key: the model picks a tenant",
            "reject",
            &["schema /tenant unknown_key"],
        ),
        ("missing reason", "reject", &["schema /reason missing_key"]),
        ("another action", "reject", &["schema /action not_equal"]),
        (
            "reason of 201 characters",
            "reject",
            &["schema /reason too_long"],
        ),
        // Edge cases.
        (
            "ticket_id 0",
            "reject",
            &["schema /ticket_id below_minimum"],
        ),
        ("empty reason", "reject", &["schema /reason too_short"]),
        (
            "7.0 is not an integer",
            "reject",
            &["schema /ticket_id invalid_type"],
        ),
        (
            "-7 does not fit u64",
            "reject",
            &["schema /ticket_id out_of_range"],
        ),
        (
            "1e23 is not an integer",
            "reject",
            &["schema /ticket_id invalid_type"],
        ),
        (
            "true is not 1",
            "reject",
            &["schema /ticket_id invalid_type"],
        ),
        (
            "root is an array",
            "reject",
            &["schema (root) invalid_type"],
        ),
        (
            "duplicate key after unescaping",
            "reject",
            &["parse /action duplicate_key"],
        ),
        (
            "two documents on one line",
            "reject",
            &["parse (root) trailing_data"],
        ),
        ("markdown fence", "reject", &["parse (root) syntax"]),
        (
            "every schema error at once",
            "reject",
            &[
                "schema /action not_equal",
                "schema /ticket_id invalid_type",
                "schema /reason invalid_type",
                "schema /priority unknown_key",
            ],
        ),
        ("escaped key name is the same key", "accept", &[]),
        ("blank line", "reject", &["parse (root) unexpected_end"]),
    ];
    assert_cases("close-ticket", &decisions("close-ticket", &setup), cases);
}

#[test]
fn settings_decisions_follow_seed_001() {
    let setup = Setup {
        baseline: Some(read("settings.baseline.json")),
        edit: Some("disable_email".into()),
        ..Setup::default()
    };
    let got = decisions("settings", &setup);
    let cases: &[Case] = &[
        // The article's five cases.
        ("unchanged", "accept", &[]),
        ("approved: email false", "accept", &[]),
        (
            "overreach: retry_limit 9",
            "reject",
            &["edit /retry_limit change_not_allowed"],
        ),
        (
            "email removed",
            "reject",
            &["schema /notifications/email missing_key"],
        ),
        (
            "email 0",
            "reject",
            &["schema /notifications/email invalid_type"],
        ),
        // Edge checks.
        (
            "key a/~b escaped as ~1 and ~0",
            "reject",
            &[
                "schema /a~1~0b unknown_key",
                "edit /a~1~0b change_not_allowed",
            ],
        ),
        (
            "true is not a string inside an array",
            "reject",
            &[
                "schema /channels/0 invalid_type",
                "edit /channels change_not_allowed",
            ],
        ),
        (
            "arrays are atomic: reordered",
            "reject",
            &["edit /channels change_not_allowed"],
        ),
        (
            "root replaced",
            "reject",
            &[
                "schema (root) invalid_type",
                "edit (root) change_not_allowed",
            ],
        ),
        (
            "3 is not 3.0",
            "reject",
            &[
                "schema /retry_limit invalid_type",
                "edit /retry_limit change_not_allowed",
            ],
        ),
        (
            "a leaf permission does not allow replacing the parent",
            "reject",
            &[
                "schema /notifications invalid_type",
                "edit /notifications change_not_allowed",
            ],
        ),
        (
            "\"false\" is not false",
            "reject",
            &["schema /notifications/email invalid_type"],
        ),
        (
            "duplicate key",
            "reject",
            &["parse /notifications/email duplicate_key"],
        ),
        (
            "adding a null member is a change",
            "reject",
            &["schema /note unknown_key", "edit /note change_not_allowed"],
        ),
        (
            "negative retry_limit",
            "reject",
            &[
                "schema /retry_limit out_of_range",
                "edit /retry_limit change_not_allowed",
            ],
        ),
        ("key order is not a change", "accept", &[]),
        ("prose", "reject", &["parse (root) syntax"]),
    ];
    assert_cases("settings", &got, cases);
    let changed: Vec<Vec<String>> = got.iter().map(|d| d.changed.clone().unwrap()).collect();
    assert_eq!(changed[0], Vec::<String>::new(), "unchanged: no change");
    assert_eq!(changed[1], ["/notifications/email"]);
    assert_eq!(changed[2], ["/notifications/email", "/retry_limit"]);
    assert_eq!(changed[8], [""], "root replacement is the pointer \"\"");
    assert_eq!(changed[13], ["/note", "/notifications/email"]);
    assert_eq!(changed[15], ["/notifications/email"]);
    assert_eq!(changed[16], Vec::<String>::new(), "did not parse");
}

#[test]
fn triage_decisions_follow_seed_002() {
    let cases: &[Case] = &[
        ("valid", "accept", &[]),
        (
            "\"Bug\" is not lower-cased",
            "reject",
            &["schema /categoria not_one_of"],
        ),
        (
            "\" bug \" is not trimmed",
            "reject",
            &["schema /categoria not_one_of"],
        ),
        (
            "a boolean is not a number",
            "reject",
            &["schema /confianca invalid_type"],
        ),
        (
            "a string is not a number",
            "reject",
            &["schema /confianca invalid_type"],
        ),
        (
            "confidence above 1",
            "reject",
            &["schema /confianca above_maximum"],
        ),
        (
            "confidence below 0",
            "reject",
            &["schema /confianca below_minimum"],
        ),
        ("integer 1 is a number", "accept", &[]),
        ("integer 0 and an empty motivo", "accept", &[]),
        ("500 characters (1,000 bytes)", "accept", &[]),
        (
            "501 characters: not truncated",
            "reject",
            &["schema /motivo too_long"],
        ),
        (
            "missing prioridade",
            "reject",
            &["schema /prioridade missing_key"],
        ),
        ("extra key", "reject", &["schema /idioma unknown_key"]),
        (
            "unknown priority",
            "reject",
            &["schema /prioridade not_one_of"],
        ),
        ("null motivo", "reject", &["schema /motivo invalid_type"]),
        ("prose around the JSON", "reject", &["parse (root) syntax"]),
        ("markdown fence", "reject", &["parse (root) syntax"]),
        ("truncated", "reject", &["parse (root) unexpected_end"]),
        ("NaN", "reject", &["parse (root) syntax"]),
        (
            "root is a string",
            "reject",
            &["schema (root) invalid_type"],
        ),
        (
            "every field wrong",
            "reject",
            &[
                "schema /categoria not_one_of",
                "schema /prioridade not_one_of",
                "schema /confianca invalid_type",
                "schema /motivo invalid_type",
            ],
        ),
        ("valid", "accept", &[]),
    ];
    assert_cases("triage", &decisions("triage", &Setup::default()), cases);
}

#[test]
fn ticket_extraction_decisions_follow_seed_003() {
    let setup = Setup {
        source: Some(read("ticket-extraction.source.txt")),
        context: Some(r#"{"confirmed_clusters":["eu-west-1"]}"#.into()),
        ..Setup::default()
    };
    let cases: &[Case] = &[
        (
            "the article's extraction",
            "review",
            &[
                "review /deadline_iso invalid_date",
                "review /affected_cluster cluster_not_confirmed",
            ],
        ),
        (
            "what the prompt asked for: no deadline",
            "review",
            &["review /deadline_iso deadline_missing"],
        ),
        ("clean extraction", "accept", &[]),
        ("confirmed cluster", "accept", &[]),
        (
            "paraphrased quote",
            "review",
            &["review /raw_quote evidence_not_found"],
        ),
        (
            "quote with another case",
            "review",
            &["review /raw_quote evidence_not_found"],
        ),
        (
            "a deadline with a condition",
            "review",
            &["review /deadline_iso deadline_conditional"],
        ),
        (
            "an empty deadline_context is a context",
            "review",
            &["review /deadline_iso deadline_conditional"],
        ),
        (
            "2026-02-30",
            "review",
            &["review /deadline_iso invalid_date"],
        ),
        ("2026-6-1", "review", &["review /deadline_iso invalid_date"]),
        // Quarantine drops a value that fails its checks; a wrong type is
        // structural and rejects.
        (
            "a number as a date (quarantined, still a wrong type)",
            "reject",
            &["schema /deadline_iso invalid_type"],
        ),
        (
            "null deadline",
            "review",
            &["review /deadline_iso deadline_missing"],
        ),
        (
            "unconfirmed cluster",
            "review",
            &["review /affected_cluster cluster_not_confirmed"],
        ),
        (
            "an empty cluster is not confirmed",
            "review",
            &["review /affected_cluster cluster_not_confirmed"],
        ),
        ("no quote", "accept", &[]),
        (
            "three reasons at once",
            "review",
            &[
                "review /deadline_iso invalid_date",
                "review /raw_quote evidence_not_found",
                "review /affected_cluster cluster_not_confirmed",
            ],
        ),
        ("missing key", "reject", &["schema /raw_quote missing_key"]),
        (
            "empty summary",
            "reject",
            &["schema /issue_summary too_short"],
        ),
        (
            "summary is a number",
            "reject",
            &["schema /issue_summary invalid_type"],
        ),
        (
            "cluster is an array",
            "reject",
            &["schema /affected_cluster invalid_type"],
        ),
        ("extra key", "reject", &["schema /confidence unknown_key"]),
        (
            "an empty quote is no evidence",
            "review",
            &["review /raw_quote evidence_not_found"],
        ),
        (
            "a whitespace-only quote is no evidence",
            "review",
            &["review /raw_quote evidence_not_found"],
        ),
        (
            "quote is an array (quarantined, still a wrong type)",
            "reject",
            &["schema /raw_quote invalid_type"],
        ),
        ("prose", "reject", &["parse (root) syntax"]),
    ];
    assert_cases(
        "ticket-extraction",
        &decisions("ticket-extraction", &setup),
        cases,
    );
}

#[test]
fn vacation_decisions_follow_seed_004() {
    let cases: &[Case] = &[
        ("complete", "accept", &[]),
        ("needs_clarification", "clarify", &[]),
        ("not_a_request", "decline", &[]),
        ("2027-02-30", "reject", &["schema /start_date invalid_date"]),
        ("2027-6-1", "reject", &["schema /start_date invalid_date"]),
        ("end before start", "reject", &["rule /end_date order"]),
        ("one-day leave", "accept", &[]),
        ("2028-02-29 (leap year)", "accept", &[]),
        (
            "2027-02-29 (not a leap year)",
            "reject",
            &["schema /end_date invalid_date"],
        ),
        (
            "complete without end date",
            "reject",
            &["rule /end_date required"],
        ),
        (
            "complete with a question",
            "reject",
            &["rule /clarification_question forbidden"],
        ),
        (
            "needs_clarification without a question",
            "reject",
            &["rule /clarification_question required"],
        ),
        (
            "order is checked for every status",
            "reject",
            &["rule /end_date order"],
        ),
        ("needs_clarification with one date", "clarify", &[]),
        (
            "not_a_request with dates",
            "reject",
            &["rule /start_date forbidden", "rule /end_date forbidden"],
        ),
        ("not_a_request with a question", "decline", &[]),
        ("unknown status", "reject", &["schema /status not_one_of"]),
        (
            "\"Complete\" is not lower-cased",
            "reject",
            &["schema /status not_one_of"],
        ),
        (
            "missing key",
            "reject",
            &["schema /clarification_question missing_key"],
        ),
        ("extra key", "reject", &["schema /days unknown_key"]),
        (
            "empty question",
            "reject",
            &["schema /clarification_question too_short"],
        ),
        (
            "question of 501 characters",
            "reject",
            &["schema /clarification_question too_long"],
        ),
        (
            "a number as a date",
            "reject",
            &["schema /start_date invalid_type"],
        ),
        (
            "a date-time is not a date",
            "reject",
            &["schema /start_date invalid_date"],
        ),
        (
            "schema errors stop the rules",
            "reject",
            &["schema /start_date invalid_date"],
        ),
        ("trailing comma", "reject", &["parse (root) syntax"]),
        ("duplicate key", "reject", &["parse /status duplicate_key"]),
        (
            "root is an array",
            "reject",
            &["schema (root) invalid_type"],
        ),
        ("prose", "reject", &["parse (root) syntax"]),
        ("blank line", "reject", &["parse (root) unexpected_end"]),
    ];
    assert_cases("vacation", &decisions("vacation", &Setup::default()), cases);
}

#[test]
fn a_conditional_deadline_is_dropped_to_null() {
    use contract_examples::ticket_extraction::{EmailContext, check_extraction};
    let ctx = EmailContext {
        source: read("ticket-extraction.source.txt"),
        confirmed_clusters: vec![],
    };
    let line = read("ticket-extraction.jsonl")
        .lines()
        .nth(6)
        .unwrap()
        .to_owned();
    let outcome = check_extraction(&line, &ctx);
    assert_eq!(outcome.kind().as_str(), "review");
    assert_eq!(outcome.value().unwrap().deadline_iso, None);
    assert!(outcome.value().unwrap().deadline_context.is_some());
}

#[test]
fn a_quote_not_in_the_source_is_dropped_to_null() {
    use contract_examples::ticket_extraction::{EmailContext, check_extraction};
    let ctx = EmailContext {
        source: read("ticket-extraction.source.txt"),
        confirmed_clusters: vec![],
    };
    let line = read("ticket-extraction.jsonl")
        .lines()
        .nth(4)
        .unwrap()
        .to_owned();
    let outcome = check_extraction(&line, &ctx);
    assert_eq!(outcome.value().unwrap().raw_quote, None);
}
