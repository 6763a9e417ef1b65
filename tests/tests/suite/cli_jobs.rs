//! `--jobs N` and `--summary json` of `contract-check` (in-process, over
//! the built-in contracts): N threads print byte for byte what one thread
//! prints, in every format and mode, and the JSON summary carries the same
//! counts as the text one.
use std::path::PathBuf;

use contract_examples::cli;
use contract_runtime::cli::{BATCH_LINES, EXIT_OK, EXIT_USAGE};
use serde_json::Value;

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/data")
        .join(name)
        .display()
        .to_string()
}

/// The shipped lines of `contract`, repeated past several batches, with an
/// oversized line, a line that is not UTF-8 and a blank line among them.
fn many_lines(test: &str, contract: &str) -> (PathBuf, PathBuf) {
    let shipped = std::fs::read(data(&format!("{contract}.jsonl"))).unwrap();
    let max_bytes = contract_examples::registry::find(contract)
        .unwrap()
        .limits()
        .max_bytes;
    let mut bytes = Vec::new();
    let mut rounds = 0;
    while bytes.iter().filter(|&&b| b == b'\n').count() < 5 * BATCH_LINES {
        bytes.extend_from_slice(&shipped);
        bytes.extend_from_slice(b"\n\xff\xfe\n");
        if rounds == 20 {
            // One line past the contract's limit, in the middle of a batch.
            bytes.extend(std::iter::repeat_n(b' ', max_bytes + 1));
            bytes.push(b'\n');
        }
        rounds += 1;
    }
    let dir = std::env::temp_dir().join(format!("cli-jobs-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("in.jsonl");
    std::fs::write(&path, bytes).unwrap();
    (dir, path)
}

fn run(args: &[String]) -> (i32, Vec<u8>, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = cli::main_with(args, &mut out, &mut err);
    (code, out, String::from_utf8(err).unwrap())
}

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

/// Each command with `--jobs 1` and with `--jobs 2` and `3`: the same
/// stdout, stderr and exit code.
fn assert_same_with_threads(test: &str, contract: &str, options: &[&str]) {
    let (dir, input) = many_lines(test, contract);
    let input = input.to_str().unwrap().to_owned();
    for format in ["jsonl", "table"] {
        let mut base = args(&[contract, &input, "--format", format]);
        base.extend(args(options));
        let one = run(&[base.clone(), args(&["--jobs", "1"])].concat());
        assert_eq!(one.0, EXIT_OK, "{}", one.2);
        assert!(one.1.len() > 100_000, "{test}: enough output");
        assert!(
            one.1.split(|&b| b == b'\n').count() > 5 * BATCH_LINES,
            "{test}: several batches"
        );
        for jobs in ["2", "3"] {
            let many = run(&[base.clone(), args(&["--jobs", jobs])].concat());
            assert_eq!(many.0, one.0, "{test} {format} --jobs {jobs}");
            assert!(
                many.1 == one.1,
                "{test} {format} --jobs {jobs}: stdout differs"
            );
            assert_eq!(many.2, one.2, "{test} {format} --jobs {jobs}: summary");
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn threads_print_what_one_thread_prints() {
    assert_same_with_threads("vacation", "vacation", &[]);
}

#[test]
fn threads_print_what_one_thread_prints_with_a_context() {
    assert_same_with_threads(
        "close-ticket",
        "close-ticket",
        &["--context", r#"{"tenant":"demo-a"}"#],
    );
}

#[test]
fn threads_print_what_one_thread_prints_in_edit_mode() {
    let baseline = data("settings.baseline.json");
    assert_same_with_threads(
        "settings",
        "settings",
        &["--baseline", &baseline, "--edit", "disable_email"],
    );
}

#[test]
fn jobs_takes_a_number_of_threads() {
    let file = data("vacation.jsonl");
    for bad in ["0", "two", "257", ""] {
        let (code, out, err) = run(&args(&["vacation", &file, "--jobs", bad]));
        assert_eq!(code, EXIT_USAGE, "{bad}");
        assert!(out.is_empty());
        assert!(
            err.contains("--jobs takes a number of threads from 1 to 256"),
            "{err}"
        );
    }
    let (code, _, err) = run(&args(&["--schema", "vacation", "--jobs=2"]));
    assert_eq!(code, EXIT_USAGE);
    assert!(err.contains("--jobs does not apply to --schema"), "{err}");
}

#[test]
fn the_json_summary_has_the_counts_of_the_text_one() {
    let file = data("vacation.jsonl");
    let (code, text_out, text) = run(&args(&["vacation", &file]));
    assert_eq!(code, EXIT_OK);
    let (code, json_out, json) = run(&args(&["vacation", &file, "--summary=json"]));
    assert_eq!(code, EXIT_OK);
    assert_eq!(json_out, text_out, "the summary changes stderr only");
    assert_eq!(json.lines().count(), 1, "one object on one line: {json}");
    let summary: Value = serde_json::from_str(&json).unwrap();
    let keys: Vec<&str> = summary
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "contract",
            "read",
            "parsed",
            "schema_valid",
            "rule_valid",
            "accepted",
            "clarified",
            "declined",
            "reviewed",
            "rejected",
            "rates"
        ]
    );
    assert_eq!(summary["contract"], "vacation");
    // The text summary: "vacation: 30 read", then "  parsed  26  86.7%", ….
    let count = |label: &str| -> u64 {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    assert!(
        text.starts_with(&format!("vacation: {} read", summary["read"])),
        "{text}"
    );
    for (label, key) in [
        ("parsed", "parsed"),
        ("schema-valid", "schema_valid"),
        ("rule-valid", "rule_valid"),
        ("accept", "accepted"),
        ("clarify", "clarified"),
        ("decline", "declined"),
        ("review ", "reviewed"),
    ] {
        assert_eq!(summary[key], count(label), "{key}");
    }
    let rejected = summary["rejected"].as_object().unwrap();
    let total: u64 = rejected.values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(total, count("reject"));
    assert!(total > 0);
    let read = summary["read"].as_f64().unwrap();
    assert_eq!(
        summary["rates"]["rejected"].as_f64().unwrap(),
        total as f64 / read
    );
}

#[test]
fn summary_takes_text_or_json_in_checking_mode_only() {
    let file = data("vacation.jsonl");
    let (code, _, err) = run(&args(&["vacation", &file, "--summary", "yaml"]));
    assert_eq!(code, EXIT_USAGE);
    assert!(
        err.contains("unknown --summary `yaml`; expected text or json"),
        "{err}"
    );
    let (code, _, err) = run(&args(&["--list", "--summary", "json"]));
    assert_eq!(code, EXIT_USAGE);
    assert!(err.contains("--summary does not apply to --list"), "{err}");
}
