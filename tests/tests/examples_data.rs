//! Every shipped example file, run through the whole `contract-check` command
//! line (in-process), gives exactly its `.expected.jsonl`.
//!
//! To regenerate the expected files after a deliberate change, run with
//! `BLESS=1` and review the diff.
use std::ffi::OsString;
use std::path::PathBuf;

use contract_examples::cli;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/data")
        .join(name)
}

/// The command each example file is checked with (as in `examples/data/README.md`).
fn command(contract: &str) -> Vec<OsString> {
    let file = data(&format!("{contract}.jsonl"));
    let mut args: Vec<OsString> = vec![contract.into(), file.into()];
    match contract {
        "close-ticket" => {
            args.extend(["--context".into(), r#"{"tenant":"demo-a"}"#.into()]);
        }
        "settings" => {
            args.extend([
                "--baseline".into(),
                data("settings.baseline.json").into(),
                "--edit".into(),
                "disable_email".into(),
            ]);
        }
        "ticket-extraction" => {
            args.extend([
                "--source".into(),
                data("ticket-extraction.source.txt").into(),
                "--context".into(),
                r#"{"confirmed_clusters":["eu-west-1"]}"#.into(),
            ]);
        }
        _ => {}
    }
    args
}

fn check_example(contract: &str) {
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let code = cli::main_with(command(contract), &mut stdout, &mut stderr);
    let stderr = String::from_utf8(stderr).unwrap();
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(
        stderr.starts_with(&format!("{contract}: ")),
        "the summary names the contract: {stderr}"
    );
    let stdout = String::from_utf8(stdout).unwrap();
    let expected_path = data(&format!("{contract}.expected.jsonl"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&expected_path, &stdout).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&expected_path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with BLESS=1)", expected_path.display()));
    for (i, (got, want)) in stdout.lines().zip(expected.lines()).enumerate() {
        assert_eq!(got, want, "{contract}: output line {} differs", i + 1);
    }
    assert_eq!(
        stdout.lines().count(),
        expected.lines().count(),
        "{contract}: number of output lines"
    );
    assert_eq!(stdout, expected);
}

#[test]
fn close_ticket_example_matches_expected_output() {
    check_example("close-ticket");
}

#[test]
fn settings_example_matches_expected_output() {
    check_example("settings");
}

#[test]
fn triage_example_matches_expected_output() {
    check_example("triage");
}

#[test]
fn ticket_extraction_example_matches_expected_output() {
    check_example("ticket-extraction");
}

#[test]
fn vacation_example_matches_expected_output() {
    check_example("vacation");
}

#[test]
fn step_example_matches_expected_output() {
    check_example("step");
}

#[test]
fn one_output_line_per_input_line_in_order() {
    for entry in contract_examples::registry::contracts() {
        let input = std::fs::read_to_string(data(&format!("{}.jsonl", entry.name))).unwrap();
        let mut stdout = Vec::new();
        let code = cli::main_with(command(entry.name), &mut stdout, &mut Vec::new());
        assert_eq!(code, 0);
        let lines: Vec<serde_json::Value> = String::from_utf8(stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), input.lines().count(), "{}", entry.name);
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(line["line"], i as u64 + 1);
        }
    }
}

#[test]
fn every_contract_ships_an_example_file() {
    for entry in contract_examples::registry::contracts() {
        assert!(
            data(&format!("{}.jsonl", entry.name)).is_file(),
            "{}",
            entry.name
        );
        assert!(
            data(&format!("{}.expected.jsonl", entry.name)).is_file(),
            "{}",
            entry.name
        );
    }
}

#[test]
fn the_readme_shows_real_output_of_its_first_command() {
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let first_screen = readme.split("<!-- more below -->").next().unwrap();
    assert!(first_screen.contains(
        "cargo run -q -p contract-examples --bin contract-check -- vacation examples/data/vacation.jsonl"
    ));
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let code = cli::main_with(command("vacation"), &mut stdout, &mut stderr);
    assert_eq!(code, 0);
    let stdout = String::from_utf8(stdout).unwrap();
    let stderr = String::from_utf8(stderr).unwrap();
    let block = first_screen
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .unwrap();
    let mut shown = 0;
    for line in block.lines().filter(|l| *l != "…") {
        assert!(
            stdout.lines().any(|l| l == line) || stderr.lines().any(|l| l == line),
            "README shows a line the command does not print: {line}"
        );
        shown += 1;
    }
    assert!(shown >= 3);
    assert!(
        block.contains(stderr.trim_end()),
        "the whole summary, as printed"
    );
}
