//! A contract with its setup bound, behind one type-erased interface: a
//! [`Checker`] turns one document into a [`Decision`] (what the command
//! prints for a line), or a streamed document into a [`Replay`].
use std::fmt;

use serde::Serialize;

use crate::json::Limits;
use crate::stream::{Progress, Stream};
use crate::{Contract, Error, Outcome, OutcomeKind, Rejection, Stage, Violation};

/// The decision on one document, without the typed value: what the command
/// prints for each line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// `accept`, `clarify`, `decline`, `review` or `reject`.
    pub outcome: OutcomeKind,
    /// Every error of a rejection (empty otherwise).
    pub errors: Vec<Error>,
    /// How many further errors a rejection found but did not keep.
    pub omitted: usize,
    /// Why a person should review (empty unless `review`).
    pub reasons: Vec<Violation>,
    /// In edit mode, the changed pointers (for a rejected candidate that
    /// parsed, the pointers it would have changed; empty if it did not
    /// parse); `None` outside edit mode.
    pub changed: Option<Vec<String>>,
}

impl Decision {
    /// The decision an outcome stands for.
    pub fn from_outcome<T>(outcome: Outcome<T>) -> Self {
        match outcome {
            Outcome::Reject(rejection) => Decision::from_rejection(rejection),
            Outcome::Review { reasons, .. } => Decision {
                reasons,
                ..Decision::of(OutcomeKind::Review)
            },
            other => Decision::of(other.kind()),
        }
    }

    /// A rejection.
    pub fn from_rejection(rejection: Rejection) -> Self {
        Decision {
            errors: rejection.errors,
            omitted: rejection.omitted,
            ..Decision::of(OutcomeKind::Reject)
        }
    }

    pub(super) fn of(outcome: OutcomeKind) -> Self {
        Decision {
            outcome,
            errors: Vec::new(),
            omitted: 0,
            reasons: Vec::new(),
            changed: None,
        }
    }

    /// The earliest stage that failed, for a rejection.
    pub fn rejected_at(&self) -> Option<Stage> {
        self.errors.iter().map(|e| e.stage).min()
    }
}

pub(super) type CheckFn = Box<dyn Fn(&str) -> Decision + Send + Sync>;

pub(super) type ReplayFn = Box<dyn Fn(&[&str]) -> Replay + Send + Sync>;

/// A document that arrived in pieces, pushed through the contract's
/// [`Stream`] as a caller that stops the model at the first rejection
/// would: where it stopped, and the decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Replay {
    /// The index (0-based) of the piece whose push was rejected; `None`
    /// when every piece was pushed.
    pub stopped_at: Option<usize>,
    /// The bytes pushed: up to and including the rejected piece, or all.
    pub read: usize,
    /// The bytes of all the pieces.
    pub total: usize,
    /// The rejection that stopped it (what a caller that stops the model
    /// has), or `finish()` on every piece.
    pub decision: Decision,
}

/// Pushes `pieces` into `stream` until one is rejected (the decision is
/// then that rejection), or finishes it.
pub fn replay<T: Contract>(mut stream: Stream<'_, T>, pieces: &[&str]) -> Replay {
    let total = pieces.iter().map(|p| p.len()).sum();
    for (i, piece) in pieces.iter().enumerate() {
        if let Progress::Rejected(rejection) = stream.push(piece) {
            return Replay {
                stopped_at: Some(i),
                read: stream.received(),
                total,
                decision: Decision::from_rejection(rejection),
            };
        }
    }
    Replay {
        stopped_at: None,
        read: stream.received(),
        total,
        decision: Decision::from_outcome(stream.finish()),
    }
}

/// A contract ready to check documents, with its context, source and edit
/// policy bound. It is `Send + Sync`: `--jobs N` shares one between threads.
pub struct Checker {
    pub(super) limits: Limits,
    pub(super) edit_mode: bool,
    pub(super) check: CheckFn,
    pub(super) replay: Option<ReplayFn>,
}

impl fmt::Debug for Checker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Checker")
            .field("limits", &self.limits)
            .field("edit_mode", &self.edit_mode)
            .finish_non_exhaustive()
    }
}

impl Checker {
    /// A checker of `T` from a check and a replay of its own (edit mode
    /// off).
    pub(super) fn of<T: Contract>(
        check: impl Fn(&str) -> Decision + Send + Sync + 'static,
        replay: impl Fn(&[&str]) -> Replay + Send + Sync + 'static,
    ) -> Checker {
        Checker {
            limits: T::LIMITS,
            edit_mode: false,
            check: Box::new(check),
            replay: Some(Box::new(replay)),
        }
    }

    /// Checks one document through every stage the contract declares.
    pub fn check(&self, document: &str) -> Decision {
        (self.check)(document)
    }

    /// The document that arrived as `pieces`, checked while it streams
    /// (see [`replay`]); `None` in edit mode, which needs the whole
    /// candidate.
    pub fn replay(&self, pieces: &[&str]) -> Option<Replay> {
        self.replay.as_ref().map(|replay| replay(pieces))
    }

    /// The contract's size and depth limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Whether this checker compares against a baseline (its decisions
    /// carry `changed`).
    pub fn edit_mode(&self) -> bool {
        self.edit_mode
    }
}
