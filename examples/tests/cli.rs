//! The `contract-check` binary as a process: bad input (a file over its
//! size limit among it) is one line on stderr and exit code 2, never a
//! panic; an I/O error is one line and exit code 3; good input exits 0 (1 with `--fail-on-reject` when a line was
//! rejected, or `--fail-on-breaking` when a change breaks), and so does a
//! run whose stdout was closed early. Also `--schema --provider` and
//! `--compat`.

// A test may unwrap: a panic here is a failure, as in `contract-tests`.
#![allow(clippy::unwrap_used)]
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use contract_examples::{cli, registry, vacation};
use contract_runtime::Contract;
use contract_runtime::cli as runtime_cli;
use contract_runtime::compat;
use contract_runtime::schema::{Provider, export_schema};
use serde_json::Value;

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
    failure(args, 2)
}

/// Exit code 3 (a file that cannot be read), one line on stderr.
fn io_error(args: &[&str]) -> String {
    failure(args, 3)
}

fn failure(args: &[&str], code: i32) -> String {
    let out = run(args);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
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

// ------------------------------------------------------------ size limits of the files read

/// `text` followed by spaces up to exactly `len` bytes.
fn padded(text: &str, len: usize) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    assert!(bytes.len() <= len);
    bytes.resize(len, b' ');
    bytes
}

fn edit_args(baseline: &str) -> Vec<String> {
    [
        "settings",
        &data("settings.jsonl"),
        "--baseline",
        baseline,
        "--edit",
        "disable_email",
    ]
    .map(String::from)
    .to_vec()
}

fn extraction_args(source: &str, context: &str) -> Vec<String> {
    [
        "ticket-extraction",
        &data("ticket-extraction.jsonl"),
        "--source",
        source,
        "--context",
        context,
    ]
    .map(String::from)
    .to_vec()
}

fn as_strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn a_baseline_is_read_up_to_the_contracts_max_bytes() {
    let max = registry::find("settings").unwrap().limits().max_bytes;
    let baseline = std::fs::read_to_string(data("settings.baseline.json")).unwrap();

    let at_limit = TempFile::named("baseline-at-limit", "b.json", &padded(baseline.trim(), max));
    let out = run(&as_strs(&edit_args(at_limit.path())));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let over = TempFile::named("baseline-over", "b.json", &padded(baseline.trim(), max + 1));
    let e = usage_error(&as_strs(&edit_args(over.path())));
    // Refused for its size before the contract reads it.
    assert!(e.contains("--baseline") && e.contains("larger than"), "{e}");
    assert!(e.contains(&max.to_string()), "{e}");
}

#[cfg(unix)]
#[test]
fn an_endless_baseline_stops_at_the_contracts_max_bytes() {
    let e = usage_error(&as_strs(&edit_args("/dev/zero")));
    assert!(e.contains("--baseline /dev/zero"), "{e}");
}

const CLUSTERS: &str = r#"{"confirmed_clusters":["eu-west-1"]}"#;

#[test]
fn a_source_is_read_up_to_4_mib() {
    assert_eq!(runtime_cli::MAX_SOURCE_BYTES, 4 << 20);
    let source = std::fs::read_to_string(data("ticket-extraction.source.txt")).unwrap();

    let at_limit = TempFile::named(
        "source-at-limit",
        "s.txt",
        &padded(&source, runtime_cli::MAX_SOURCE_BYTES),
    );
    let out = run(&as_strs(&extraction_args(at_limit.path(), CLUSTERS)));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let over = TempFile::named(
        "source-over",
        "s.txt",
        &padded(&source, runtime_cli::MAX_SOURCE_BYTES + 1),
    );
    let e = usage_error(&as_strs(&extraction_args(over.path(), CLUSTERS)));
    assert!(
        e.contains("--source") && e.contains(&runtime_cli::MAX_SOURCE_BYTES.to_string()),
        "{e}"
    );
}

#[cfg(unix)]
#[test]
fn an_endless_source_stops_at_4_mib() {
    let e = usage_error(&as_strs(&extraction_args("/dev/zero", CLUSTERS)));
    assert!(e.contains("--source /dev/zero"), "{e}");
}

#[test]
fn a_context_is_at_most_64_kib() {
    assert_eq!(runtime_cli::MAX_CONTEXT_BYTES, 64 << 10);
    let source = data("ticket-extraction.source.txt");

    let at_limit = String::from_utf8(padded(CLUSTERS, runtime_cli::MAX_CONTEXT_BYTES)).unwrap();
    let out = run(&as_strs(&extraction_args(&source, &at_limit)));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let over = String::from_utf8(padded(CLUSTERS, runtime_cli::MAX_CONTEXT_BYTES + 1)).unwrap();
    let e = usage_error(&as_strs(&extraction_args(&source, &over)));
    assert!(
        e.contains("--context") && e.contains(&runtime_cli::MAX_CONTEXT_BYTES.to_string()),
        "{e}"
    );
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
fn an_edit_line_over_max_bytes_is_rejected_as_the_plain_check_rejects_it() {
    let max = registry::find("settings").unwrap().limits().max_bytes;
    let approved =
        r#"{"notifications":{"email":false},"retry_limit":3,"channels":["email","sms"]}"#;
    let mut input = padded(approved, max + 1);
    input.push(b'\n');
    input.extend(padded(approved, max));
    let baseline = data("settings.baseline.json");
    let edit_args = [
        "settings",
        "-",
        "--baseline",
        &baseline,
        "--edit",
        "disable_email",
    ];
    let decisions = |args: &[&str]| -> Vec<Value> {
        let out = run_with_stdin(args, &input);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let edit = decisions(&edit_args);
    let plain = decisions(&["settings", "-"]);

    assert_eq!(edit[0]["outcome"], "reject");
    assert_eq!(edit[0]["errors"][0]["stage"], "parse");
    assert_eq!(edit[0]["errors"][0]["code"], "too_large");
    assert_eq!(edit[0]["errors"][0]["pointer"], "");
    assert_eq!(edit[0]["errors"], plain[0]["errors"]);
    assert_eq!(edit[0]["changed"], serde_json::json!([]));
    // One byte less is checked in full.
    assert_eq!(edit[1]["outcome"], "accept");
    assert_eq!(
        edit[1]["changed"],
        serde_json::json!(["/notifications/email"])
    );
}

#[test]
fn table_format_is_for_people() {
    let out = run(&["vacation", &data("vacation.jsonl"), "--format", "table"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("LINE"), "{stdout}");
    assert!(stdout.contains("/end_date"), "{stdout}");
}

// ------------------------------------------------------------ a closed stdout

/// 20,000 vacation lines (the shipped 30, repeated) in a temporary file:
/// megabytes of output, far more than a pipe holds.
fn many_lines(test: &str) -> TempFile {
    let shipped = std::fs::read_to_string(data("vacation.jsonl")).unwrap();
    let mut contents = String::new();
    for line in shipped.lines().cycle().take(20_000) {
        contents.push_str(line);
        contents.push('\n');
    }
    TempFile::named(test, "many.jsonl", contents.as_bytes())
}

/// Runs the binary with stdout a pipe, reads one line, closes the pipe,
/// and waits: the reader went away as `| head -1` does.
fn run_and_close_stdout_after_one_line(args: &[&str]) -> (String, Output) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_contract-check"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    stdout.read_line(&mut first).unwrap();
    drop(stdout);
    (first, child.wait_with_output().unwrap())
}

#[test]
fn a_closed_stdout_ends_jsonl_output_quietly_with_exit_0() {
    let input = many_lines("closed-jsonl");
    let (first, out) = run_and_close_stdout_after_one_line(&["vacation", input.path()]);
    let first: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(first["line"], 1);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "", "nothing on stderr");
}

#[test]
fn a_closed_stdout_ends_table_output_quietly_with_exit_0() {
    let input = many_lines("closed-table");
    let (first, out) =
        run_and_close_stdout_after_one_line(&["vacation", input.path(), "--format", "table"]);
    assert!(first.starts_with("LINE"), "{first}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "", "nothing on stderr");
}

/// A writer whose reader has gone away.
struct ClosedPipe;

impl Write for ClosedPipe {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::ErrorKind::BrokenPipe.into())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Err(std::io::ErrorKind::BrokenPipe.into())
    }
}

#[test]
fn a_closed_pipe_keeps_its_error_kind_in_every_format() {
    let checker = registry::find("vacation")
        .unwrap()
        .checker(&runtime_cli::Setup::default())
        .unwrap();
    for format in [
        runtime_cli::OutputFormat::Jsonl,
        runtime_cli::OutputFormat::Table,
    ] {
        let mut input: &[u8] = b"{}\n";
        let mut report = contract_runtime::report::Report::new();
        let e = runtime_cli::run_lines(&checker, &mut input, &mut ClosedPipe, format, &mut report)
            .unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{format:?}");
    }
    let old: Value = serde_json::from_str(&std::fs::read_to_string(data(V1)).unwrap()).unwrap();
    let new: Value = serde_json::from_str(&std::fs::read_to_string(data(V2)).unwrap()).unwrap();
    let changes = compat::diff(&old, &new);
    assert!(!changes.is_empty());
    for format in [
        runtime_cli::OutputFormat::Jsonl,
        runtime_cli::OutputFormat::Table,
    ] {
        let e = runtime_cli::write_changes(&changes, format, &mut ClosedPipe).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{format:?}");
    }
}

#[test]
fn a_closed_stdout_is_exit_0_in_every_mode() {
    let many = many_lines("closed-every-mode");
    let input = many.path();
    let v1 = data(V1);
    let v2 = data(V2);
    let commands: [&[&str]; 8] = [
        &["vacation", input],
        &["vacation", input, "--format", "table"],
        &["--compat", &v1, &v2],
        &["--compat", &v1, &v2, "--format", "jsonl"],
        &["--schema", "vacation"],
        &["--schema", "vacation", "--provider", "openai"],
        &["--list"],
        &["--help"],
    ];
    for args in commands {
        let mut stderr = Vec::new();
        let code = cli::main_with(args.iter().copied(), &mut ClosedPipe, &mut stderr);
        assert_eq!(code, 0, "{args:?}");
        assert!(
            stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&stderr)
        );
    }
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
fn version_prints_the_name_and_version() {
    let out = run(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("contract-check {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn options_take_their_value_after_an_equals_sign() {
    let file = data("vacation.jsonl");
    let spaced = run(&["vacation", &file, "--format", "table"]);
    let joined = run(&["vacation", &file, "--format=table"]);
    assert_eq!(joined.status.code(), Some(0));
    assert_eq!(joined.stdout, spaced.stdout);
    assert!(
        String::from_utf8(joined.stdout)
            .unwrap()
            .starts_with("LINE   OUTCOME")
    );
}

#[test]
fn a_read_error_on_the_input_is_exit_code_3() {
    // Reading /proc/self/mem from offset 0 fails with EIO on Linux.
    if !std::path::Path::new("/proc/self/mem").exists() {
        return;
    }
    let out = run(&["vacation", "/proc/self/mem"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.starts_with("contract-check: while checking /proc/self/mem"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
}

#[test]
fn help_exits_0() {
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("Usage: contract-check CONTRACT")
    );
}

// ------------------------------------------------------------ --schema --provider

fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8(bytes.to_vec())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn schema_for_a_provider_prints_the_export_and_what_stays_local() {
    let out = run(&["--schema", "vacation", "--provider", "openai"]);
    assert_eq!(out.status.code(), Some(0));
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let full = registry::find("vacation").unwrap().schema();
    let export = export_schema(&full, Provider::OpenAi).unwrap();
    assert_eq!(printed, export.schema);
    assert!(
        printed.get("allOf").is_none(),
        "OpenAI strict takes no allOf"
    );
    assert_eq!(
        lines(&out.stderr),
        [
            "dropped /properties/clarification_question/minLength (minLength): still checked locally by from_json, schema stage: `too_short`",
            "dropped /properties/clarification_question/maxLength (maxLength): still checked locally by from_json, schema stage: `too_long`",
            "dropped /allOf (allOf): still checked locally by from_json, rule stage: the `when` rules (`required` / `forbidden`)",
            "dropped /x-contract-rules (x-contract-rules): still checked locally by from_json, rule stage: `order`",
        ]
    );
}

#[test]
fn schema_for_gemini_says_which_when_rules_are_enforced_during_generation() {
    let out = run(&["--schema", "vacation", "--provider", "gemini"]);
    assert_eq!(out.status.code(), Some(0));
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed["anyOf"].as_array().map(Vec::len), Some(3));
    assert!(lines(&out.stderr).contains(&"lowered /allOf: the `when` rules are enforced during generation (anyOf of one closed object per condition)".to_owned()));
}

#[test]
fn request_prints_the_fragment_each_provider_takes() {
    let full = registry::find("vacation").unwrap().schema();
    for provider in [
        Provider::OpenAi,
        Provider::Gemini,
        Provider::Anthropic,
        Provider::Local,
    ] {
        let out = run(&[
            "--schema",
            "vacation",
            "--provider",
            provider.as_str(),
            "--request",
        ]);
        assert_eq!(out.status.code(), Some(0), "{provider}");
        let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
        let export = export_schema(&full, provider).unwrap();
        let schema = match provider {
            Provider::OpenAi | Provider::Local => {
                assert_eq!(printed["type"], "json_schema");
                assert_eq!(printed["json_schema"]["name"], "VacationRequest");
                assert_eq!(printed["json_schema"]["strict"], true);
                &printed["json_schema"]["schema"]
            }
            Provider::Gemini => {
                assert_eq!(printed["responseMimeType"], "application/json");
                &printed["responseJsonSchema"]
            }
            _ => {
                assert_eq!(printed["type"], "json_schema");
                &printed["schema"]
            }
        };
        assert_eq!(*schema, export.schema, "{provider}");
    }
}

#[test]
fn request_needs_a_provider() {
    assert!(
        usage_error(&["--schema", "vacation", "--request"]).contains("--request needs --provider")
    );
    assert!(usage_error(&["vacation", "--request"]).contains("--request needs --schema"));
}

#[test]
fn a_root_union_for_openai_is_refused_with_what_to_do() {
    let out = run(&["--schema", "step", "--provider", "openai"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(lines(&out.stderr)[0].contains("wrap the union in a struct field"));
}

#[test]
fn schema_for_every_contract_and_provider() {
    for entry in registry::contracts() {
        for provider in Provider::ALL {
            let args = ["--schema", entry.name(), "--provider", provider.as_str()];
            let out = run(&args);
            let export = match export_schema(&entry.schema(), provider) {
                Ok(export) => export,
                Err(error) => {
                    // A schema the provider cannot take (a root union for
                    // OpenAI): a usage error naming what to do instead.
                    assert_eq!(out.status.code(), Some(2), "{args:?}");
                    assert!(out.stdout.is_empty(), "{args:?}");
                    assert_eq!(lines(&out.stderr), [format!("contract-check: {error}")]);
                    continue;
                }
            };
            assert_eq!(out.status.code(), Some(0), "{args:?}");
            let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(printed, export.schema, "{args:?}");
            // Pretty-printed, ending with a newline.
            assert!(out.stdout.ends_with(b"}\n"), "{args:?}");
            let stderr = lines(&out.stderr);
            assert_eq!(
                stderr.len(),
                export.dropped.len() + export.made_required.len() + export.lowered.len(),
                "{args:?}: one line each: {stderr:?}"
            );
            for (line, dropped) in stderr.iter().zip(&export.dropped) {
                assert!(line.starts_with("dropped "), "{line}");
                assert!(line.contains(&dropped.pointer), "{line}");
                assert!(line.contains(&format!("({})", dropped.keyword)), "{line}");
                assert!(line.ends_with(&dropped.enforced_by), "{line}");
            }
        }
    }
}

#[test]
fn an_annotation_beside_a_ref_is_dropped_with_nothing_to_enforce() {
    let out = run(&["--schema", "settings", "--provider", "gemini"]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = lines(&out.stderr);
    assert_eq!(stderr.len(), 1, "{stderr:?}");
    assert!(
        stderr[0].starts_with(
            "dropped /properties/notifications/description (description): nothing to enforce"
        ),
        "{stderr:?}"
    );
}

#[test]
fn provider_names_are_case_insensitive() {
    let out = run(&["--schema", "triage", "--provider", "Anthropic"]);
    assert_eq!(out.status.code(), Some(0));
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(printed["properties"]["confianca"].get("minimum").is_none());
}

#[test]
fn made_required_properties_are_listed() {
    // The v2 vacation contract has an `optional` key; OpenAI strict needs
    // every key present.
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = runtime_cli::schema_for(
        &vacation::v2::VacationRequest::json_schema(),
        Provider::OpenAi,
        &mut stdout,
        &mut stderr,
    );
    assert_eq!(code, 0);
    let printed: Value = serde_json::from_slice(&stdout).unwrap();
    assert!(
        printed["required"]
            .as_array()
            .unwrap()
            .contains(&"half_day".into())
    );
    let stderr = lines(&stderr);
    assert_eq!(
        stderr.last().unwrap(),
        "made required /properties/half_day: the contract lets this key be absent; the provider needs it present"
    );
}

/// A contract with a map: OpenAI strict and Anthropic cannot take it.
#[derive(Contract, Debug)]
struct Labels {
    labels: BTreeMap<String, String>,
}

#[test]
fn an_export_error_is_one_line_and_exit_code_2() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let code =
            runtime_cli::schema_for(&Labels::json_schema(), provider, &mut stdout, &mut stderr);
        assert_eq!(code, 2, "{provider}");
        assert!(stdout.is_empty(), "{provider}: nothing on stdout");
        let stderr = lines(&stderr);
        assert_eq!(stderr.len(), 1, "{provider}: {stderr:?}");
        assert!(
            stderr[0].starts_with(&format!("contract-check: {provider} cannot take")),
            "{stderr:?}"
        );
        assert!(stderr[0].contains("/properties/labels"), "{stderr:?}");
    }
    // Gemini takes a map.
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = runtime_cli::schema_for(
        &Labels::json_schema(),
        Provider::Gemini,
        &mut stdout,
        &mut stderr,
    );
    assert_eq!(code, 0);
}

#[test]
fn unknown_provider() {
    let e = usage_error(&["--schema", "vacation", "--provider", "bard"]);
    assert!(e.contains("unknown provider `bard`"), "{e}");
    assert!(e.contains("openai, gemini, anthropic"), "{e}");
}

#[test]
fn provider_without_schema() {
    let e = usage_error(&["vacation", &data("vacation.jsonl"), "--provider", "openai"]);
    assert!(e.contains("--provider needs --schema"), "{e}");
}

#[test]
fn provider_without_its_value() {
    let e = usage_error(&["--schema", "vacation", "--provider"]);
    assert!(e.contains("--provider needs a value"), "{e}");
}

#[test]
fn provider_given_twice() {
    let e = usage_error(&[
        "--schema",
        "vacation",
        "--provider",
        "openai",
        "--provider",
        "gemini",
    ]);
    assert!(e.contains("--provider given twice"), "{e}");
}

#[test]
fn schema_takes_no_check_options() {
    let e = usage_error(&["--schema", "vacation", "--format", "jsonl"]);
    assert!(e.contains("--format does not apply to --schema"), "{e}");
    let e = usage_error(&["--schema", "vacation", "--fail-on-reject"]);
    assert!(e.contains("--fail-on-reject does not apply"), "{e}");
}

#[test]
fn list_takes_no_other_option() {
    let e = usage_error(&["--list", "--provider", "openai"]);
    assert!(e.contains("--provider does not apply to --list"), "{e}");
    let e = usage_error(&["--list", "--schema", "vacation"]);
    assert!(e.contains("cannot be combined"), "{e}");
}

// ------------------------------------------------------------ --compat

const V1: &str = "vacation.v1.schema.json";
const V2: &str = "vacation.v2.schema.json";

/// A file in a directory of its own, removed when dropped.
struct TempFile {
    dir: PathBuf,
    path: PathBuf,
}

impl TempFile {
    fn new(test: &str, contents: &[u8]) -> Self {
        TempFile::named(test, "schema.json", contents)
    }

    fn named(test: &str, name: &str, contents: &[u8]) -> Self {
        let dir =
            std::env::temp_dir().join(format!("contract-check-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        TempFile { dir, path }
    }

    fn path(&self) -> &str {
        self.path.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn compat_lists_the_changes_between_the_shipped_versions() {
    let out = run(&["--compat", &data(V1), &data(V2)]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout,
        "\
breaking    backward  bound_tightened      /properties/clarification_question/maxLength  maxLength 500 → 300
breaking    forward   field_added          /properties/half_day                          `half_day` added
"
    );
    assert_eq!(
        lines(&out.stderr),
        [
            "VacationRequest (unversioned) → VacationRequest v2: 2 changes, 1 breaks backward (a new reader may reject old documents), 1 breaks forward (an old reader may reject new documents)"
        ]
    );
}

#[test]
fn compat_jsonl_is_one_object_per_change() {
    let out = run(&["--compat", &data(V1), &data(V2), "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(0));
    let printed: Vec<Value> = lines(&out.stdout)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let old: Value = serde_json::from_str(&std::fs::read_to_string(data(V1)).unwrap()).unwrap();
    let new: Value = serde_json::from_str(&std::fs::read_to_string(data(V2)).unwrap()).unwrap();
    let changes = compat::diff(&old, &new);
    assert_eq!(printed.len(), changes.len());
    for (line, change) in printed.iter().zip(&changes) {
        let keys: Vec<&str> = line
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "pointer",
                "kind",
                "detail",
                "breaking",
                "breaks_backward",
                "breaks_forward"
            ]
        );
        assert_eq!(line["pointer"], change.pointer.as_str());
        assert_eq!(line["kind"], change.kind.as_str());
        assert_eq!(line["detail"], change.detail.as_str());
        assert_eq!(line["breaking"], change.is_breaking());
        assert_eq!(line["breaks_backward"], change.breaks_backward);
        assert_eq!(line["breaks_forward"], change.breaks_forward);
    }
    assert_eq!(printed[0]["kind"], "bound_tightened");
    assert_eq!(printed[1]["kind"], "field_added");
}

#[test]
fn compat_the_other_way_round_swaps_the_directions() {
    let out = run(&["--compat", &data(V2), &data(V1)]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = lines(&out.stdout);
    assert_eq!(stdout.len(), 2, "{stdout:?}");
    assert!(
        stdout[0].starts_with("breaking    forward   bound_loosened"),
        "{stdout:?}"
    );
    assert!(
        stdout[1].starts_with("breaking    backward  field_removed"),
        "{stdout:?}"
    );
}

#[test]
fn compat_of_a_schema_with_itself_is_empty() {
    let out = run(&["--compat", &data(V2), &data(V2), "--fail-on-breaking"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert_eq!(
        lines(&out.stderr),
        ["VacationRequest v2 → VacationRequest v2: no changes"]
    );
}

#[test]
fn fail_on_breaking_exits_1_and_still_prints_the_changes() {
    let out = run(&["--compat", &data(V1), &data(V2), "--fail-on-breaking"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(lines(&out.stdout).len(), 2);
    assert_eq!(lines(&out.stderr).len(), 1);
}

#[test]
fn compat_table_is_the_default() {
    let default = run(&["--compat", &data(V1), &data(V2)]);
    let table = run(&["--compat", &data(V1), &data(V2), "--format", "table"]);
    assert_eq!(default.stdout, table.stdout);
}

#[test]
fn compat_with_a_missing_file() {
    let e = io_error(&["--compat", "/nonexistent/old.json", &data(V2)]);
    assert!(e.contains("cannot read OLD /nonexistent/old.json"), "{e}");
    let e = io_error(&["--compat", &data(V1), "/nonexistent/new.json"]);
    assert!(e.contains("cannot read NEW /nonexistent/new.json"), "{e}");
}

#[test]
fn compat_with_a_directory() {
    let e = io_error(&["--compat", env!("CARGO_MANIFEST_DIR"), &data(V2)]);
    assert!(e.contains("directory"), "{e}");
}

#[test]
fn compat_with_invalid_json() {
    for (name, contents) in [
        ("truncated", &b"{\"type\": \"object\""[..]),
        ("empty", b""),
        (
            "duplicate-key",
            b"{\"type\": \"object\", \"type\": \"string\"}",
        ),
        ("not-utf8", b"{\"title\": \"\xff\"}"),
        ("trailing", b"{} {}"),
    ] {
        let file = TempFile::new(&format!("invalid-{name}"), contents);
        let e = usage_error(&["--compat", file.path(), &data(V2)]);
        assert!(e.contains("is not valid JSON"), "{name}: {e}");
        assert!(e.contains(file.path()), "{name}: names the file: {e}");
    }
}

#[test]
fn compat_with_json_that_is_not_a_schema_object() {
    for (name, contents) in [
        ("array", &b"[1, 2]"[..]),
        ("bool", b"true"),
        ("string", b"\"x\""),
    ] {
        let file = TempFile::new(&format!("not-object-{name}"), contents);
        let e = usage_error(&["--compat", &data(V1), file.path()]);
        assert!(
            e.contains("NEW") && e.contains("expected an object"),
            "{name}: {e}"
        );
    }
}

#[test]
fn compat_of_a_model_output_file_is_refused() {
    // A JSON Lines file is not one JSON document.
    let e = usage_error(&["--compat", &data("vacation.jsonl"), &data(V2)]);
    assert!(
        e.contains("is not valid JSON") && e.contains("trailing_data"),
        "{e}"
    );
}

/// The limit of a schema file for `--compat`.
const MAX_SCHEMA_BYTES: usize = 16 << 20;

#[test]
fn a_schema_file_is_read_up_to_16_mib() {
    let v1 = std::fs::read_to_string(data(V1)).unwrap();
    let at_limit = TempFile::named("schema-at-limit", "v1.json", &padded(&v1, MAX_SCHEMA_BYTES));
    let out = run(&["--compat", at_limit.path(), &data(V2)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let over = TempFile::named("schema-over", "v1.json", &padded(&v1, MAX_SCHEMA_BYTES + 1));
    let e = usage_error(&["--compat", over.path(), &data(V2)]);
    // Refused for its size before it is parsed.
    assert!(e.contains("OLD") && e.contains("larger than"), "{e}");
    assert!(e.contains(&MAX_SCHEMA_BYTES.to_string()), "{e}");
    let e = usage_error(&["--compat", &data(V1), over.path()]);
    assert!(e.contains("NEW") && e.contains("larger than"), "{e}");
}

#[cfg(unix)]
#[test]
fn an_endless_schema_file_stops_at_16_mib() {
    let e = usage_error(&["--compat", "/dev/zero", &data(V2)]);
    assert!(e.contains("OLD /dev/zero"), "{e}");
    let e = usage_error(&["--compat", &data(V1), "/dev/zero"]);
    assert!(e.contains("NEW /dev/zero"), "{e}");
}

#[test]
fn compat_needs_two_files() {
    let e = usage_error(&["--compat", &data(V1)]);
    assert!(e.contains("--compat needs two files"), "{e}");
    let e = usage_error(&["--compat"]);
    assert!(e.contains("--compat needs a value"), "{e}");
    let e = usage_error(&["--compat", &data(V1), &data(V2), &data(V2)]);
    assert!(e.contains("unexpected argument"), "{e}");
}

#[test]
fn compat_takes_only_its_options() {
    let e = usage_error(&["--compat", &data(V1), &data(V2), "--provider", "openai"]);
    assert!(e.contains("--provider does not apply to --compat"), "{e}");
    let e = usage_error(&["--compat", &data(V1), &data(V2), "--context", "{}"]);
    assert!(e.contains("--context does not apply to --compat"), "{e}");
    let e = usage_error(&["--compat", &data(V1), &data(V2), "--schema", "vacation"]);
    assert!(e.contains("cannot be combined"), "{e}");
    let e = usage_error(&["--compat", &data(V1), &data(V2), "--format", "csv"]);
    assert!(e.contains("unknown --format"), "{e}");
}

#[test]
fn fail_on_breaking_needs_compat() {
    let e = usage_error(&["vacation", &data("vacation.jsonl"), "--fail-on-breaking"]);
    assert!(e.contains("--fail-on-breaking needs --compat"), "{e}");
}

#[test]
fn help_documents_the_exit_codes_and_the_limits() {
    let out = run(&["--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    for exit in ["Exit code: 0", "\n1 ", " 2 bad usage"] {
        assert!(help.contains(exit), "{exit:?} in {help}");
    }
    for limit in ["max_bytes", "4 MiB", "16 MiB", "64 KiB"] {
        assert!(help.contains(limit), "{limit:?} in {help}");
    }
}

#[test]
fn help_mentions_the_new_modes() {
    let out = run(&["--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(
        help.contains("--provider openai|gemini|anthropic"),
        "{help}"
    );
    assert!(help.contains("--compat OLD.json NEW.json"), "{help}");
}

#[test]
fn sse_replays_a_transcript_and_says_where_it_stops() {
    let out = run(&["vacation", "--sse", &data("vacation.unknown-key.sse")]);
    assert_eq!(out.status.code(), Some(0));
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["stopped_at_event"], 10);
    assert_eq!(line["errors"][0]["code"], "unknown_key");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("vacation: stopped at event 10 of 38"),
        "{stderr}"
    );
    let out = run(&[
        "vacation",
        "--sse",
        &data("vacation.unknown-key.sse"),
        "--fail-on-reject",
    ]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn sse_takes_no_other_file_nor_edit_mode() {
    let e = usage_error(&[
        "vacation",
        "x.jsonl",
        "--sse",
        &data("vacation.clarify.sse"),
    ]);
    assert!(e.contains("--sse FILE is the input"), "{e}");
    let e = usage_error(&["settings", "--sse", "x.sse", "--edit", "disable_email"]);
    assert!(e.contains("--edit does not apply to --sse"), "{e}");
    let e = usage_error(&["--schema", "vacation", "--sse", "x.sse"]);
    assert!(e.contains("cannot be combined"), "{e}");
}

#[test]
fn sse_refuses_a_transcript_that_is_not_server_sent_json_events() {
    let dir = std::env::temp_dir().join(format!("contract-check-sse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.sse");
    std::fs::write(
        &file,
        "data: {\"choices\":[{\"delta\":{\"content\":\"{\"}}]}\n\ndata: not json\n\n",
    )
    .unwrap();
    let e = usage_error(&["vacation", "--sse", file.to_str().unwrap()]);
    assert!(e.contains("event 2 of the transcript is not JSON"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sse_transcript_events_are_data_lines_up_to_done() {
    let text = ": a comment\nevent: message\ndata: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n\
                data: {\"choices\":[{\"delta\":{\"content\":\"{\\\"a\"}}]}\r\n\r\n\
                data: {\"choices\":[{\"delta\":{\"content\":\"\\\":1}\"}}]}\n\n\
                data: [DONE]\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n";
    let events = runtime_cli::transcript(text).unwrap();
    let contents: Vec<&str> = events.iter().map(|e| e.content.as_str()).collect();
    assert_eq!(contents, ["", "{\"a", "\":1}"]);
    assert_eq!(events[2].number, 3);
}
