//! A provider API's streamed reply (server-sent events), read from the
//! response body's bytes in any split, as the deltas to push into a
//! [`Stream`](super::Stream): the reply's text, or a tool call's arguments.
//!
//! ```
//! use contract_runtime::Contract;
//! use contract_runtime::schema::Api;
//! use contract_runtime::stream::Progress;
//! use contract_runtime::stream::sse::{Decoder, Output};
//!
//! #[derive(Contract, Debug)]
//! struct Reply { #[contract(max_len = 40)] text: String }
//!
//! // An Anthropic Messages stream, in the pieces a response body gives.
//! let body: [&[u8]; 3] = [
//!     b"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"{\\\"text\\\": \\\"Hel",
//!     b"lo\\\"}\"}}\n\n",
//!     b"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
//! ];
//! let mut decoder = Decoder::new(Api::Anthropic);
//! let mut stream = Reply::stream();
//! for chunk in body {
//!     for delta in decoder.feed(chunk).unwrap() {
//!         assert_eq!(delta.output, Output::Text);
//!         if let Progress::Rejected(_) = stream.push(&delta.text) {
//!             break; // stop reading the body: the model is cancelled
//!         }
//!     }
//! }
//! assert!(decoder.finish().unwrap().is_empty());
//! assert!(stream.finish().is_accept());
//! ```
//!
//! # The four formats
//!
//! | [`Api`] | text deltas | tool-call deltas |
//! |---|---|---|
//! | [`Api::OpenAiChat`] | `choices[i].delta.content` of the choice with `index` 0 | `delta.tool_calls[j].function.arguments`, the call by `tool_calls[j].index`, its `id` and `function.name` from the chunk that starts it |
//! | [`Api::OpenAiResponses`] | `response.output_text.delta` | `response.function_call_arguments.delta`, the call by `output_index` (or `item_id`), named by the `response.output_item.added` of its `function_call` item (`call_id`, `name`) |
//! | [`Api::Anthropic`] | `content_block_delta` with a `text_delta`, in a `text` block | `content_block_delta` with an `input_json_delta`'s `partial_json`, in a `tool_use` block (`id`, `name` from its `content_block_start`) |
//! | [`Api::Gemini`] | `candidates[i].content.parts[].text` of the candidate with `index` 0 (or none), but `thought` parts | a `functionCall` part: its `args` whole, as their JSON text (`{}` when absent), `id` and `name` from the part |
//!
//! Sources: OpenAI's API reference, "Streaming events" of Chat Completions
//! (<https://platform.openai.com/docs/api-reference/chat-streaming>) and of
//! Responses (<https://platform.openai.com/docs/api-reference/responses-streaming>);
//! Anthropic's "Streaming Messages"
//! (<https://docs.claude.com/en/docs/build-with-claude/streaming>); Gemini's
//! `streamGenerateContent` with `alt=sse`
//! (<https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent>).
//!
//! Everything else an API streams (roles, usage, `ping`, reasoning and
//! thinking deltas, signatures, citations, lifecycle events) is read and
//! passed over; an unknown event type is passed over too, so a new event
//! an API adds does not break a reader. Once `data: [DONE]` arrives
//! (Chat Completions' last event) the rest of the body is not read.
//!
//! # Which output a delta is for
//!
//! [`Delta::output`] is [`Output::Text`] for the reply, or
//! [`Output::Call`] with the tool call's [`Call::index`]: its place among
//! the tool calls in the order they start (0, 1, …, whatever number the API
//! gives the call or the content block), with its `id` and `name` once the
//! stream has said them. A reply's text goes to `T::stream()`; a tool
//! call's arguments to the stream of the tool named. A refusal
//! (`delta.refusal`, `response.refusal.delta`) is not the reply: it is kept
//! in [`Decoder::refusal`].
//!
//! # Errors
//!
//! An event whose `data` is not UTF-8, not JSON, not a JSON object, breaks
//! its API's format where the decoder reads (a `content` that is not a
//! string, a delta for a content block never started), is longer than
//! [`MAX_EVENT_BYTES`], or reports an error of the provider's (`error`
//! events, `response.failed`, an `error` member) is an [`Error`] with the
//! event's 1-based number among the events; the decoder never panics. The
//! call that meets it returns the deltas of the events before it, if any,
//! and the next call the error (so [`Decoder::finish`] always reports it);
//! from there on every call returns that error again.
//!
//! # Splits
//!
//! An event is read once its blank line arrives, so the deltas are the
//! same, event by event, however the body is split (a byte at a time, in
//! the middle of a UTF-8 character, between the CR and LF of a line end).
//!
//! The framing is ours, not a crate's: the crates that read server-sent
//! events (`eventsource-stream` among them) wrap an async byte stream,
//! which would tie this module to `futures` and to one way of reading a
//! body, where a decoder fed with bytes serves a blocking client, an async
//! one and a recorded file alike; the framing itself is about a hundred
//! lines (`frame.rs`).
use std::fmt;

use serde_json::Value;

use crate::schema::Api;

mod anthropic;
mod frame;
mod gemini;
mod openai;

pub use frame::MAX_EVENT_BYTES;
use frame::{Frame, Framer};

/// Which output of a reply a delta belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Output {
    /// The reply's text.
    Text,
    /// A tool call's arguments.
    Call(Call),
}

/// A tool call, as far as the stream has said it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// 0-based, among the reply's tool calls in the order they start.
    pub index: usize,
    /// The call's id (OpenAI's `id` or `call_id`, Anthropic's `id`,
    /// Gemini's `id`), once known.
    pub id: Option<String>,
    /// The tool's name, once known.
    pub name: Option<String>,
}

/// A piece of one output, to push into that output's stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delta {
    /// The event it came in, 1-based among the events.
    pub event: usize,
    /// The output it belongs to.
    pub output: Output,
    /// The piece (never empty).
    pub text: String,
}

/// What is wrong with an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A `data` line is not UTF-8.
    NotUtf8,
    /// The event's data is not a JSON object.
    NotJson,
    /// The event breaks its API's format.
    Malformed,
    /// The event is longer than [`MAX_EVENT_BYTES`].
    TooLong,
    /// The provider reports an error in the stream.
    Reported,
}

/// A malformed event, or an error the provider reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The event's 1-based number among the events.
    pub event: usize,
    /// What kind of error.
    pub kind: ErrorKind,
    /// What is wrong, as a predicate of the event: `is not JSON: …`.
    pub message: String,
}

impl Error {
    fn new(event: usize, kind: ErrorKind, message: String) -> Self {
        Error {
            event,
            kind,
            message,
        }
    }

    fn malformed(event: usize, message: impl Into<String>) -> Self {
        Error::new(event, ErrorKind::Malformed, message.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "event {} {}", self.event, self.message)
    }
}

impl std::error::Error for Error {}

/// A key an API names a tool call by.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Key {
    Number(u64),
    Text(String),
    /// A call the API gives no key (a Gemini `functionCall` part): the nth.
    Nth(usize),
}

/// The outputs met so far and the deltas of the event being read.
#[derive(Debug, Default)]
struct Outputs {
    calls: Vec<Call>,
    keys: Vec<Key>,
    /// Anthropic: what each content block is, by its index.
    blocks: Vec<(u64, Block)>,
    refusal: String,
    deltas: Vec<Delta>,
    text_deltas: usize,
}

/// The most of a refusal kept (4 KiB).
const MAX_REFUSAL: usize = 4 << 10;

/// An Anthropic content block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Text,
    Call(usize),
    Other,
}

impl Outputs {
    /// The call the API names by `key`, started now if new.
    fn call(&mut self, key: Key) -> usize {
        if let Some(at) = self.keys.iter().position(|k| *k == key) {
            return at;
        }
        self.keys.push(key);
        self.calls.push(Call {
            index: self.calls.len(),
            id: None,
            name: None,
        });
        self.calls.len() - 1
    }

    /// A new call, whatever its key (Gemini: each part is one).
    fn new_call(&mut self) -> usize {
        self.call(Key::Nth(self.calls.len()))
    }

    fn name(&mut self, call: usize, id: Option<&str>, name: Option<&str>) {
        if let Some(c) = self.calls.get_mut(call) {
            if c.id.is_none() {
                c.id = id.filter(|s| !s.is_empty()).map(str::to_owned);
            }
            if c.name.is_none() {
                c.name = name.filter(|s| !s.is_empty()).map(str::to_owned);
            }
        }
    }

    /// Keeps the refusal's first [`MAX_REFUSAL`] bytes (it is only shown).
    fn refuse(&mut self, text: &str) {
        let room = MAX_REFUSAL.saturating_sub(self.refusal.len());
        let mut end = text.len().min(room);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        self.refusal.push_str(&text[..end]);
    }

    fn text(&mut self, event: usize, text: &str) {
        if !text.is_empty() {
            self.text_deltas += 1;
            self.deltas.push(Delta {
                event,
                output: Output::Text,
                text: text.to_owned(),
            });
        }
    }

    fn arguments(&mut self, event: usize, call: usize, text: &str) {
        if let (false, Some(c)) = (text.is_empty(), self.calls.get(call)) {
            self.deltas.push(Delta {
                event,
                output: Output::Call(c.clone()),
                text: text.to_owned(),
            });
        }
    }
}

/// Reads one API's event stream from its bytes, in any split.
#[derive(Debug)]
pub struct Decoder {
    api: Api,
    framer: Framer,
    outputs: Outputs,
    /// The number of the `data: [DONE]` event, once it has come.
    done: Option<usize>,
    failed: Option<Error>,
    guessed: Option<Api>,
}

impl Decoder {
    /// A decoder of `api`'s event stream.
    pub fn new(api: Api) -> Self {
        Decoder {
            api,
            framer: Framer::new(),
            outputs: Outputs::default(),
            done: None,
            failed: None,
            guessed: None,
        }
    }

    /// The API it reads.
    pub fn api(&self) -> Api {
        self.api
    }

    /// Reads the next bytes of the body; returns the deltas of the events
    /// they complete, in order (up to a malformed event: see the module
    /// docs, "Errors").
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<Delta>, Error> {
        self.run(|framer, each| framer.feed(bytes, each))
    }

    /// The end of the body: reads an event left without its blank line
    /// (see [`Decoder::feed`]) and returns its deltas.
    pub fn finish(&mut self) -> Result<Vec<Delta>, Error> {
        self.run(|framer, each| framer.finish(each))
    }

    fn run(
        &mut self,
        frame: impl FnOnce(&mut Framer, &mut dyn FnMut(Frame) -> Result<(), Error>) -> Result<(), Error>,
    ) -> Result<Vec<Delta>, Error> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.done.is_some() {
            return Ok(Vec::new());
        }
        let (api, outputs, done, guessed) = (
            self.api,
            &mut self.outputs,
            &mut self.done,
            &mut self.guessed,
        );
        let result = frame(&mut self.framer, &mut |f: Frame| {
            if done.is_some() {
                return Ok(());
            }
            if f.data == "[DONE]" {
                *done = Some(f.number);
                return Ok(());
            }
            let value = json_object(&f)?;
            if guessed.is_none() {
                *guessed = guess(&value);
            }
            read(api, f.number, &value, outputs)
        });
        let deltas = std::mem::take(&mut self.outputs.deltas);
        match result {
            Ok(()) => Ok(deltas),
            Err(e) => {
                self.failed = Some(e.clone());
                // The deltas of the events before it first: the error
                // comes at the next call, so every split gives the same
                // deltas, then the same error.
                if deltas.is_empty() {
                    Err(e)
                } else {
                    Ok(deltas)
                }
            }
        }
    }

    /// The events read so far, up to and with `data: [DONE]`.
    pub fn events(&self) -> usize {
        self.done.unwrap_or_else(|| self.framer.dispatched())
    }

    /// Whether `data: [DONE]` has arrived (nothing after it is read).
    pub fn is_done(&self) -> bool {
        self.done.is_some()
    }

    /// The tool calls met so far, by [`Call::index`].
    pub fn calls(&self) -> &[Call] {
        &self.outputs.calls
    }

    /// How many text deltas were read so far.
    pub fn text_deltas(&self) -> usize {
        self.outputs.text_deltas
    }

    /// The refusal the model streamed instead of a reply, if any (its first
    /// 4 KiB).
    pub fn refusal(&self) -> Option<&str> {
        Some(self.outputs.refusal.as_str()).filter(|r| !r.is_empty())
    }

    /// The API whose format the first event looks like (`None` before an
    /// event, or for an event no API's shape fits): for a message when a
    /// stream was read as the wrong API.
    ///
    /// ```
    /// use contract_runtime::schema::Api;
    /// use contract_runtime::stream::sse::Decoder;
    ///
    /// let mut decoder = Decoder::new(Api::OpenAiChat);
    /// decoder.feed(b"data: {\"type\":\"message_start\",\"message\":{}}\n\n").unwrap();
    /// assert_eq!(decoder.text_deltas(), 0);
    /// assert_eq!(decoder.guessed_api(), Some(Api::Anthropic));
    /// ```
    pub fn guessed_api(&self) -> Option<Api> {
        self.guessed
    }
}

/// Every delta of a whole body (a recorded transcript): [`Decoder::feed`]
/// then [`Decoder::finish`].
///
/// ```
/// use contract_runtime::schema::Api;
/// use contract_runtime::stream::sse::{decode, Output};
///
/// let body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"{}\"}}]}\n\ndata: [DONE]\n\n";
/// let deltas = decode(Api::OpenAiChat, body.as_bytes()).unwrap();
/// assert_eq!((deltas[0].event, &deltas[0].output, deltas[0].text.as_str()), (1, &Output::Text, "{}"));
/// ```
pub fn decode(api: Api, body: &[u8]) -> Result<Vec<Delta>, Error> {
    let mut decoder = Decoder::new(api);
    let mut deltas = decoder.feed(body)?;
    deltas.extend(decoder.finish()?);
    Ok(deltas)
}

fn json_object(frame: &Frame) -> Result<Value, Error> {
    let value: Value = serde_json::from_str(&frame.data).map_err(|e| {
        Error::new(
            frame.number,
            ErrorKind::NotJson,
            format!("is not JSON: {e}"),
        )
    })?;
    if value.is_object() {
        Ok(value)
    } else {
        Err(Error::new(
            frame.number,
            ErrorKind::NotJson,
            "is not a JSON object".to_owned(),
        ))
    }
}

fn read(api: Api, event: usize, value: &Value, outputs: &mut Outputs) -> Result<(), Error> {
    match api {
        Api::OpenAiChat => openai::chat(event, value, outputs),
        Api::OpenAiResponses => openai::responses(event, value, outputs),
        Api::Anthropic => anthropic::read(event, value, outputs),
        Api::Gemini => gemini::read(event, value, outputs),
    }
}

/// The API an event's shape belongs to.
fn guess(value: &Value) -> Option<Api> {
    let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
    if kind.starts_with("response.") {
        Some(Api::OpenAiResponses)
    } else if kind.starts_with("message_") || kind.starts_with("content_block_") {
        Some(Api::Anthropic)
    } else if value.get("candidates").is_some() || value.get("usageMetadata").is_some() {
        Some(Api::Gemini)
    } else if value.get("choices").is_some() {
        Some(Api::OpenAiChat)
    } else {
        None
    }
}

/// `value[key]` as a string: absent or `null` is `None`, another type an
/// error naming `what`.
fn string<'v>(
    event: usize,
    value: &'v Value,
    key: &str,
    what: &str,
) -> Result<Option<&'v str>, Error> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(Error::malformed(
            event,
            format!("has a {what} that is not a string"),
        )),
    }
}

/// `value[key]` as an index: absent or `null` is `None`.
fn index(event: usize, value: &Value, key: &str, what: &str) -> Result<Option<u64>, Error> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| Error::malformed(event, format!("has a {what} that is not an index"))),
    }
}

/// `value[key]` as an array: absent or `null` is empty.
fn array<'v>(event: usize, value: &'v Value, key: &str, what: &str) -> Result<&'v [Value], Error> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(Error::malformed(
            event,
            format!("has {what} that is not an array"),
        )),
    }
}

/// An error the provider reports: its `message` where it has one.
fn reported(event: usize, error: &Value) -> Error {
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| error.to_string());
    Error::new(
        event,
        ErrorKind::Reported,
        format!("reports an error of the provider: {message}"),
    )
}

#[cfg(test)]
mod tests;
