//! Usage errors: unknown or missing contracts, files, contexts, baselines, policies and options.

use super::*;

#[test]
fn unknown_contract_lists_the_known_ones() {
    let e = usage_error(&["nope", "x.jsonl"]);
    assert!(e.contains("unknown contract `nope`"), "{e}");
    for name in [
        "close-ticket",
        "settings",
        "triage",
        "ticket-extraction",
        "vacation",
    ] {
        assert!(e.contains(name), "{e}");
    }
}

#[test]
fn unknown_contract_for_schema() {
    let e = usage_error(&["--schema", "nope"]);
    assert!(e.contains("unknown contract"), "{e}");
}

#[test]
fn missing_contract() {
    let e = usage_error(&[]);
    assert!(e.contains("missing CONTRACT"), "{e}");
}

#[test]
fn missing_file() {
    let e = io_error(&["vacation", "/nonexistent/vacation.jsonl"]);
    assert!(e.contains("cannot read /nonexistent/vacation.jsonl"), "{e}");
}

#[test]
fn a_directory_is_not_a_readable_file() {
    let e = io_error(&["vacation", env!("CARGO_MANIFEST_DIR")]);
    assert!(e.contains("directory"), "{e}");
}

#[test]
fn missing_source_file() {
    let e = io_error(&[
        "ticket-extraction",
        &data("ticket-extraction.jsonl"),
        "--source",
        "/nonexistent/email.txt",
        "--context",
        r#"{"confirmed_clusters":[]}"#,
    ]);
    assert!(e.contains("--source"), "{e}");
}

#[test]
fn context_that_is_not_json() {
    let e = usage_error(&[
        "close-ticket",
        &data("close-ticket.jsonl"),
        "--context",
        "{tenant: demo-a}",
    ]);
    assert!(e.contains("--context") && e.contains("(syntax)"), "{e}");
}

#[test]
fn context_lacking_a_field() {
    let e = usage_error(&[
        "close-ticket",
        &data("close-ticket.jsonl"),
        "--context",
        r#"{"tenent":"demo-a"}"#,
    ]);
    assert!(e.contains("/tenant") && e.contains("missing_key"), "{e}");
}

#[test]
fn context_with_a_field_of_the_wrong_type() {
    let e = usage_error(&[
        "ticket-extraction",
        &data("ticket-extraction.jsonl"),
        "--source",
        &data("ticket-extraction.source.txt"),
        "--context",
        r#"{"confirmed_clusters":"eu-west-1"}"#,
    ]);
    assert!(
        e.contains("/confirmed_clusters") && e.contains("invalid_type"),
        "{e}"
    );
}

#[test]
fn context_missing_for_a_contract_that_needs_it() {
    let e = usage_error(&["close-ticket", &data("close-ticket.jsonl")]);
    assert!(e.contains("needs --context"), "{e}");
}

#[test]
fn context_for_a_contract_without_one() {
    let e = usage_error(&["vacation", &data("vacation.jsonl"), "--context", "{}"]);
    assert!(e.contains("takes no --context"), "{e}");
}

#[test]
fn source_missing_for_evidence() {
    let e = usage_error(&[
        "ticket-extraction",
        &data("ticket-extraction.jsonl"),
        "--context",
        r#"{"confirmed_clusters":[]}"#,
    ]);
    assert!(e.contains("needs --source"), "{e}");
}

#[test]
fn edit_without_baseline() {
    let e = usage_error(&[
        "settings",
        &data("settings.jsonl"),
        "--edit",
        "disable_email",
    ]);
    assert!(e.contains("--edit needs --baseline"), "{e}");
}

#[test]
fn baseline_without_edit() {
    let e = usage_error(&[
        "settings",
        &data("settings.jsonl"),
        "--baseline",
        &data("settings.baseline.json"),
    ]);
    assert!(e.contains("--baseline needs --edit"), "{e}");
}

#[test]
fn baseline_not_valid_for_the_contract() {
    // The vacation examples are not settings documents.
    let e = usage_error(&[
        "settings",
        &data("settings.jsonl"),
        "--baseline",
        &data("settings.jsonl"),
        "--edit",
        "disable_email",
    ]);
    assert!(e.contains("--baseline is not a valid document"), "{e}");
}

#[test]
fn baseline_with_a_schema_error() {
    let dir = std::env::temp_dir().join(format!("contract-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("baseline.json");
    std::fs::write(
        &path,
        r#"{"notifications":{"email":1},"retry_limit":3,"channels":[]}"#,
    )
    .unwrap();
    let e = usage_error(&[
        "settings",
        &data("settings.jsonl"),
        "--baseline",
        path.to_str().unwrap(),
        "--edit",
        "disable_email",
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        e.contains("/notifications/email") && e.contains("invalid_type"),
        "{e}"
    );
}

#[test]
fn missing_baseline_file() {
    let e = io_error(&[
        "settings",
        &data("settings.jsonl"),
        "--baseline",
        "/nonexistent/baseline.json",
        "--edit",
        "disable_email",
    ]);
    assert!(e.contains("cannot read --baseline"), "{e}");
}

#[test]
fn unknown_policy() {
    let e = usage_error(&[
        "settings",
        &data("settings.jsonl"),
        "--baseline",
        &data("settings.baseline.json"),
        "--edit",
        "enable_everything",
    ]);
    assert!(e.contains("unknown edit policy `enable_everything`"), "{e}");
    assert!(e.contains("disable_email"), "lists the known policies: {e}");
}

#[test]
fn edit_on_a_contract_without_policies() {
    let e = usage_error(&[
        "vacation",
        &data("vacation.jsonl"),
        "--baseline",
        &data("settings.baseline.json"),
        "--edit",
        "x",
    ]);
    assert!(e.contains("no edit policy"), "{e}");
}

#[test]
fn unknown_option() {
    let e = usage_error(&["vacation", "--verbose"]);
    assert!(e.contains("unknown option `--verbose`"), "{e}");
}

#[test]
fn unknown_format() {
    let e = usage_error(&["vacation", &data("vacation.jsonl"), "--format", "csv"]);
    assert!(e.contains("--format"), "{e}");
}

#[test]
fn option_without_its_value() {
    let e = usage_error(&["close-ticket", &data("close-ticket.jsonl"), "--context"]);
    assert!(e.contains("--context needs a value"), "{e}");
}

#[test]
fn two_files() {
    let e = usage_error(&["vacation", "a.jsonl", "b.jsonl"]);
    assert!(e.contains("unexpected argument"), "{e}");
}
