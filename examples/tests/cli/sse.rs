//! `--sse`: a recorded server-sent-events transcript replayed through the stream.

use super::*;

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
