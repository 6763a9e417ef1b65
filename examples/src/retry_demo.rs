//! From decision to action, for the vacation contract (seed 004): a bounded
//! retry with redacted feedback, then the accepted decision's idempotency
//! key and a booking that refuses to happen twice.
//!
//! ```sh
//! cargo run -q -p contract-examples --example retry
//! ```
//!
//! There is no real model: [`ScriptedModel`] answers with a fixed sequence
//! of outputs ([`SCRIPT`]: an invalid one, an inconsistent one, then a
//! valid one) and records the feedback it was sent.
//! [`retry`](contract_runtime::retry::retry) asks it at most
//! [`MAX_ATTEMPTS`] times and stops at the first output that is not
//! rejected. Between attempts the model receives the rejection's
//! [`Feedback`] — pointers, codes and what was expected, never the rejected
//! values. The accepted request's
//! [`idempotency_key`](Contract::idempotency_key) (contract name, version,
//! canonical document, scoped by the employee) is what [`LeaveCalendar`]
//! records before booking, so a replay of the same decision books nothing.
//!
//! ```
//! use contract_examples::retry_demo::{self, MAX_ATTEMPTS, SCOPE, SCRIPT};
//!
//! let run = retry_demo::run(&SCRIPT, MAX_ATTEMPTS, SCOPE).unwrap();
//! assert_eq!(run.retried.attempts.len(), 3);
//! assert_eq!(run.retried.outcome.kind().as_str(), "accept");
//! // The first call had no feedback; the next two had the last rejection's.
//! assert!(run.received[0].is_none());
//! assert_eq!(run.received[1].as_ref().unwrap().items[0].code, "not_one_of");
//! assert!(run.key.is_some());
//! ```
use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};

use contract_runtime::retry::{self, ModelFailed, Retried};
use contract_runtime::{Contract, Feedback, IdempotencyKey, Outcome};

use crate::vacation::VacationRequest;

/// The scripted model's outputs, in the order it gives them.
pub const SCRIPT: [&str; 3] = [
    // Invalid: a status the contract does not know, and two dates that are
    // not `YYYY-MM-DD` (schema stage).
    r#"{"status":"approved","start_date":"14/06/2027","end_date":"next Friday","clarification_question":null}"#,
    // Inconsistent: schema-valid, but a complete request must not ask a
    // question, and it ends before it starts (rule stage).
    r#"{"status":"complete","start_date":"2027-06-21","end_date":"2027-06-17","clarification_question":"Which week did you mean?"}"#,
    // Valid.
    r#"{"status":"complete","start_date":"2027-06-14","end_date":"2027-06-18","clarification_question":null}"#,
];

/// How many times the model is asked at most.
pub const MAX_ATTEMPTS: usize = 3;

/// The scope of the idempotency key: who asked (from the authenticated
/// session, never from the model's output).
pub const SCOPE: &str = "employee-4711";

/// The script has no output left for a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptEnded {
    /// The call that found none (1-based).
    pub call: usize,
}

impl fmt::Display for ScriptEnded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the script has no output for call {}", self.call)
    }
}

impl std::error::Error for ScriptEnded {}

/// A fake model: answers each call with the next output of a fixed script,
/// and records the feedback each call received.
#[derive(Debug, Clone, Default)]
pub struct ScriptedModel {
    outputs: Vec<String>,
    received: Vec<Option<Feedback>>,
}

impl ScriptedModel {
    /// A model that will answer with `outputs`, in order.
    pub fn new<I, S>(outputs: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        ScriptedModel {
            outputs: outputs.into_iter().map(Into::into).collect(),
            received: Vec::new(),
        }
    }

    /// One call: records `feedback` and returns the next output.
    pub fn answer(&mut self, feedback: Option<&Feedback>) -> Result<String, ScriptEnded> {
        let call = self.received.len();
        self.received.push(feedback.cloned());
        self.outputs
            .get(call)
            .cloned()
            .ok_or(ScriptEnded { call: call + 1 })
    }

    /// The feedback each call received, in order (`None` for the first).
    pub fn received(&self) -> &[Option<Feedback>] {
        &self.received
    }

    /// The feedback each call received, taken out of the model.
    pub fn into_received(self) -> Vec<Option<Feedback>> {
        self.received
    }
}

/// What [`run`] ends with.
#[derive(Debug)]
pub struct Run {
    /// The loop's result: the final outcome, every attempt's codes, the
    /// last raw output and the per-stage counts.
    pub retried: Retried<VacationRequest>,
    /// The feedback each call received (`None` for the first call).
    pub received: Vec<Option<Feedback>>,
    /// The idempotency key of the accepted request, scoped; `None` unless
    /// the final outcome is `accept` (nothing to act on).
    pub key: Option<IdempotencyKey>,
}

/// Runs the retry loop over `outputs` (at most `max_attempts` calls) and
/// computes the accepted request's idempotency key within `scope`.
// The error keeps the history and the report, as `retry` returns it.
#[allow(clippy::result_large_err)]
pub fn run(
    outputs: &[&str],
    max_attempts: usize,
    scope: &str,
) -> Result<Run, ModelFailed<ScriptEnded>> {
    let mut model = ScriptedModel::new(outputs.iter().copied());
    let retried = retry::retry(max_attempts, VacationRequest::check, |feedback| {
        model.answer(feedback)
    })?;
    let key = match &retried.outcome {
        Outcome::Accept(request) => Some(request.idempotency_key(Some(scope))),
        _ => None,
    };
    Ok(Run {
        retried,
        received: model.into_received(),
        key,
    })
}

/// The same request was booked before (the same idempotency key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlreadyBooked {
    /// The key of the earlier booking.
    pub key: IdempotencyKey,
}

impl fmt::Display for AlreadyBooked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "already booked under idempotency key {}", self.key)
    }
}

impl std::error::Error for AlreadyBooked {}

/// The action after the decision: a leave calendar that books each
/// idempotency key once.
#[derive(Debug, Clone, Default)]
pub struct LeaveCalendar {
    booked: BTreeMap<IdempotencyKey, VacationRequest>,
}

impl LeaveCalendar {
    /// Books `request` under `key`, unless that key was booked before
    /// (then nothing changes).
    pub fn book(
        &mut self,
        key: IdempotencyKey,
        request: &VacationRequest,
    ) -> Result<(), AlreadyBooked> {
        if self.booked.contains_key(&key) {
            return Err(AlreadyBooked { key });
        }
        self.booked.insert(key, request.clone());
        Ok(())
    }

    /// How many bookings were made.
    pub fn len(&self) -> usize {
        self.booked.len()
    }

    /// Whether nothing was booked.
    pub fn is_empty(&self) -> bool {
        self.booked.is_empty()
    }
}

fn indent(out: &mut dyn Write, prefix: &str, text: &str) -> io::Result<()> {
    for line in text.lines() {
        writeln!(out, "{prefix}{line}")?;
    }
    Ok(())
}

/// Prints each attempt (number, outcome, error codes), the feedback sent
/// after it, and the final decision with its idempotency key.
pub fn print(run: &Run, max_attempts: usize, scope: &str, out: &mut dyn Write) -> io::Result<()> {
    let retried = &run.retried;
    for attempt in &retried.attempts {
        writeln!(
            out,
            "attempt {} of {max_attempts}: {}",
            attempt.number,
            attempt.outcome.as_str()
        )?;
        for (stage, pointer, code) in &attempt.errors {
            let pointer = if pointer.is_empty() {
                "(root)"
            } else {
                pointer
            };
            writeln!(out, "  {:<8} {pointer:<26} {code}", stage.as_str())?;
        }
        // Call n + 1 received the feedback on attempt n.
        if let Some(Some(feedback)) = run.received.get(attempt.number) {
            writeln!(out, "  feedback sent with attempt {}:", attempt.number + 1)?;
            indent(out, "  | ", &feedback.to_string())?;
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "final decision after {} attempt(s): {}",
        retried.attempts.len(),
        retried.outcome.kind().as_str()
    )?;
    match retried.outcome.value() {
        Some(request) => writeln!(out, "  {}", request.to_json())?,
        None => writeln!(
            out,
            "  no action: the last output is kept for the logs ({} bytes)",
            retried.last_output.len()
        )?,
    }
    if let Some(key) = &run.key {
        writeln!(
            out,
            "idempotency key ({} v{}, scope {scope}): {key}",
            VacationRequest::NAME,
            VacationRequest::VERSION
        )?;
    }
    writeln!(out)?;
    writeln!(out, "per stage, over the attempts:")?;
    indent(out, "  ", &retried.report.to_string())
}

/// The whole example, as `cargo run --example retry` runs it: the loop over
/// [`SCRIPT`], the printout, then booking the accepted request twice (the
/// second time refused). Returns the process exit code: 0, or 1 if the
/// script ran out or the second booking was not refused.
pub fn main_with(out: &mut dyn Write) -> io::Result<i32> {
    let run = match run(&SCRIPT, MAX_ATTEMPTS, SCOPE) {
        Ok(run) => run,
        Err(failed) => {
            writeln!(out, "{failed}")?;
            return Ok(1);
        }
    };
    print(&run, MAX_ATTEMPTS, SCOPE, out)?;
    let (Some(key), Outcome::Accept(request)) = (run.key, &run.retried.outcome) else {
        writeln!(out, "\nnothing to book")?;
        return Ok(0);
    };
    let mut calendar = LeaveCalendar::default();
    writeln!(out)?;
    match calendar.book(key, request) {
        Ok(()) => writeln!(out, "booked under key {key}")?,
        Err(e) => {
            writeln!(out, "first booking refused: {e}")?;
            return Ok(1);
        }
    }
    // The client sends the same decision again (a timeout, a double click).
    match calendar.book(key, request) {
        Ok(()) => {
            writeln!(out, "the same decision again: booked twice (a bug)")?;
            Ok(1)
        }
        Err(e) => {
            writeln!(out, "the same decision again: refused ({e})")?;
            writeln!(out, "bookings: {}", calendar.len())?;
            Ok(0)
        }
    }
}
