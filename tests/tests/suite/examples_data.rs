//! Every shipped example file, run through the whole `contract-check` command
//! line (in-process), gives exactly its `.expected.jsonl`.
//!
//! To regenerate the expected files after a deliberate change, run with
//! `BLESS=1` and review the diff.
use std::ffi::OsString;
use std::path::PathBuf;

use contract_examples::cli;
use contract_runtime::cli::{self as runtime_cli, Setup};

pub(crate) fn data(name: &str) -> PathBuf {
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
        "support-tools" => args.push("--calls".into()),
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
fn shipping_label_example_matches_expected_output() {
    check_example("shipping-label");
}

#[test]
fn support_tools_example_matches_expected_output() {
    check_example("support-tools");
}

#[test]
fn one_output_line_per_input_line_in_order() {
    for entry in contract_examples::registry::contracts() {
        let input = std::fs::read_to_string(data(&format!("{}.jsonl", entry.name()))).unwrap();
        let mut stdout = Vec::new();
        let code = cli::main_with(command(entry.name()), &mut stdout, &mut Vec::new());
        assert_eq!(code, 0);
        let lines: Vec<serde_json::Value> = String::from_utf8(stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), input.lines().count(), "{}", entry.name());
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(line["line"], i as u64 + 1);
        }
    }
}

#[test]
fn every_contract_ships_an_example_file() {
    for entry in contract_examples::registry::contracts() {
        assert!(
            data(&format!("{}.jsonl", entry.name())).is_file(),
            "{}",
            entry.name()
        );
        assert!(
            data(&format!("{}.expected.jsonl", entry.name())).is_file(),
            "{}",
            entry.name()
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
        "cargo run -p contract-examples --bin contract-check -- vacation examples/data/vacation.jsonl"
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

/// The shipped transcripts of replies (`*.sse`), each named
/// `<contract>.<case>[.<api>].sse` (no API: `openai-chat`), and their
/// contracts and APIs (the `triage.two-calls` ones are tool-call
/// responses, replayed call by call: the `triage` entry checks tool calls).
pub(crate) fn transcripts() -> Vec<(String, String, Option<String>)> {
    let mut out: Vec<(String, String, Option<String>)> = std::fs::read_dir(data(""))
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter_map(|name| {
            let stem = name.strip_suffix(".sse")?.to_owned();
            let contract = stem.split('.').next()?.to_owned();
            let api = stem
                .rsplit('.')
                .next()
                .filter(|last| last.parse::<contract_runtime::schema::Api>().is_ok())
                .map(str::to_owned);
            Some((stem, contract, api))
        })
        .collect();
    out.sort();
    out
}

pub(crate) fn replay(stem: &str, contract: &str, api: Option<&str>) -> (i32, String) {
    let file = data(&format!("{stem}.sse"));
    let mut args: Vec<OsString> = vec![contract.into(), "--sse".into(), file.into()];
    if let Some(api) = api {
        args.extend(["--api".into(), api.into()]);
    }
    let mut stdout = Vec::new();
    let code = cli::main_with(args, &mut stdout, &mut Vec::new());
    (code, String::from_utf8(stdout).unwrap())
}

#[test]
fn every_transcript_replays_to_its_expected_output() {
    let shipped = transcripts();
    assert!(shipped.len() >= 15, "{shipped:?}");
    for (stem, contract, api) in shipped {
        let (code, stdout) = replay(&stem, &contract, api.as_deref());
        assert_eq!(code, 0, "{stem}");
        let expected_path = data(&format!("{stem}.expected.jsonl"));
        if std::env::var_os("BLESS").is_some() {
            std::fs::write(&expected_path, &stdout).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|e| panic!("{}: {e} (run with BLESS=1)", expected_path.display()));
        assert_eq!(stdout, expected, "{stem}");
    }
}

// A transcript that goes wrong early stops before its end, at the error its
// name says; one that is fine is read to the end and decided as `check`
// decides the whole text.
#[test]
fn a_transcript_that_goes_wrong_stops_early_and_a_good_one_is_read_whole() {
    let cases = [
        (
            "vacation.unknown-key",
            "vacation",
            Some(("/start", "unknown_key")),
        ),
        (
            "triage.bad-enum",
            "triage",
            Some(("/categoria", "not_one_of")),
        ),
        (
            "step.wrong-type",
            "step",
            Some(("/ticket_id", "invalid_type")),
        ),
        ("vacation.clarify", "vacation", None),
        ("step.refund", "step", None),
    ];
    let apis = [
        None,
        Some("openai-responses"),
        Some("anthropic"),
        Some("gemini"),
    ];
    let cases = cases.iter().flat_map(|case| apis.map(|api| (case, api)));
    for (&(stem, contract, error), api) in cases {
        let stem = &match api {
            Some(api) => format!("{stem}.{api}"),
            None => stem.to_owned(),
        };
        if !data(&format!("{stem}.sse")).exists() {
            continue;
        }
        let (_, stdout) = replay(stem, contract, api);
        let out: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let text = std::fs::read_to_string(data(&format!("{stem}.sse"))).unwrap();
        let api = api.map_or(Ok(Default::default()), str::parse).unwrap();
        let events = runtime_cli::transcript_for(&text, api).unwrap();
        let whole: String = events.iter().map(|e| e.content.as_str()).collect();
        let check = checker(contract).check(&whole);
        match error {
            Some((pointer, code)) => {
                assert!(out["saved_bytes"].as_u64().unwrap() > 0, "{stem}: {out}");
                assert_eq!(out["errors"][0]["pointer"], pointer, "{stem}");
                assert_eq!(out["errors"][0]["code"], code, "{stem}");
                assert_eq!(
                    check.errors[0].code, code,
                    "{stem}: check on the whole text"
                );
            }
            None => {
                assert_eq!(out["stopped_at_event"], serde_json::Value::Null, "{stem}");
                assert_eq!(out["read_bytes"], whole.len(), "{stem}");
                assert_eq!(out["outcome"], check.outcome.as_str(), "{stem}");
            }
        }
    }
}

/// The checker `command(contract)` binds (without edit mode: the
/// transcripts are replayed, and a replay takes no baseline).
fn checker(contract: &str) -> runtime_cli::Checker {
    let text = |name: &str| std::fs::read_to_string(data(name)).unwrap();
    let setup = match contract {
        "close-ticket" => Setup {
            context: Some(r#"{"tenant":"demo-a"}"#.into()),
            ..Setup::default()
        },
        "ticket-extraction" => Setup {
            context: Some(r#"{"confirmed_clusters":["eu-west-1"]}"#.into()),
            source: Some(text("ticket-extraction.source.txt")),
            ..Setup::default()
        },
        _ => Setup::default(),
    };
    contract_examples::registry::find(contract)
        .unwrap()
        .checker(&setup)
        .unwrap()
}
