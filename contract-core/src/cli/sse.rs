//! Replay mode (`--sse FILE [--api API]`): a recorded model stream
//! (server-sent events of one of the four APIs [`crate::stream::sse`]
//! reads) pushed delta by delta through the contract's stream, as a caller
//! that stops the model at the first rejection would. Prints the event it
//! would stop at, the bytes of the output that saves, and the decision.
use std::io::Write;

use serde_json::{Map, Value, json};

use super::args::{CheckArgs, Input, OutputFormat};
use super::check::checker;
use super::checker::Replay;
use super::entry::{Entry, ToolCalls};
use super::failure::{Failure, UsageError, exit_code, usage};
use super::output::{decision_json, write_decision, write_header};
use super::read::read_text;
use crate::schema::Api;
use crate::stream::sse::{Decoder, Delta, Output};

/// The largest transcript read (16 MiB).
pub const MAX_TRANSCRIPT_BYTES: usize = 16 << 20;

/// One event of a transcript: its 1-based number and the reply's text it
/// carries (empty for an event without any, such as the first one of a
/// chat completion, which carries the role).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// 1-based, among the `data:` events.
    pub number: usize,
    /// The text deltas of the event, joined (`choices[0].delta.content`
    /// for a chat completion), or empty.
    pub content: String,
}

/// The events of a chat-completions transcript, up to `data: [DONE]`:
/// [`transcript_for`] with [`Api::OpenAiChat`].
pub fn transcript(text: &str) -> Result<Vec<Event>, UsageError> {
    transcript_for(text, Api::OpenAiChat)
}

/// The events of a transcript streamed by `api`, up to `data: [DONE]`,
/// each with the reply's text it carries ([`crate::stream::sse`] reads
/// them: line ends, comments, multi-line `data`, a leading byte-order
/// mark). A malformed event is a usage error naming its number; so is a
/// transcript that carries no delta of the reply's text, which says what
/// it carries instead (tool calls, a refusal, another API's events).
pub fn transcript_for(text: &str, api: Api) -> Result<Vec<Event>, UsageError> {
    let (decoder, deltas) = read(text, api)?;
    reply(&decoder, &deltas)
}

/// Every delta of a transcript, and the decoder that read them (its calls,
/// its count of events).
fn read(text: &str, api: Api) -> Result<(Decoder, Vec<Delta>), UsageError> {
    let mut decoder = Decoder::new(api);
    let mut deltas = decoder.feed(text.as_bytes()).map_err(event_error)?;
    deltas.extend(decoder.finish().map_err(event_error)?);
    Ok((decoder, deltas))
}

/// The events before `data: [DONE]`.
fn event_count(decoder: &Decoder) -> usize {
    decoder.events() - usize::from(decoder.is_done())
}

/// The reply's text per event, or the usage error of a transcript that is
/// not a reply.
fn reply(decoder: &Decoder, deltas: &[Delta]) -> Result<Vec<Event>, UsageError> {
    let count = event_count(decoder);
    let mut events: Vec<Event> = (1..=count)
        .map(|number| Event {
            number,
            content: String::new(),
        })
        .collect();
    for delta in deltas {
        if let (Output::Text, Some(event)) = (&delta.output, events.get_mut(delta.event - 1)) {
            event.content.push_str(&delta.text);
        }
    }
    if decoder.text_deltas() == 0 || !decoder.calls().is_empty() {
        return Err(usage(no_reply(decoder, count)));
    }
    Ok(events)
}

fn event_error(e: crate::stream::sse::Error) -> UsageError {
    usage(format!("event {} of the transcript {}", e.event, e.message))
}

/// What a transcript that is not a reply carries (no text delta, or tool
/// calls: a reply's contract does not check them), for the usage error.
fn no_reply(decoder: &Decoder, events: usize) -> String {
    let api = decoder.api();
    let calls = decoder.calls();
    let events = count(events, "event");
    let head = if calls.is_empty() {
        format!("the transcript carries no delta of the reply's text ({api}, {events})")
    } else {
        format!("the transcript is a tool-call response ({api}, {events})")
    };
    if let Some(refusal) = decoder.refusal() {
        return format!("{head}: the model refused: {refusal:?}");
    }
    if !calls.is_empty() {
        let names: Vec<&str> = calls
            .iter()
            .map(|c| c.name.as_deref().unwrap_or("(unnamed)"))
            .collect();
        let text = match decoder.text_deltas() {
            0 => String::new(),
            n => format!(" (and {} beside them)", count(n, "text delta")),
        };
        return format!(
            "{head}: it holds {} ({}){text}, not a reply, and this contract checks no tool calls",
            count(calls.len(), "tool call"),
            names.join(", ")
        );
    }
    match decoder.guessed_api() {
        Some(guess) if guess != api => {
            format!("{head}: its events are {guess}'s; give --api {guess}")
        }
        _ => head,
    }
}

/// `n` and `thing`, plural unless `n` is 1 ("1 event", "2 events").
fn count(n: usize, thing: &str) -> String {
    let plural = if n == 1 { "" } else { "s" };
    format!("{n} {thing}{plural}")
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
    entries: &[Entry],
    args: &CheckArgs<'_>,
    api: Api,
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
    let (decoder, deltas) = read(&text, api)?;
    if let (Some(replay_call), false) = (args.contract.tool_calls, decoder.calls().is_empty()) {
        return run_calls(args, replay_call, &decoder, &deltas, stdout, stderr);
    }
    let events = reply(&decoder, &deltas).map_err(|e| {
        if decoder.calls().is_empty() {
            return e;
        }
        // Name the contracts of this program that do check tool calls.
        let others: Vec<&str> = entries
            .iter()
            .filter(|entry| entry.tool_calls.is_some())
            .map(Entry::name)
            .collect();
        match others.as_slice() {
            [] => e,
            names => usage(format!(
                "{e}: replay it with one that does ({})",
                names.join(", ")
            )),
        }
    })?;
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

/// `--sse` over a tool-call response, with an entry that checks tool
/// calls: each call's argument deltas replayed through its tool's stream,
/// one JSON object per call (`call`, `id`, `name`, then [`replay_json`]'s
/// keys), one summary line per call on stderr.
fn run_calls(
    args: &CheckArgs<'_>,
    replay_call: ToolCalls,
    decoder: &Decoder,
    deltas: &[Delta],
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let mut rejected = false;
    if args.format == OutputFormat::Table {
        write_header(stdout, OutputFormat::Table)?;
    }
    for call in decoder.calls() {
        let events: Vec<Event> = deltas
            .iter()
            .filter(|d| matches!(&d.output, Output::Call(c) if c.index == call.index))
            .map(|d| Event {
                number: d.event,
                content: d.text.clone(),
            })
            .collect();
        let pieces: Vec<&str> = events.iter().map(|e| e.content.as_str()).collect();
        let name = call.name.as_deref().unwrap_or("");
        let replay = replay_call(name, &pieces);
        rejected |= replay.decision.outcome == crate::OutcomeKind::Reject;
        let mut json = Map::new();
        json.insert("call".into(), json!(call.index));
        json.insert("id".into(), json!(call.id));
        json.insert("name".into(), json!(call.name));
        if let Value::Object(rest) = replay_json(&events, &replay) {
            json.extend(rest);
        }
        json.insert("events".into(), json!(event_count(decoder)));
        let json = Value::Object(json);
        match args.format {
            OutputFormat::Jsonl => writeln!(stdout, "{json}")?,
            OutputFormat::Table => {
                write_decision(
                    stdout,
                    OutputFormat::Table,
                    call.index as u64 + 1,
                    &replay.decision,
                )?;
            }
        }
        writeln!(
            stderr,
            "{}: call {} ({name}): {}",
            args.contract.name(),
            call.index,
            summary(&json)
        )?;
    }
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

    #[test]
    fn a_transcript_without_text_says_what_it_holds() {
        use super::transcript_for;
        use crate::schema::Api;

        let calls = "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"triage\",\"arguments\":\"{}\"}}]}}]}\n\ndata: [DONE]\n\n";
        let e = transcript_for(calls, Api::OpenAiChat)
            .unwrap_err()
            .to_string();
        assert!(e.contains("a tool-call response (openai-chat, 1 event): it holds 1 tool call (triage), not a reply, and this contract checks no tool calls"), "{e}");
        let anthropic =
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n";
        let e = transcript_for(anthropic, Api::OpenAiChat)
            .unwrap_err()
            .to_string();
        assert!(
            e.ends_with("its events are anthropic's; give --api anthropic"),
            "{e}"
        );
        let e = transcript_for("", Api::Gemini).unwrap_err().to_string();
        assert!(e.ends_with("(gemini, 0 events)"), "{e}");
    }
}
