//! The `contract-check` binary as a process: bad input is one line on stderr
//! and exit code 2, never a panic; good input exits 0 (1 with
//! `--fail-on-reject` when a line was rejected).

// A test may unwrap: a panic here is a failure, as in `contract-tests`.
#![allow(clippy::unwrap_used)]
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
        .display()
        .to_string()
}

fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_contract-check"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn run(args: &[&str]) -> Output {
    run_with_stdin(args, b"")
}

/// Exit code 2, exactly one line on stderr, no panic; returns that line.
fn usage_error(args: &[&str]) -> String {
    let out = run(args);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: one line: {stderr}");
    assert!(stderr.ends_with('\n'));
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    stderr
}

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
    let e = usage_error(&["vacation", "/nonexistent/vacation.jsonl"]);
    assert!(e.contains("cannot read /nonexistent/vacation.jsonl"), "{e}");
}

#[test]
fn a_directory_is_not_a_readable_file() {
    let e = usage_error(&["vacation", env!("CARGO_MANIFEST_DIR")]);
    assert!(e.contains("directory"), "{e}");
}

#[test]
fn missing_source_file() {
    let e = usage_error(&[
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
    let e = usage_error(&[
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

#[test]
fn every_line_processed_exits_0_with_a_summary_on_stderr() {
    let out = run(&["vacation", &data("vacation.jsonl")]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 30);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("vacation: 30 read"), "{stderr}");
    assert!(stderr.contains("schema-valid"), "{stderr}");
}

#[test]
fn fail_on_reject_exits_1_when_a_line_was_rejected() {
    let out = run(&["vacation", &data("vacation.jsonl"), "--fail-on-reject"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn fail_on_reject_exits_0_when_nothing_was_rejected() {
    let ok = br#"{"status":"not_a_request","start_date":null,"end_date":null,"clarification_question":null}"#;
    let out = run_with_stdin(&["vacation", "-", "--fail-on-reject"], ok);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "{\"line\":1,\"outcome\":\"decline\",\"errors\":[]}\n"
    );
}

#[test]
fn invalid_utf8_is_a_rejected_line_not_a_crash() {
    let input = b"{\"status\":\"compl\xffete\"}\n\xc3\x28\n{\"status\":\"complete\",\"start_date\":\"2027-06-12\",\"end_date\":\"2027-06-14\",\"clarification_question\":null}\r\n";
    let out = run_with_stdin(&["vacation"], input);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for line in &lines[..2] {
        assert_eq!(line["outcome"], "reject");
        assert_eq!(line["errors"][0]["stage"], "parse");
        assert_eq!(line["errors"][0]["code"], "invalid_utf8");
    }
    assert_eq!(lines[2]["outcome"], "accept", "a CRLF line ending is fine");
}

#[test]
fn an_oversized_line_is_rejected_without_stopping() {
    let mut input = vec![b'{'; 10_000];
    input.push(b'\n');
    input.extend_from_slice(br#"{"action":"close_ticket","ticket_id":7,"reason":"ok"}"#);
    let out = run_with_stdin(
        &["close-ticket", "--context", r#"{"tenant":"demo-a"}"#],
        &input,
    );
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["errors"][0]["code"], "too_large");
    assert_eq!(
        lines[0]["errors"][0]["message"],
        "the input is 10000 bytes; the limit is 4096"
    );
    assert_eq!(lines[1]["outcome"], "accept");
}

#[test]
fn table_format_is_for_people() {
    let out = run(&["vacation", &data("vacation.jsonl"), "--format", "table"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("LINE"), "{stdout}");
    assert!(stdout.contains("/end_date"), "{stdout}");
}

#[test]
fn list_and_schema() {
    let out = run(&["--list"]);
    assert_eq!(out.status.code(), Some(0));
    let list = String::from_utf8(out.stdout).unwrap();
    assert!(list.contains("ticket-extraction"), "{list}");

    let out = run(&["--schema", "close-ticket"]);
    assert_eq!(out.status.code(), Some(0));
    let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(schema["properties"]["action"]["const"], "close_ticket");
}

#[test]
fn help_exits_0() {
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout).unwrap().starts_with("usage:"));
}
