//! A contract of this crate (`src/downstream.rs`) gets its own
//! `contract-check` through `contract_runtime::cli`: in-process with
//! `main_with`, and as the process `refund-check` (`src/bin/`), for its
//! exit codes, `--version` and `--help`.
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use contract_runtime::Contract;
use contract_runtime::cli::{self, EXIT_FOUND, EXIT_IO, EXIT_OK, EXIT_USAGE};
use contract_tests::downstream::{self, Note, Refund};
use serde_json::Value;

const SHOP: &str = r#"{"max_refund_cents":5000}"#;

const REFUNDS: &str = concat!(
    r#"{"order_id":7,"refund_cents":1200,"order_total_cents":4000}"#,
    "\n",
    r#"{"order_id":7,"refund_cents":6000,"order_total_cents":9000}"#,
    "\n",
    r#"{"order_id":7,"refund_cents":4500,"order_total_cents":4000}"#,
    "\n",
    "not json\n",
);

/// A file in a directory of this test's own, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(test: &str, contents: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("cli-downstream-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("in.jsonl");
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn in_process(args: &[&str]) -> (i32, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = cli::main_with(downstream::entries(), args, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn process(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_refund-check"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn the_business_check_runs_against_the_context_given_with_opt_equals_value() {
    let input = TempFile::new("business", REFUNDS);
    let context = format!("--context={SHOP}");
    let (code, stdout, stderr) = in_process(&["refund", input.path(), &context]);
    assert_eq!(code, EXIT_OK, "{stderr}");
    let lines = json_lines(&stdout);
    let outcomes: Vec<&str> = lines
        .iter()
        .map(|l| l["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, ["accept", "reject", "reject", "reject"]);
    assert_eq!(lines[1]["errors"][0]["stage"], "business");
    assert_eq!(lines[2]["errors"][0]["code"], "order");
    assert_eq!(lines[3]["errors"][0]["stage"], "parse");
    assert!(stderr.starts_with("refund: 4 read"), "{stderr}");
}

#[test]
fn the_context_is_required_and_read_with_serde() {
    let input = TempFile::new("context", REFUNDS);
    let (code, _, stderr) = in_process(&["refund", input.path()]);
    assert_eq!(code, EXIT_USAGE);
    assert!(stderr.contains("refund needs --context"), "{stderr}");
    let (code, _, stderr) = in_process(&["refund", input.path(), "--context", r#"{"max":1}"#]);
    assert_eq!(code, EXIT_USAGE);
    assert!(stderr.contains("unknown field `max`"), "{stderr}");
    // Strict JSON first: a duplicate key is refused before serde sees it.
    let dup = r#"{"max_refund_cents":1,"max_refund_cents":2}"#;
    let (code, _, stderr) = in_process(&["refund", input.path(), "--context", dup]);
    assert_eq!(code, EXIT_USAGE);
    assert!(stderr.contains("duplicate"), "{stderr}");
}

#[test]
fn a_contract_without_a_context_takes_none() {
    let input = TempFile::new("note", "{\"text\":\"hello\"}\n{\"text\":\"\"}\n");
    let (code, stdout, _) = in_process(&["note", input.path(), "--fail-on-reject"]);
    assert_eq!(code, EXIT_FOUND);
    assert_eq!(json_lines(&stdout)[1]["errors"][0]["pointer"], "/text");
    let (code, _, stderr) = in_process(&["note", input.path(), "--context", "{}"]);
    assert_eq!(code, EXIT_USAGE);
    assert!(stderr.contains("note takes no --context"), "{stderr}");
}

#[test]
fn list_and_schema_show_the_crates_own_contracts() {
    let (code, stdout, _) = in_process(&["--list"]);
    assert_eq!(code, EXIT_OK);
    assert!(
        stdout.starts_with("refund             a refund for one order"),
        "{stdout}"
    );
    assert!(stdout.contains("--context 'JSON'"), "{stdout}");
    assert!(stdout.contains("\nnote               Note\n"), "{stdout}");
    let (code, stdout, _) = in_process(&["--schema=refund"]);
    assert_eq!(code, EXIT_OK);
    assert_eq!(
        serde_json::from_str::<Value>(&stdout).unwrap(),
        Refund::json_schema()
    );
    let (code, _, stderr) = in_process(&["vacation", "-"]);
    assert_eq!(code, EXIT_USAGE);
    assert!(
        stderr.contains("unknown contract `vacation`; known: refund, note"),
        "{stderr}"
    );
}

#[test]
fn a_context_hook_of_the_wrong_type_stops_every_run() {
    #[derive(serde::Deserialize)]
    struct NotTheShop {}
    let entries = [cli::entry::<Refund>("refund").with_context::<NotTheShop>()];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = cli::main_with(entries, ["--list"], &mut out, &mut err);
    assert_eq!(code, EXIT_USAGE);
    let err = String::from_utf8(err).unwrap();
    assert!(err.contains("NotTheShop") && err.contains("Shop"), "{err}");
    assert!(out.is_empty());
}

#[test]
fn two_entries_with_one_name_are_refused() {
    let entries = [cli::entry::<Note>("note"), cli::entry::<Note>("note")];
    let mut err = Vec::new();
    let code = cli::main_with(entries, ["--list"], &mut Vec::new(), &mut err);
    assert_eq!(code, EXIT_USAGE);
    assert!(
        String::from_utf8(err)
            .unwrap()
            .contains("two contracts are called `note`")
    );
}

#[test]
fn the_binary_prints_its_own_name_and_version() {
    // `cli::main` names the program after its file; its version is
    // contract-runtime's, which is the workspace's, as this crate's is.
    let out = process(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("refund-check {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn the_binarys_help_has_its_usage_options_exit_codes_and_examples() {
    for flag in ["--help", "-h"] {
        let out = process(&[flag]);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        let help = String::from_utf8(out.stdout).unwrap();
        assert!(
            help.starts_with("Usage: refund-check CONTRACT [FILE|-]"),
            "{help}"
        );
        for text in [
            "--jobs <N>",
            "--summary <text|json>",
            "Exit code: 0",
            "3 an I/O error",
            "Examples:\n  refund-check --list",
        ] {
            assert!(help.contains(text), "{text:?} in {help}");
        }
    }
}

#[test]
fn the_binarys_exit_codes_are_distinct() {
    let input = TempFile::new("exit-codes", REFUNDS);
    let context = format!("--context={SHOP}");
    let ok = process(&["refund", input.path(), &context]);
    assert_eq!(ok.status.code(), Some(EXIT_OK));
    let found = process(&["refund", input.path(), &context, "--fail-on-reject"]);
    assert_eq!(found.status.code(), Some(EXIT_FOUND));
    let bad = process(&["refund", input.path(), "--colour"]);
    assert_eq!(bad.status.code(), Some(EXIT_USAGE));
    let stderr = String::from_utf8(bad.stderr).unwrap();
    assert_eq!(
        stderr,
        "refund-check: unknown option `--colour` (see refund-check --help)\n"
    );
    let missing = process(&["refund", "/nonexistent/in.jsonl", &context]);
    assert_eq!(missing.status.code(), Some(EXIT_IO));
}

#[test]
fn an_io_error_is_exit_code_3() {
    // Writing to a full device: every write fails with ENOSPC.
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not a Linux machine
    };
    let input = TempFile::new("io-error", REFUNDS);
    let context = format!("--context={SHOP}");
    let out = Command::new(env!("CARGO_BIN_EXE_refund-check"))
        .args(["refund", input.path(), &context])
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(EXIT_IO));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("refund-check: while checking"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn an_io_error_in_process_is_exit_code_3_and_a_closed_pipe_is_0() {
    struct Failing(std::io::ErrorKind);
    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(self.0.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Err(self.0.into())
        }
    }
    for (kind, code) in [
        (std::io::ErrorKind::Other, EXIT_IO),
        (std::io::ErrorKind::BrokenPipe, EXIT_OK),
    ] {
        for args in [&["--schema", "note"][..], &["--list"]] {
            let mut err = Vec::new();
            let got = cli::main_with(downstream::entries(), args, &mut Failing(kind), &mut err);
            assert_eq!(got, code, "{kind:?} {args:?}");
        }
    }
}

#[test]
fn a_check_that_writes_to_stderr_from_a_jobs_thread_does_not_hang() {
    // Many lines, so that the checking threads run the business check while
    // the calling thread reads and writes: neither holds stderr for the run.
    let line = r#"{"order_id":7,"refund_cents":6000,"order_total_cents":9000}"#;
    let input = TempFile::new("logging", &format!("{line}\n").repeat(20_000));
    let context = r#"--context={"max_refund_cents":5000,"log_refusals":true}"#;
    let mut child = Command::new(env!("CARGO_BIN_EXE_refund-check"))
        .args(["refund", input.path(), context, "--jobs", "2"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(
        status.map(|s| s.code()),
        Some(Some(EXIT_OK)),
        "refund-check --jobs 2 did not finish"
    );
}
