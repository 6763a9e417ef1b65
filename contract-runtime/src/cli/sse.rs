//! Replay mode (`--sse FILE`): a recorded chat-completions stream
//! (OpenAI-compatible server-sent events) pushed delta by delta through
//! the contract's stream, as a caller that stops the model at the first
//! rejection would. Prints the event it would stop at, the bytes of the
//! output that saves, and the decision.
use std::io::Write;

use serde_json::{Map, Value, json};

use super::args::{CheckArgs, Input, OutputFormat};
use super::check::checker;
use super::checker::Replay;
use super::failure::{Failure, UsageError, exit_code, usage};
use super::output::{decision_json, write_decision, write_header};
use super::read::read_text;

/// The largest transcript read (16 MiB).
pub const MAX_TRANSCRIPT_BYTES: usize = 16 << 20;

/// One `data:` event of a transcript: its 1-based number and the content
/// delta it carries (empty for an event without content, such as the
/// first one, which carries the role).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// 1-based, among the `data:` events.
    pub number: usize,
    /// `choices[0].delta.content`, or empty.
    pub content: String,
}

/// The `data:` events of a transcript, up to `data: [DONE]`.
///
/// Events are separated by blank lines; an event's `data:` lines are joined
/// with `\n` (as the server-sent events format says); comments (`:`) and
/// other fields (`event:`, `id:`, `retry:`) are ignored; a leading
/// byte-order mark is skipped, as the format says. Each `data:` value
/// must be a JSON object; its content is `choices[0].delta.content`.
pub fn transcript(text: &str) -> Result<Vec<Event>, UsageError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut events = Vec::new();
    let mut data: Option<String> = None;
    // A blank line after the last line ends the last event too.
    for line in text.lines().chain(std::iter::once("")) {
        if line.is_empty() {
            let Some(payload) = data.take() else {
                continue;
            };
            if payload == "[DONE]" {
                break;
            }
            let number = events.len() + 1;
            let value: Value = serde_json::from_str(&payload)
                .map_err(|e| usage(format!("event {number} of the transcript is not JSON: {e}")))?;
            if !value.is_object() {
                return Err(usage(format!(
                    "event {number} of the transcript is not a JSON object"
                )));
            }
            let content = value
                .pointer("/choices/0/delta/content")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            events.push(Event { number, content });
            continue;
        }
        if let Some(value) = line.strip_prefix("data:") {
            let value = value.strip_prefix(' ').unwrap_or(value);
            match &mut data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => data = Some(value.to_owned()),
            }
        }
    }
    Ok(events)
}

/// The replay as one JSON object: `events`, `stopped_at_event` (`null`
/// when the stream was never rejected), `read_bytes`, `total_bytes`,
/// `saved_bytes`, then the decision's keys (`outcome`, `errors`, …, as in
/// checking mode, without `line`).
pub fn replay_json(events: &[Event], replay: &Replay) -> Value {
    let mut out = Map::new();
    out.insert("events".into(), json!(events.len()));
    let stopped = replay
        .stopped_at
        .and_then(|i| events.iter().filter(|e| !e.content.is_empty()).nth(i))
        .map(|e| e.number);
    out.insert("stopped_at_event".into(), json!(stopped));
    out.insert("read_bytes".into(), json!(replay.read));
    out.insert("total_bytes".into(), json!(replay.total));
    out.insert(
        "saved_bytes".into(),
        json!(replay.total - replay.read.min(replay.total)),
    );
    if let Value::Object(decision) = decision_json(0, &replay.decision) {
        out.extend(decision.into_iter().filter(|(k, _)| k != "line"));
    }
    Value::Object(out)
}

/// `CONTRACT --sse FILE ...`: the replay on `stdout`, one summary line on
/// `stderr`; returns the exit code.
pub(super) fn run_sse(
    args: &CheckArgs<'_>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let checker = checker(args)?;
    let Input::File(path) = &args.input else {
        return Err(usage("--sse needs a FILE").into());
    };
    let text = read_text(
        "--sse",
        path,
        MAX_TRANSCRIPT_BYTES,
        "the limit for a transcript",
    )?;
    let events = transcript(&text)?;
    let pieces: Vec<&str> = events
        .iter()
        .map(|e| e.content.as_str())
        .filter(|c| !c.is_empty())
        .collect();
    let Some(replay) = checker.replay(&pieces) else {
        return Err(usage("--sse does not apply to edit mode").into());
    };
    let json = replay_json(&events, &replay);
    match args.format {
        OutputFormat::Jsonl => writeln!(stdout, "{json}")?,
        OutputFormat::Table => {
            writeln!(stdout, "{}", summary(&json))?;
            write_header(stdout, OutputFormat::Table)?;
            write_decision(stdout, OutputFormat::Table, 1, &replay.decision)?;
        }
    }
    writeln!(stderr, "{}: {}", args.contract.name(), summary(&json))?;
    let rejected = replay.decision.outcome == crate::OutcomeKind::Reject;
    Ok(exit_code(args.fail_on_reject, rejected))
}

// "stopped at event 4 of 12: 41 of 180 bytes read, 139 saved (77.2%)".
fn summary(json: &Value) -> String {
    let n = |key: &str| json.get(key).and_then(Value::as_u64).unwrap_or(0);
    let (events, read, total, saved) = (
        n("events"),
        n("read_bytes"),
        n("total_bytes"),
        n("saved_bytes"),
    );
    let share = if total == 0 {
        0.0
    } else {
        100.0 * saved as f64 / total as f64
    };
    match json.get("stopped_at_event").and_then(Value::as_u64) {
        Some(at) => format!(
            "stopped at event {at} of {events}: {read} of {total} bytes read, {saved} saved ({share:.1}%)"
        ),
        None => format!("not stopped: all {total} bytes of {events} events read"),
    }
}

#[cfg(test)]
mod tests {
    use super::transcript;

    #[test]
    fn a_leading_byte_order_mark_is_skipped_and_the_first_event_read() {
        let text = "\u{feff}data: {\"choices\":[{\"delta\":{\"content\":\"{\"}}]}\n\n\
                    data: {\"choices\":[{\"delta\":{\"content\":\"}\"}}]}\n\n";
        let events = transcript(text).unwrap();
        let contents: Vec<&str> = events.iter().map(|e| e.content.as_str()).collect();
        assert_eq!(contents, ["{", "}"]);
        assert_eq!(events[0].number, 1);
    }
}
