//! A reply checked while its HTTP response body streams: the body is a
//! `futures::Stream` of byte chunks (what `reqwest::Response::bytes_stream`
//! gives), its server-sent events are read by
//! `contract_runtime::stream::sse::Decoder` whatever the chunks' sizes, each
//! delta of the reply's text is pushed into `VacationRequest::stream()`, and
//! the body is dropped — the request cancelled — at the first rejection.
//! Here the body is a recorded Anthropic Messages transcript cut into
//! 64-byte chunks; a real client passes `response.bytes_stream()`.
//!
//! ```sh
//! cargo run -q -p contract-examples --example sse_stream
//! ```
use std::future::Future;
use std::pin::pin;
use std::process::ExitCode;
use std::task::{Context, Poll, Waker};

use contract_examples::vacation::VacationRequest;
use contract_runtime::schema::Api;
use contract_runtime::stream::Progress;
use contract_runtime::stream::sse::{Decoder, Output};
use contract_runtime::{Contract, OutcomeKind, Rejection};
use futures_util::{Stream, StreamExt, stream};

const CLARIFY: &[u8] = include_bytes!("../data/vacation.clarify.anthropic.sse");
const UNKNOWN_KEY: &[u8] = include_bytes!("../data/vacation.unknown-key.anthropic.sse");

/// How a streamed reply ended.
#[derive(Debug)]
pub enum Ended {
    /// Stopped at the first rejection: the event it came in and the bytes
    /// of the body read until then.
    Rejected {
        /// The event whose delta was rejected (1-based).
        event: usize,
        /// The body's bytes read.
        body_read: usize,
        /// What the prefix already decides.
        rejection: Rejection,
    },
    /// The whole body was read: the decision on the whole reply.
    Finished(OutcomeKind),
}

/// Why the body could not be read.
#[derive(Debug)]
pub enum BodyError<E> {
    /// The transport failed (the HTTP client's error).
    Transport(E),
    /// An event is malformed, or the provider reported an error.
    Event(contract_runtime::stream::sse::Error),
}

/// Reads `body` as `api`'s event stream and checks the reply while it
/// arrives; returns at the first rejection without reading further.
pub async fn check_body<S, B, E>(api: Api, body: S) -> Result<Ended, BodyError<E>>
where
    S: Stream<Item = Result<B, E>>,
    B: AsRef<[u8]>,
{
    let mut body = pin!(body);
    let mut decoder = Decoder::new(api);
    let mut stream = VacationRequest::stream();
    let mut body_read = 0;
    loop {
        let (deltas, last) = match body.next().await {
            Some(chunk) => {
                let chunk = chunk.map_err(BodyError::Transport)?;
                body_read += chunk.as_ref().len();
                (decoder.feed(chunk.as_ref()), false)
            }
            None => (decoder.finish(), true),
        };
        for delta in deltas.map_err(BodyError::Event)? {
            // A tool call's arguments would go to the stream of its tool.
            if delta.output != Output::Text {
                continue;
            }
            if let Progress::Rejected(rejection) = stream.push(&delta.text) {
                // Returning drops `body`: the connection closes and the
                // model stops generating.
                return Ok(Ended::Rejected {
                    event: delta.event,
                    body_read,
                    rejection,
                });
            }
        }
        if last {
            return Ok(Ended::Finished(stream.finish().kind()));
        }
    }
}

/// The recorded body cut into `chunk`-byte pieces, as a `Stream`.
pub fn recorded(
    body: &'static [u8],
    chunk: usize,
) -> impl Stream<Item = Result<&'static [u8], std::io::Error>> {
    stream::iter(body.chunks(chunk).map(Ok))
}

/// Runs a future that never waits on anything outside it (the recorded
/// body is always ready) to its end.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
    }
}

/// Both recorded replies, as the example prints them.
pub fn run() -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    for (name, body) in [
        ("vacation.clarify.anthropic.sse", CLARIFY),
        ("vacation.unknown-key.anthropic.sse", UNKNOWN_KEY),
    ] {
        let ended = block_on(check_body(Api::Anthropic, recorded(body, 64)))
            .map_err(|e| format!("{name}: {e:?}"))?;
        lines.push(match ended {
            Ended::Rejected {
                event,
                body_read,
                rejection,
            } => {
                let e = &rejection.errors[0];
                format!(
                    "{name}: stopped at event {event} ({body_read} of {} body bytes read): {} at {}",
                    body.len(),
                    e.code,
                    e.pointer
                )
            }
            Ended::Finished(kind) => format!("{name}: read whole, {}", kind.as_str()),
        });
    }
    Ok(lines)
}

fn main() -> ExitCode {
    match run() {
        Ok(lines) => {
            for line in lines {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("sse_stream: {e}");
            ExitCode::FAILURE
        }
    }
}
