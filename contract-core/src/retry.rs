//! A bounded retry loop around the caller's own model call.
//!
//! The library holds no model client: the caller passes a closure that asks
//! the model (first with no feedback, then with the [`Feedback`] of the last
//! rejection) and returns its raw text. The loop stops at the first output
//! that is not rejected — it never goes on looking for a "better" one — and
//! after the last attempt returns the last rejection. Either way the caller
//! gets the history of every attempt (outcome and error codes, never values)
//! and the last raw output: nothing is lost.
use std::future::Future;

use crate::contract::Contract;
use crate::error::Stage;
use crate::feedback::Feedback;
use crate::outcome::{Outcome, OutcomeKind};
use crate::report::Report;

/// One attempt, as recorded in the history: codes and pointers only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// 1 for the first call.
    pub number: usize,
    /// The decision on this attempt's output.
    pub outcome: OutcomeKind,
    /// `(stage, pointer, code)` of each error when rejected.
    pub errors: Vec<(Stage, String, &'static str)>,
}

/// What the loop ends with.
#[derive(Debug)]
pub struct Retried<T> {
    /// The final decision (the last attempt's).
    pub outcome: Outcome<T>,
    /// Every attempt, in order.
    pub attempts: Vec<Attempt>,
    /// The last raw output of the model, kept for the caller's logs.
    pub last_output: String,
    /// Per-stage counts over the attempts.
    pub report: Report,
}

/// The model call failed; the attempts made so far are kept.
#[derive(Debug)]
pub struct ModelFailed<E> {
    /// The caller's error.
    pub error: E,
    /// Attempts completed before the failure.
    pub attempts: Vec<Attempt>,
    /// Per-stage counts over those attempts.
    pub report: Report,
}

impl<E: std::fmt::Display> std::fmt::Display for ModelFailed<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the model call failed after {} attempt(s): {}",
            self.attempts.len(),
            self.error
        )
    }
}

impl<E: std::fmt::Debug + std::fmt::Display> std::error::Error for ModelFailed<E> {}

struct Loop {
    attempts: Vec<Attempt>,
    report: Report,
    feedback: Option<Feedback>,
}

impl Loop {
    fn new() -> Self {
        Loop {
            attempts: Vec::new(),
            report: Report::new(),
            feedback: None,
        }
    }

    // Records one output; `true` when the loop should stop.
    fn record<T>(&mut self, outcome: &Outcome<T>) -> bool {
        self.report.record(outcome);
        let errors = outcome
            .rejection()
            .map(|r| {
                r.errors
                    .iter()
                    .map(|e| (e.stage, e.pointer.as_str().to_owned(), e.code))
                    .collect()
            })
            .unwrap_or_default();
        self.attempts.push(Attempt {
            number: self.attempts.len() + 1,
            outcome: outcome.kind(),
            errors,
        });
        self.feedback = outcome.rejection().map(|r| r.feedback());
        !outcome.is_reject()
    }

    fn finish<T>(self, outcome: Outcome<T>, last_output: String) -> Retried<T> {
        Retried {
            outcome,
            attempts: self.attempts,
            last_output,
            report: self.report,
        }
    }

    fn failed<E>(self, error: E) -> ModelFailed<E> {
        ModelFailed {
            error,
            attempts: self.attempts,
            report: self.report,
        }
    }
}

/// Asks the model up to `max_attempts` times (at least once), checking each
/// output with `check` (for example `|raw| T::check_with(raw, &ctx)`).
///
/// ```
/// use contract_runtime::{Contract, retry};
///
/// #[derive(Contract, Debug)]
/// struct Answer { #[contract(min = 1)] ticket_id: u64 }
///
/// let mut outputs = vec![r#"{"ticket_id": "7"}"#, r#"{"ticket_id": 7}"#].into_iter();
/// let result = retry::retry(3, Answer::check, |feedback| {
///     // A real caller adds `feedback` (redacted) to the prompt.
///     let _ = feedback;
///     outputs.next().map(str::to_owned).ok_or("no more outputs")
/// })
/// .unwrap();
/// assert_eq!(result.outcome.kind().as_str(), "accept");
/// assert_eq!(result.attempts.len(), 2);
/// assert_eq!(result.attempts[0].errors[0].2, "invalid_type");
/// ```
// The error keeps the history and report on purpose: returned once per loop.
#[allow(clippy::result_large_err)]
pub fn retry<T, E>(
    max_attempts: usize,
    check: impl Fn(&str) -> Outcome<T>,
    mut model: impl FnMut(Option<&Feedback>) -> Result<String, E>,
) -> Result<Retried<T>, ModelFailed<E>>
where
    T: Contract,
{
    let mut state = Loop::new();
    loop {
        let raw = match model(state.feedback.as_ref()) {
            Ok(raw) => raw,
            Err(error) => return Err(state.failed(error)),
        };
        let outcome = check(&raw);
        if state.record(&outcome) || state.attempts.len() >= max_attempts {
            return Ok(state.finish(outcome, raw));
        }
    }
}

/// [`retry`] with an async model call (any executor; no runtime is pulled in).
#[allow(clippy::result_large_err)]
pub async fn retry_async<T, E, F, Fut>(
    max_attempts: usize,
    check: impl Fn(&str) -> Outcome<T>,
    mut model: F,
) -> Result<Retried<T>, ModelFailed<E>>
where
    T: Contract,
    F: FnMut(Option<Feedback>) -> Fut,
    Fut: Future<Output = Result<String, E>>,
{
    let mut state = Loop::new();
    loop {
        let raw = match model(state.feedback.clone()).await {
            Ok(raw) => raw,
            Err(error) => return Err(state.failed(error)),
        };
        let outcome = check(&raw);
        if state.record(&outcome) || state.attempts.len() >= max_attempts {
            return Ok(state.finish(outcome, raw));
        }
    }
}

crate::serial::struct_fields!(Attempt {
    number,
    outcome,
    errors
});

#[cfg(test)]
mod tests {
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    use super::*;

    #[derive(crate::Contract, Debug)]
    struct Answer {
        #[contract(min = 1)]
        ticket_id: u64,
    }

    #[test]
    fn stops_at_the_first_output_that_is_not_rejected() {
        let mut calls = 0;
        let result = retry(5, Answer::check, |_| {
            calls += 1;
            Ok::<_, ()>(r#"{"ticket_id": 3}"#.to_owned())
        })
        .unwrap();
        assert_eq!(calls, 1);
        assert_eq!(result.outcome.kind(), OutcomeKind::Accept);
    }

    #[test]
    fn gives_up_after_the_last_attempt_keeping_history_and_output() {
        let mut seen_feedback = Vec::new();
        let result = retry(3, Answer::check, |feedback| {
            seen_feedback.push(feedback.map(|f| f.items[0].code));
            Ok::<_, ()>(r#"{"ticket_id": 0}"#.to_owned())
        })
        .unwrap();
        assert_eq!(result.attempts.len(), 3);
        assert_eq!(result.outcome.kind(), OutcomeKind::Reject);
        assert_eq!(result.last_output, r#"{"ticket_id": 0}"#);
        assert_eq!(
            seen_feedback,
            [None, Some("below_minimum"), Some("below_minimum")]
        );
        assert!(
            result
                .attempts
                .iter()
                .all(|a| a.errors == [(Stage::Schema, "/ticket_id".to_owned(), "below_minimum")])
        );
    }

    #[test]
    fn a_model_failure_keeps_the_attempts() {
        let mut n = 0;
        let err = retry(3, Answer::check, |_| {
            n += 1;
            if n == 1 {
                Ok(r#"{"ticket_id": "x"}"#.to_owned())
            } else {
                Err("timeout")
            }
        })
        .unwrap_err();
        assert_eq!(err.error, "timeout");
        assert_eq!(err.attempts.len(), 1);
    }

    #[test]
    fn zero_attempts_still_asks_once() {
        let result = retry(0, Answer::check, |_| Ok::<_, ()>("{}".to_owned())).unwrap();
        assert_eq!(result.attempts.len(), 1);
    }

    #[test]
    fn the_async_loop_behaves_the_same() {
        let mut outputs = vec!["nope", r#"{"ticket_id": 9}"#].into_iter();
        let fut = retry_async(3, Answer::check, |_fb| {
            let next = outputs.next().map(str::to_owned).ok_or(());
            async move { next }
        });
        let mut fut = pin!(fut);
        let mut cx = Context::from_waker(Waker::noop());
        let Poll::Ready(result) = fut.as_mut().poll(&mut cx) else {
            panic!("ready futures complete at once");
        };
        let result = result.unwrap();
        assert_eq!(result.attempts.len(), 2);
        assert_eq!(result.attempts[0].outcome, OutcomeKind::Reject);
        assert_eq!(result.outcome.kind(), OutcomeKind::Accept);
    }
}
