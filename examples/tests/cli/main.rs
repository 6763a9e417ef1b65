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

fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8(bytes.to_vec())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

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

mod compat_mode;
mod limits;
mod modes;
mod output;
mod per_line;
mod provider;
mod sse;
mod usage;
