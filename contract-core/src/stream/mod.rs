//! Checking a model's output while it is written: [`Stream`] takes the
//! text a piece at a time, says as soon as the prefix can no longer be
//! accepted, shows what has arrived, and at [`Stream::finish`] gives
//! exactly what [`Contract::check`] gives on the whole text.
//!
//! ```
//! use contract_runtime::Contract;
//! use contract_runtime::stream::Progress;
//!
//! #[derive(Contract, Debug)]
//! struct CloseTicket {
//!     #[contract(min = 1)]
//!     ticket_id: u64,
//!     #[contract(min_len = 1, max_len = 200)]
//!     reason: String,
//! }
//!
//! // Pieces as a model streams them, split anywhere.
//! let mut stream = CloseTicket::stream();
//! for piece in [r#"{"ticket_"#, r#"id": 7, "rea"#, r#"son": "do"#] {
//!     assert_eq!(stream.push(piece), Progress::Pending);
//! }
//! assert_eq!(stream.partial(), serde_json::json!({"ticket_id": 7, "reason": "do"}));
//! stream.push(r#"ne"}"#);
//! assert!(stream.finish().is_accept());
//!
//! // An unknown key is decided once the key is complete: stop the model there.
//! let mut stream = CloseTicket::stream();
//! let Progress::Rejected(rejection) = stream.push(r#"{"ticket_id": 7, "note": "#) else {
//!     panic!("the key decides");
//! };
//! assert_eq!((rejection.errors[0].pointer.as_str(), rejection.errors[0].code), ("/note", "unknown_key"));
//! ```
//!
//! # What is decided when
//!
//! [`Stream::push`] never rejects a prefix that some continuation would
//! have accepted, and rejects no later than the end of the offending value
//! (a number ends at the byte after it) wherever the contract's description
//! (each field's Rust type, constraints and rules, as the derive states
//! them) tells the error's pointer and code:
//!
//! | the prefix holds | decided at | code |
//! |---|---|---|
//! | more than `max_bytes` | the push that crosses it (from there on, pieces are only counted) | `too_large` |
//! | a byte that breaks JSON or the strict policy (a stray character, a bad escape, a lone surrogate, a control character, `01`, nesting past `max_depth`, data after the value, `1e400`) | that byte (a number: its end; a duplicate key: its `:`, where the decoder compares it) | the parse error [`Contract::check`] reports there |
//! | a key the contract does not declare | the key's closing quote | `unknown_key` |
//! | a value of a type the field does not take (`"7"` for an integer, `null` for a non-`Option`) | its first byte | `invalid_type` |
//! | a fraction or exponent for an integer field | the `.` or `e` | `invalid_type` |
//! | a string longer than `max_len` | the piece that passes the limit | `too_long` |
//! | a string that no `one_of`, enum or `equals` value starts with | the piece that shows it | `not_one_of` / `not_equal` |
//! | a date that no calendar day starts with (`2027-13`, `2027-02-30`) | the piece that shows it | `invalid_date` |
//! | a date-time whose date no calendar day starts with, or without `T` after it | the piece that shows it | `invalid_date_time` |
//! | a tagged union's tag that no variant starts with | the piece that shows it | `unknown_variant` |
//! | a tag that is not a string | its first byte | `invalid_type` |
//! | a member met before the tag: a key the chosen variant does not declare, or a value or rule that variant refuses (what the other rows decide, judged as if the tag had come first) | the tag's closing quote | `unknown_key`, or the value's or rule's code |
//! | a number outside the field's Rust type (`300` for a `u8`, `-1` for a `u32`, `1e39` for an `f32`), `min`/`max`, `equals` or `one_of` | the number's end | `out_of_range`, `below_minimum`, `above_maximum`, `not_equal`, `not_one_of` |
//! | a string shorter than `min_len`, a date that is not a day | the closing quote | `too_short`, `invalid_date` |
//! | a string the `pattern` finds no match in, an invalid `email`, `uuid` or date-time | the closing quote (a pattern is a search anywhere in the string, so a prefix seldom decides it) | `pattern_mismatch`, `invalid_email`, `invalid_uuid`, `invalid_date_time` |
//! | an array with fewer or more items than `min_len`/`max_len` | the `]` | `too_short` / `too_long` |
//! | a declared key absent, a union without its tag | the object's `}` | `missing_key` |
//! | a `when` rule broken (a required field null, a forbidden one not) | the end of the later of the condition and the field (an absent optional field: the object's `}`) | `required` / `forbidden` (rule stage) |
//! | an `order(a <= b)` broken (dates, date-times, integers, floats) | the end of the later of `a` and `b` | `order` (rule stage) |
//!
//! Keys come in any order: a rule is decided when the last field it reads
//! is complete, whichever that is, and a field is read once (a repeated key
//! is a parse error). Recursive contracts are checked at every level: the
//! plan follows each nested contract (each built once, a cycle ends at the
//! contract being built).
//!
//! What waits for [`Stream::finish`]:
//!
//! - what the plan does not evaluate: `equals` or `one_of` on a float or
//!   boolean field, and any value of a field type that does not describe
//!   itself (a hand-written `JsonType` impl without `TYPE`): those never
//!   reject early;
//! - a rule the plan cannot decide alone: one that reads a `quarantine`
//!   field (a failing value there becomes null), an `order` over other types (whose order is the
//!   Rust type's) or over a field with `equals` or `one_of`, a `when` whose
//!   condition is not a string, boolean or integer;
//! - the business stage ([`Contract::stream_with`]).
//!
//! A value under a `quarantine` field is checked for its type, unknown and
//! missing keys only: its value failures are review reasons, not errors.
//!
//! # Exactness, and what `finish` returns
//!
//! The stream keeps the text pushed, up to `max_bytes`, and
//! [`Stream::finish`] runs [`Contract::check`] (or [`Contract::check_with`])
//! on it once: for every way of splitting a text it returns what
//! [`Contract::check`] returns on the concatenation, the same outcome with
//! the same errors in the same order, whether or not a push rejected it
//! and wherever the text ends (a text cut short inside the document, where
//! the caller stopped the model, is what `check` says of it: most often
//! `unexpected_end`; the early rejection is what to show then). Past
//! `max_bytes` pieces are only counted and `finish` is `check`'s
//! `too_large`, with the length of everything pushed.
//!
//! When the stream read the whole document without a doubt left and
//! decided every rule in it (none left to `finish` above, none under a
//! `quarantine`), the rules are known to hold: `finish` then runs
//! `check`'s stages but the rule stage (the decoder still builds the
//! value, the business stage still runs), for the same outcome.
//!
//! A rejection is decided by the first push that shows it, and every push
//! after it returns that same rejection: the error that decided, the one to
//! show when the model is stopped. Later pieces are kept but not read. Its
//! errors carry the pointer, code and stage of errors of the final
//! rejection, worded as [`Contract::check`] words them (the same message
//! and expectation: the decoder reads the text so far once to word a
//! schema error, and a rule's error is worded by the same function),
//! unless the text goes on to break the JSON grammar (a parse
//! error replaces every schema error) or `max_bytes`, or, for a rule's
//! error, goes on to break the schema (the rule stage runs only on a
//! document with no schema error, so schema errors replace it).
//!
//! # Cost
//!
//! Each push reads only its piece: the scanner keeps its place (the open
//! containers, the string, escape or number being read) between pieces.
//! The contract's plan (built from its description once per type, kept for the
//! life of the program and shared by every stream of that type; a thread
//! borrows the last one it used without taking a lock) says what each
//! position admits. Plain string content is scanned eight bytes at a time.
//! The one-shot decoder is not involved until [`Stream::finish`] (or once,
//! at an early schema error, to word it), and is not changed by streaming. Memory: the text (bounded by `max_bytes`), one
//! frame per open container, the keys of the open objects and the values
//! the rules read. A dropped stream leaves its buffers to the next stream
//! of its thread (at most 64 KiB of them), so a thread streaming one answer
//! after another allocates nothing once the first is done.
//!
//! [`Contract::check`]: crate::Contract::check
//! [`Contract::check_with`]: crate::Contract::check_with
//! [`Contract::stream_with`]: crate::Contract::stream_with
use std::any::TypeId;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{OnceLock, PoisonError, RwLock};

use serde_json::Value;

use crate::code;
use crate::error::{Error, Rejection, Stage};
use crate::json;
use crate::json_type::{Collector, JsonType};
use crate::outcome::Outcome;
use crate::pipeline::{self, Document, Stages};
use crate::schema::Definition;

mod plan;
mod scan;
pub mod sse;
#[cfg(test)]
mod tests;
mod verdict;

use plan::Plan;
use scan::{Scanner, Stop};

/// What a push says about the text so far.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Progress {
    /// Some continuation could still be accepted.
    Pending,
    /// No continuation can be accepted: the errors the prefix decides
    /// (see the module docs for when each is decided). Stop the model.
    Rejected(Rejection),
}

/// A document checked while it is written: [`Stream::push`] each piece,
/// [`Stream::partial`] to show what has arrived, [`Stream::finish`] for the
/// outcome. Made by [`Contract::stream`](crate::Contract::stream) and
/// [`Contract::stream_with`](crate::Contract::stream_with).
pub struct Stream<'c, T: Document + Definition> {
    /// Always there until the stream is dropped (then it goes to the
    /// thread's spare, a pointer's move).
    parts: Option<Box<Parts>>,
    context: Option<&'c T::Context>,
    phase: Phase,
    received: usize,
    frame: Option<Frame<T>>,
}

/// A stream of a part of `T`'s JSON form (a tool call's arguments): the
/// text before that part, pushed when the stream is made and not counted
/// in [`Stream::received`], and the check `finish` runs on the part alone.
pub(crate) struct Frame<T: Document> {
    /// The length of the text before the part.
    pub(crate) prefix: usize,
    /// What `finish` returns for the whole text, the part after `prefix`
    /// bytes (and, without a context, what decides an early parse error).
    pub(crate) check: for<'a> fn(&'a str, usize, Option<&'a T::Context>) -> Outcome<T>,
}

// The text pushed and the scanner reading it: the buffers a dropped stream
// leaves to the next one of its thread.
struct Parts {
    text: String,
    scanner: Scanner,
}

#[derive(Debug)]
enum Phase {
    /// Reading: nothing decided.
    Reading,
    /// The scanner met what it could not judge: `finish` decides.
    Waiting,
    /// Rejected: later pieces are kept (not read) for `finish`.
    Rejected(Rejection),
}

impl<T: Document + Definition> fmt::Debug for Stream<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stream")
            .field("contract", &T::NAME)
            .field("received", &self.received)
            .field("phase", &self.phase)
            .finish_non_exhaustive()
    }
}

impl<'c, T: Document + Definition> Stream<'c, T> {
    /// A stream for `T`; with a context, [`Stream::finish`] runs the
    /// business stage against it.
    pub fn new(context: Option<&'c T::Context>) -> Self {
        let plan = plan::<T>();
        let parts = match SPARE.take() {
            Some(mut parts) => {
                parts.scanner.reset(plan, T::LIMITS.max_depth);
                parts
            }
            // Most documents fit: one allocation instead of a doubling series.
            None => Box::new(Parts {
                text: String::with_capacity(T::LIMITS.max_bytes.min(INITIAL_CAPACITY)),
                scanner: Scanner::new(plan, T::LIMITS.max_depth),
            }),
        };
        Stream {
            parts: Some(parts),
            context,
            phase: Phase::Reading,
            received: 0,
            frame: None,
        }
    }

    /// A stream of the part of `T`'s JSON form after `prefix` (nested one
    /// level deeper than the root): `finish` is `frame.check` on the part.
    pub(crate) fn framed(
        context: Option<&'c T::Context>,
        prefix: &str,
        check: for<'a> fn(&'a str, usize, Option<&'a T::Context>) -> Outcome<T>,
    ) -> Self {
        let mut stream = Stream::new(context);
        if let Some(parts) = stream.parts.as_deref_mut() {
            parts
                .scanner
                .reset(plan::<T>(), T::LIMITS.max_depth.saturating_add(1));
            parts.text.push_str(prefix);
            if parts.scanner.feed(&parts.text, 0).is_err() {
                stream.phase = Phase::Waiting;
            }
        }
        stream.frame = Some(Frame {
            prefix: prefix.len(),
            check,
        });
        stream
    }

    /// Reads the next piece of the document. After a rejection the piece
    /// is kept for [`Stream::finish`] (not read) and the push returns the
    /// same rejection.
    // Inlined into the caller's loop: a piece read to its end without a
    // decision costs the piece's copy and the scanner's read, and every
    // other case is out of line.
    #[inline]
    pub fn push(&mut self, piece: &str) -> Progress {
        self.received = self.received.saturating_add(piece.len());
        if self.received <= T::LIMITS.max_bytes
            && let (Phase::Reading, Some(parts)) = (&self.phase, self.parts.as_deref_mut())
        {
            let from = parts.text.len();
            parts.text.push_str(piece);
            return match parts.scanner.feed(&parts.text, from) {
                Ok(()) => Progress::Pending,
                Err(stop) => self.stopped(stop),
            };
        }
        self.push_decided(piece)
    }

    // A push past `max_bytes`, or after the stream decided (`Waiting`,
    // `Rejected`): the piece is kept for `finish`, not read.
    #[cold]
    #[inline(never)]
    fn push_decided(&mut self, piece: &str) -> Progress {
        if self.received > T::LIMITS.max_bytes {
            return self.too_large();
        }
        let Some(parts) = self.parts.as_deref_mut() else {
            return Progress::Pending;
        };
        parts.text.push_str(piece);
        match &self.phase {
            Phase::Rejected(rejection) => Progress::Rejected(rejection.clone()),
            Phase::Reading | Phase::Waiting => Progress::Pending,
        }
    }

    // The scanner stopped on the piece just read: the rejection, or
    // `Waiting` when the decoder sees no parse error there.
    #[cold]
    #[inline(never)]
    fn stopped(&mut self, stop: Stop) -> Progress {
        match stop {
            Stop::Schema(mut error) => {
                self.reword(&mut error);
                self.reject(Rejection::single(*error))
            }
            Stop::Syntax => match self.parse_error() {
                Some(rejection) => self.reject(rejection),
                None => {
                    // The decoder does not see a parse error where the
                    // scanner did: trust the decoder, at `finish`.
                    self.phase = Phase::Waiting;
                    Progress::Pending
                }
            },
        }
    }

    /// The members completed so far, decoded, and the string being
    /// written as far as it has arrived; absent members are absent. `null`
    /// before any value is complete.
    ///
    /// Built when asked, not on every push: the scanner knows where the
    /// last complete member ends, and that prefix, closed, is parsed once
    /// (a read of the text so far). Pushes stay as cheap when nobody looks.
    pub fn partial(&self) -> Value {
        self.parts
            .as_deref()
            .and_then(|p| p.scanner.completion(&p.text))
            .and_then(|text| json::parse_str(&text, T::LIMITS.max_depth).ok())
            .unwrap_or(Value::Null)
    }

    /// The bytes pushed so far (those after a rejection included).
    pub fn received(&self) -> usize {
        self.received
    }

    /// The outcome: exactly [`Contract::check`](crate::Contract::check)
    /// (or `check_with`) on everything pushed, whether or not a push
    /// rejected it.
    pub fn finish(self) -> Outcome<T> {
        let stages = match self.context {
            Some(ctx) => Stages::business(ctx),
            None => Stages::none(),
        };
        // Past `max_bytes` nothing more was kept: `check` refuses such a
        // text for its length alone, whatever it holds.
        match json::check_size(self.received, &T::LIMITS) {
            Err(rejection) => Outcome::Reject(rejection),
            Ok(()) => match &self.frame {
                Some(frame) => (frame.check)(self.text(), frame.prefix, self.context),
                // The stream read the whole document and decided each of its
                // rules: the rule stage would find nothing, and is not run.
                None if self.decided() => pipeline::outcome_ruled::<T>(self.text(), stages),
                None => pipeline::outcome::<T>(self.text(), stages),
            },
        }
    }

    // Past `max_bytes`: pieces are only counted (`finish` needs only the
    // length); the first push past it rejects, unless one rejected before.
    #[cold]
    fn too_large(&mut self) -> Progress {
        if let Phase::Rejected(rejection) = &self.phase {
            return Progress::Rejected(rejection.clone());
        }
        match json::check_size(self.received, &T::LIMITS) {
            Err(rejection) => self.reject(rejection),
            Ok(()) => Progress::Pending,
        }
    }

    // Whether the text is one whole document whose every value and rule
    // the stream decided, none refused.
    fn decided(&self) -> bool {
        matches!(self.phase, Phase::Reading)
            && self.parts.as_deref().is_some_and(|p| p.scanner.decided())
    }

    // Everything pushed, up to `max_bytes`.
    fn text(&self) -> &str {
        self.parts.as_deref().map_or("", |p| p.text.as_str())
    }

    fn reject(&mut self, rejection: Rejection) -> Progress {
        self.phase = Phase::Rejected(rejection.clone());
        Progress::Rejected(rejection)
    }

    // An early schema error in `check`'s words: the decoder reads the text
    // so far (a string being written closed where it stands) and records
    // the same error at the same pointer, with its message and expectation
    // (the declared bound, range or variants). A rule error is worded by
    // the scanner as the decoder words it; an error the decoder does not
    // reach in the text so far keeps the scanner's words.
    #[cold]
    fn reword(&self, error: &mut Error) {
        if error.stage != Stage::Schema {
            return;
        }
        let Some(parts) = self.parts.as_deref() else {
            return;
        };
        let text = parts.scanner.closed_string(&parts.text);
        let mut cx = Collector::new();
        // A parse error (the text ends early) keeps what was collected.
        let _ = pipeline::decode::<T>(&text, &mut cx);
        let (errors, _, _) = cx.finish();
        if let Some(found) = errors
            .into_iter()
            .find(|e| e.pointer == error.pointer && e.code == error.code)
        {
            error.message = found.message;
            error.expected = found.expected;
        }
    }

    // The parse error the decoder reports on the text so far, unless it is
    // only that the text ends early.
    #[cold]
    fn parse_error(&self) -> Option<Rejection> {
        let rejection = match &self.frame {
            Some(frame) => (frame.check)(self.text(), frame.prefix, None)
                .rejection()
                .cloned()?,
            None => pipeline::run::<T>(self.text(), Stages::none()).err()?,
        };
        let error = rejection.errors.first()?;
        (error.stage == Stage::Parse && error.code != code::UNEXPECTED_END).then_some(rejection)
    }
}

impl<T: Document + Definition> Drop for Stream<'_, T> {
    // The text and scanner buffers go back to this thread's spare, for the
    // next stream: a stream per model answer then allocates nothing once
    // the thread has streamed one document. A spare holding more than
    // `SPARE_LIMIT` bytes is released instead.
    fn drop(&mut self) {
        let Some(mut parts) = self.parts.take() else {
            return;
        };
        if parts.text.capacity() + parts.scanner.capacity() > SPARE_LIMIT {
            return;
        }
        parts.text.clear();
        SPARE.set(Some(parts));
    }
}

thread_local! {
    // The buffers of the last stream dropped on this thread.
    static SPARE: Cell<Option<Box<Parts>>> = const { Cell::new(None) };
    // The plan this thread used last, by type.
    static LAST_PLAN: Cell<Option<(TypeId, &'static Plan)>> = const { Cell::new(None) };
}

// What the text buffer starts with (the seed documents are 70–200 bytes).
const INITIAL_CAPACITY: usize = 512;

// The most a spare keeps (bytes of text and scanner buffers).
const SPARE_LIMIT: usize = 64 * 1024;

// The plan of `T`, compiled on first use and shared by every stream of `T`
// (a `static` in a generic function is one for all `T`, hence the map).
// A plan lives as long as the program (one per contract type streamed, a
// few KiB), so a scanner borrows it without counting references; the
// thread remembers the last one it used, so that a stream of the same type
// as the one before takes no lock.
fn plan<T: JsonType + Definition>() -> &'static Plan {
    let id = TypeId::of::<T>();
    if let Some((last, plan)) = LAST_PLAN.get()
        && last == id
    {
        return plan;
    }
    static PLANS: OnceLock<RwLock<BTreeMap<TypeId, &'static Plan>>> = OnceLock::new();
    let plans = PLANS.get_or_init(RwLock::default);
    let known = plans
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&id)
        .copied();
    let plan = match known {
        Some(plan) => plan,
        None => *plans
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(id)
            .or_insert_with(|| Box::leak(Box::new(Plan::of(&<T as JsonType>::TYPE)))),
    };
    LAST_PLAN.set(Some((id, plan)));
    plan
}
