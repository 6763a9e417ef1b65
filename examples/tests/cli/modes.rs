//! `--list`, `--schema`, `--version`, `--help` and option spelling.

use super::*;

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
