//! `contract-check TOOLS FILE --calls`: one batch of tool calls per line,
//! through the whole command line (in-process).
use std::ffi::OsString;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

use contract_examples::cli;
use serde_json::Value;

fn run(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("cli-calls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let file = dir.join(format!("{}.jsonl", NEXT.fetch_add(1, Ordering::Relaxed)));
    std::fs::File::create(&file)
        .unwrap()
        .write_all(stdin)
        .unwrap();
    let args: Vec<OsString> = args
        .iter()
        .map(|a| {
            if *a == "FILE" {
                file.clone().into()
            } else {
                a.into()
            }
        })
        .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = cli::main_with(args, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn decisions(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

const BATCHES: &[u8] = br#"[{"id":"a","name":"close_ticket","arguments":"{\"ticket_id\":7,\"reason\":\"done\"}"},{"id":"b","name":"list_open_tickets"}]
[{"id":"a","name":"close_ticket","arguments":{"ticket_id":0,"reason":"done"}}]
"#;

#[test]
fn each_line_is_a_batch_checked_all_or_nothing() {
    let (code, stdout, stderr) = run(&["support-tools", "FILE", "--calls"], BATCHES);
    assert_eq!(code, 0, "{stderr}");
    let lines = decisions(&stdout);
    assert_eq!(lines[0]["outcome"], "accept");
    assert_eq!(lines[1]["outcome"], "reject");
    assert_eq!(lines[1]["errors"][0]["pointer"], "/0/arguments/ticket_id");
    assert!(stderr.starts_with("support-tools: 2 read"), "{stderr}");
}

#[test]
fn fail_on_reject_and_jobs_apply_to_calls() {
    let (code, one, _) = run(
        &["support-tools", "FILE", "--calls", "--fail-on-reject"],
        BATCHES,
    );
    assert_eq!(code, 1);
    let (_, two, _) = run(
        &["support-tools", "FILE", "--calls", "--jobs", "2"],
        BATCHES,
    );
    assert_eq!(one, two);
}

// Without `--calls`, a tools enum reads each line as one call in its JSON
// form, `{"name","arguments"}` (MCP's `tools/call` params).
#[test]
fn without_calls_a_line_is_one_call_in_the_json_form() {
    let (_, stdout, _) = run(
        &["support-tools", "FILE"],
        br#"{"name":"close_ticket","arguments":{"ticket_id":7,"reason":"done"}}
[{"id":"a","name":"list_open_tickets"}]
"#,
    );
    let lines = decisions(&stdout);
    assert_eq!(lines[0]["outcome"], "accept");
    assert_eq!(lines[1]["outcome"], "reject");
}

#[test]
fn calls_needs_a_tools_contract_and_no_edit_mode() {
    let (code, _, stderr) = run(&["triage", "FILE", "--calls"], b"[]\n");
    assert_eq!(code, 2);
    assert!(
        stderr.contains("triage is not a tools enum: --calls needs one"),
        "{stderr}"
    );
    let (code, _, stderr) = run(
        &["support-tools", "FILE", "--calls", "--context", "{}"],
        b"[]\n",
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("takes no --context"), "{stderr}");
    let (code, _, stderr) = run(&["--list", "--calls"], b"");
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--calls does not apply to --list"),
        "{stderr}"
    );
}

#[test]
fn help_describes_calls() {
    let (code, stdout, _) = run(&["--help"], b"");
    assert_eq!(code, 0);
    assert!(stdout.contains("--calls"), "{stdout}");
    assert!(stdout.contains("batch of tool calls"), "{stdout}");
    assert!(stdout.contains("TOOLS calls.jsonl --calls"), "{stdout}");
}
