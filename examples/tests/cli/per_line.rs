//! Line by line: exit codes, the summary, rejected lines that do not stop the run.

use super::*;

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
