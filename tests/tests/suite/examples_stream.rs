//! The streaming loop of `contract-check` on arbitrary bytes: never a panic,
//! one output line per input line, and a report that adds up.
use std::io::Cursor;

use contract_examples::registry;
use contract_runtime::cli::{self as runtime_cli, Checker, OutputFormat, Setup};
use contract_runtime::report::Report;
use proptest::prelude::*;

fn checkers() -> Vec<Checker> {
    let source = include_str!("../../../examples/data/ticket-extraction.source.txt");
    registry::contracts()
        .iter()
        .map(|entry| {
            let setup = match entry.name() {
                "close-ticket" => Setup {
                    context: Some(r#"{"tenant":"demo-a"}"#.into()),
                    ..Setup::default()
                },
                "ticket-extraction" => Setup {
                    context: Some(r#"{"confirmed_clusters":[]}"#.into()),
                    source: Some(source.into()),
                    ..Setup::default()
                },
                "settings" => Setup {
                    baseline: Some(contract_examples::settings::BASELINE.into()),
                    edit: Some("disable_email".into()),
                    ..Setup::default()
                },
                _ => Setup::default(),
            };
            entry.checker(&setup).unwrap()
        })
        // A tools enum's lines as batches of calls (`--calls`) too.
        .chain(
            registry::contracts()
                .iter()
                .filter(|entry| entry.takes_calls())
                .map(|entry| entry.calls_checker(&Setup::default()).unwrap()),
        )
        .collect()
}

fn lines_in(input: &[u8]) -> usize {
    let newlines = input.iter().filter(|&&b| b == b'\n').count();
    newlines + usize::from(!input.is_empty() && !input.ends_with(b"\n"))
}

fn run(checker: &Checker, input: &[u8], format: OutputFormat) -> (String, Report) {
    let mut out = Vec::new();
    let mut report = Report::new();
    runtime_cli::run_lines(
        checker,
        &mut Cursor::new(input),
        &mut out,
        format,
        &mut report,
    )
    .unwrap();
    (String::from_utf8(out).unwrap(), report)
}

fn assert_stream(input: &[u8]) {
    for checker in checkers() {
        let (out, report) = run(&checker, input, OutputFormat::Jsonl);
        let n = lines_in(input);
        assert_eq!(out.lines().count(), n);
        assert_eq!(report.read, n as u64);
        assert_eq!(
            report.accepted
                + report.clarified
                + report.declined
                + report.reviewed
                + report.rejected.total(),
            report.read
        );
        for line in out.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(v["errors"].is_array());
        }
        let (table, _) = run(&checker, input, OutputFormat::Table);
        assert!(table.starts_with("LINE"));
    }
}

#[test]
fn crlf_blank_and_unterminated_lines() {
    assert_stream(b"");
    assert_stream(b"\n");
    assert_stream(b"\r\n\r\n");
    assert_stream(b"{}\r\n{\"a\":1}");
    assert_stream(b"\xff\xfe\n\xef\xbb\xbf{}\n");
}

#[test]
fn a_line_of_every_contract_limit_and_one_byte_more() {
    for checker in checkers() {
        let max = checker.limits().max_bytes;
        if max > 1 << 16 {
            continue;
        }
        let input = format!("{}\n{}\n", " ".repeat(max), " ".repeat(max + 1));
        let (out, _) = run(&checker, input.as_bytes(), OutputFormat::Jsonl);
        let codes: Vec<serde_json::Value> = out
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["errors"][0]["code"].clone()
            })
            .collect();
        assert_eq!(codes, ["unexpected_end", "too_large"]);
    }
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(input in proptest::collection::vec(any::<u8>(), 0..512)) {
        assert_stream(&input);
    }

    #[test]
    fn json_like_text_never_panics(input in r#"[{}\[\]",:0-9a-z_\\ \n\r-]{0,200}"#) {
        assert_stream(input.as_bytes());
    }
}
