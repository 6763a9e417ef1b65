//! The stages, run once for every entry point: parse → schema → rule →
//! business → edit. [`Contract::from_json`], [`Contract::check`],
//! [`Contract::check_with`] and [`EditPolicy::check`] /
//! [`EditPolicy::check_with`] are thin calls into [`run`] (or [`outcome`],
//! which decides on what `run` accepted); every rejection is built by one
//! function, [`rejection`].
//!
//! The pipeline asks of a document type only what [`Document`] says (every
//! [`Contract`] is one), so it sits below the contract layer. A document
//! checked while it is written ([`crate::stream`]) runs [`outcome`] once, at
//! its `finish` (or `outcome_ruled`, without the rule stage, when the
//! stream decided every rule); an entry point for a stream of documents would be one more
//! caller of [`run`] (or of [`decode`] on each), with a [`Stages`] of its own.
//!
//! [`Contract`]: crate::Contract
//! [`Contract::from_json`]: crate::Contract::from_json
//! [`Contract::check`]: crate::Contract::check
//! [`Contract::check_with`]: crate::Contract::check_with
//! [`EditPolicy::check`]: crate::EditPolicy::check
//! [`EditPolicy::check_with`]: crate::EditPolicy::check_with
use std::collections::BTreeSet;
use std::mem::ManuallyDrop;

use crate::code;
use crate::error::{Error, MAX_ERRORS, Rejection, Stage};
use crate::json::{self, Limits, ParseError, Path, Reader};
use crate::json_type::{Collector, JsonType};
use crate::outcome::{Outcome, OutcomeKind, Violation};
use crate::schema::bound::Binding;

/// What the pipeline needs of a document type beyond [`JsonType`]: its
/// limits, its business stage and the decision its value stands for.
/// Implemented for every [`Contract`](crate::Contract), from the items the
/// derive generates.
pub trait Document: JsonType {
    /// `max_bytes` and `max_depth`.
    const LIMITS: Limits;
    /// The trusted context of the business stage.
    type Context: ?Sized;
    /// Runs the business stage (`evidence`, `check`) against `ctx`.
    fn business(&mut self, ctx: &Self::Context, cx: &mut Collector);
    /// The decision of an accepted value's `outcome` field.
    fn outcome(&self) -> OutcomeKind;
    /// The members bound to `ctx` (`one_of = ctx.FIELD`), with its values:
    /// what an edit policy's bound exports write into the schema.
    fn bindings(_ctx: &Self::Context) -> Vec<Binding> {
        Vec::new()
    }
}

/// The stages to run after parse, schema and rule (which always run).
pub struct Stages<'a, T: Document> {
    /// Business: the trusted context, when the caller has one.
    pub context: Option<&'a T::Context>,
    /// Edit: an error for each change the policy does not allow.
    pub blocked: Vec<Error>,
}

impl<T: Document> std::fmt::Debug for Stages<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stages")
            .field("business", &self.context.is_some())
            .field("blocked", &self.blocked)
            .finish()
    }
}

impl<'a, T: Document> Stages<'a, T> {
    /// Parse, schema and rule only.
    pub fn none() -> Self {
        Stages {
            context: None,
            blocked: Vec::new(),
        }
    }

    /// Parse, schema, rule and business against `ctx`.
    pub fn business(ctx: &'a T::Context) -> Self {
        Stages {
            context: Some(ctx),
            blocked: Vec::new(),
        }
    }
}

/// An accepted document: the value and its review reasons.
pub type Accepted<T> = (T, Vec<Violation>);

/// Runs every stage on `raw`: the value and its review reasons, or one
/// rejection with every error found.
// Inlined into each entry point, so that `from_json` pays no extra frame or
// move of the value over the stages it runs (about 100 instructions per
// document on the small seeds).
#[inline]
pub fn run<T: Document>(raw: &str, stages: Stages<'_, T>) -> Result<Accepted<T>, Rejection> {
    run_read(raw, stages, root::<T>)
}

/// A document's own decoder, at the root.
#[inline(always)]
fn root<T: Document>(r: &mut Reader<'_>, cx: &mut Collector) -> Result<Option<T>, ParseError> {
    T::decode(r, &Path::Root, cx)
}

/// [`run`] with the value read from the text by `read` (given the reader,
/// with `T`'s limits, and the collector) instead of by `T::decode` at the
/// root: the same limits, trailing-content check, rule, business and edit
/// stages and errors. A tool call reads its arguments text with its tool's
/// decoder at `/arguments` ([`crate::tools`]).
// Always inlined, so that `run` (inlined into each entry point) is what it
// was before `read` was a parameter.
#[inline(always)]
pub fn run_read<'a, T: Document>(
    raw: &'a str,
    stages: Stages<'_, T>,
    read: impl FnOnce(&mut Reader<'a>, &mut Collector) -> Result<Option<T>, ParseError>,
) -> Result<Accepted<T>, Rejection> {
    run_as::<T, T>(raw, stages, read, T::business)
}

/// [`run_read`] of a value `V` that is not itself the [`Document`] `D`
/// whose limits and context it is read with: a contract with a lifetime
/// (`Invoice<'a>`, borrowing from `raw`), read as its `'static` form
/// (`Invoice<'static>`, the `Document`), with its own `business` stage.
#[inline(always)]
pub fn run_as<'a, D: Document, V: JsonType>(
    raw: &'a str,
    stages: Stages<'_, D>,
    read: impl FnOnce(&mut Reader<'a>, &mut Collector) -> Result<Option<V>, ParseError>,
    business: impl FnOnce(&mut V, &D::Context, &mut Collector),
) -> Result<Accepted<V>, Rejection> {
    run_stages::<D, V, true>(raw, stages, read, business)
}

// `run_as`, with the rule stage run when `RULES`.
#[inline(always)]
fn run_stages<'a, D: Document, V: JsonType, const RULES: bool>(
    raw: &'a str,
    stages: Stages<'_, D>,
    read: impl FnOnce(&mut Reader<'a>, &mut Collector) -> Result<Option<V>, ParseError>,
    business: impl FnOnce(&mut V, &D::Context, &mut Collector),
) -> Result<Accepted<V>, Rejection> {
    let mut cx = Collector::new();
    let mut value = decode_stages::<V, RULES>(raw, &D::LIMITS, &mut cx, read)?;
    // Business runs only on a value that passed every earlier stage.
    if let (Some(value), Some(ctx), true) = (value.as_mut(), stages.context, cx.is_clean()) {
        business(value, ctx, &mut cx);
    }
    // Only an edit check has blocked changes; the others skip the iterator.
    if !stages.blocked.is_empty() {
        for error in stages.blocked {
            cx.push(error);
        }
    }
    let (errors, omitted, reviews) = cx.finish();
    match value {
        Some(value) if errors.is_empty() && omitted == 0 => Ok((value, reviews)),
        _ => Err(rejection(errors, omitted)),
    }
}

/// Parse, schema and rule stages, as [`run`] without further stages: the
/// value (its review reasons dropped), or every error found. What
/// [`Contract::from_json`](crate::Contract::from_json) runs.
// Inlined into `from_json`: an accepted document returns its value at once,
// and everything a rejection needs is out of line.
#[inline]
pub fn run_schema<T: Document>(raw: &str) -> Result<T, Rejection> {
    run_schema_as::<T, T>(raw, root::<T>)
}

/// [`run_schema`] of a value `V` read by `read` under the limits of the
/// [`Document`] `D` (see [`run_as`]).
#[inline(always)]
pub fn run_schema_as<'a, D: Document, V: JsonType>(
    raw: &'a str,
    read: impl FnOnce(&mut Reader<'a>, &mut Collector) -> Result<Option<V>, ParseError>,
) -> Result<V, Rejection> {
    let limits = &D::LIMITS;
    json::check_text(raw, limits)?;
    // Not dropped at the end of the frame: a collector that never held an
    // error or a review reason owns nothing, so the accepted path neither
    // moves nor drops it.
    let mut cx = ManuallyDrop::new(Collector::new());
    let mut reader = Reader::new(raw, limits.max_depth);
    // The accepted path straight through (the value is not moved through
    // `decode_stages`' result); anything else as `decode_stages` does it.
    match read(&mut reader, &mut cx) {
        Ok(Some(value)) if cx.is_clean() && reader.finish().is_ok() => {
            value.rules(&Path::Root, &mut cx);
            if !cx.is_clean() {
                return Err(collected(ManuallyDrop::into_inner(cx)));
            }
            if !cx.owns_nothing() {
                drop(ManuallyDrop::into_inner(cx));
            }
            Ok(value)
        }
        read => schema_rest(raw, &mut reader, ManuallyDrop::into_inner(cx), read),
    }
}

// `run_schema_as` past a value read with an error or followed by more
// text: the stages of `decode_stages` after the read. `finish` may have
// been called already; it says the same again.
#[cold]
#[inline(never)]
fn schema_rest<V: JsonType>(
    raw: &str,
    reader: &mut Reader<'_>,
    mut cx: Collector,
    read: Result<Option<V>, ParseError>,
) -> Result<V, Rejection> {
    let value = match read {
        Ok(v) => match reader.finish() {
            Ok(()) => v,
            Err(e) => {
                drop(v);
                decode_failed(raw, &cx, e)?;
                None
            }
        },
        Err(e) => {
            decode_failed(raw, &cx, e)?;
            None
        }
    };
    if let (Some(value), true) = (&value, cx.is_clean()) {
        value.rules(&Path::Root, &mut cx);
    }
    match value {
        Some(value) if cx.is_clean() => Ok(value),
        _ => Err(collected(cx)),
    }
}

// The rejection of a document whose schema or rule stage found errors.
#[cold]
#[inline(never)]
fn collected(cx: Collector) -> Rejection {
    let (errors, omitted) = cx.into_errors();
    // The collector keeps at most `MAX_ERRORS` (it counts the others): the
    // list is the rejection's as it is.
    if errors.is_empty() || errors.len() > MAX_ERRORS {
        return rejection(errors, omitted);
    }
    Rejection {
        errors,
        omitted,
        truncated: false,
    }
}

/// Parse, schema and rule stages that stop reading once `max_errors` errors
/// are found (see [`Contract::from_json_first`](crate::Contract::from_json_first)).
pub fn run_first<T: Document>(raw: &str, max_errors: usize) -> Result<T, Rejection> {
    let mut cx = Collector::stopping_at(max_errors);
    let value = decode::<T>(raw, &mut cx)?;
    let stopped = cx.stopped();
    let (mut errors, mut omitted, _reviews) = cx.finish();
    // Errors found together (a value failing two checks) may pass the
    // number asked for: the first ones are kept, the others counted.
    let keep = max_errors.clamp(1, MAX_ERRORS);
    if errors.len() > keep {
        omitted += errors.len() - keep;
        errors.truncate(keep);
    }
    match value {
        Some(value) if errors.is_empty() && omitted == 0 && !stopped => Ok(value),
        _ => {
            let mut rejection = rejection(errors, omitted);
            rejection.truncated = stopped;
            Err(rejection)
        }
    }
}

/// [`run`], as an [`Outcome`].
pub fn outcome<T: Document>(raw: &str, stages: Stages<'_, T>) -> Outcome<T> {
    match run(raw, stages) {
        Ok((value, reviews)) => decide(value, reviews, T::outcome),
        Err(rejection) => Outcome::Reject(rejection),
    }
}

/// [`run_as`], as an [`Outcome`]: `kind` is the decision of an accepted
/// value's `outcome` field.
pub fn outcome_as<'a, D: Document, V: JsonType>(
    raw: &'a str,
    stages: Stages<'_, D>,
    read: impl FnOnce(&mut Reader<'a>, &mut Collector) -> Result<Option<V>, ParseError>,
    business: impl FnOnce(&mut V, &D::Context, &mut Collector),
    kind: impl FnOnce(&V) -> OutcomeKind,
) -> Outcome<V> {
    match run_as(raw, stages, read, business) {
        Ok((value, reviews)) => decide(value, reviews, kind),
        Err(rejection) => Outcome::Reject(rejection),
    }
}

/// [`outcome`] of a text whose rules are known to hold: a streamed
/// document the stream read to its end, every rule of every object in it
/// decided and none broken ([`crate::stream`]). The value still comes from
/// `T`'s decoder, which runs the parse and schema stages as [`run`] does,
/// and the business and edit stages run; only the rule stage is not run
/// again. The outcome is [`outcome`]'s when the rules do hold (debug
/// builds run them all the same and assert that they find nothing).
pub(crate) fn outcome_ruled<T: Document>(raw: &str, stages: Stages<'_, T>) -> Outcome<T> {
    let run = run_stages::<T, T, false>(raw, stages, root::<T>, T::business);
    match run {
        Ok((value, reviews)) => decide(value, reviews, T::outcome),
        Err(rejection) => Outcome::Reject(rejection),
    }
}

/// [`run_read`], as an [`Outcome`].
pub fn outcome_read<'a, T: Document>(
    raw: &'a str,
    stages: Stages<'_, T>,
    read: impl FnOnce(&mut Reader<'a>, &mut Collector) -> Result<Option<T>, ParseError>,
) -> Outcome<T> {
    match run_read(raw, stages, read) {
        Ok((value, reviews)) => decide(value, reviews, T::outcome),
        Err(rejection) => Outcome::Reject(rejection),
    }
}

/// The parse, schema and rule stages: the value if the schema stage
/// produced one (its errors and reviews are in `cx`), or the parse error,
/// which ends the pipeline.
// Inlined into `run` (and so into each entry point), as before the stop at
// a number of errors: a call here moves the decoded value once more.
#[inline]
pub fn decode<T: Document>(raw: &str, cx: &mut Collector) -> Result<Option<T>, Rejection> {
    decode_inline(raw, cx)
}

// `decode`, always inlined: `from_json` (`run_schema`) pays no call around
// the generated decoder and no move of the value it returns.
#[inline(always)]
fn decode_inline<T: Document>(raw: &str, cx: &mut Collector) -> Result<Option<T>, Rejection> {
    decode_read(raw, &T::LIMITS, cx, root::<T>)
}

// `decode_inline` of a value read by `read` under `limits`.
#[inline(always)]
fn decode_read<'a, V: JsonType>(
    raw: &'a str,
    limits: &Limits,
    cx: &mut Collector,
    read: impl FnOnce(&mut Reader<'a>, &mut Collector) -> Result<Option<V>, ParseError>,
) -> Result<Option<V>, Rejection> {
    decode_stages::<V, true>(raw, limits, cx, read)
}

// `decode_read`, with the rule stage run when `RULES`.
#[inline(always)]
fn decode_stages<'a, V: JsonType, const RULES: bool>(
    raw: &'a str,
    limits: &Limits,
    cx: &mut Collector,
    read: impl FnOnce(&mut Reader<'a>, &mut Collector) -> Result<Option<V>, ParseError>,
) -> Result<Option<V>, Rejection> {
    json::check_text(raw, limits)?;
    let mut reader = Reader::new(raw, limits.max_depth);
    let value = match read(&mut reader, cx) {
        Ok(v) => match reader.finish() {
            Ok(()) => v,
            Err(e) => {
                drop(v);
                decode_failed(raw, cx, e)?;
                None
            }
        },
        Err(e) => {
            decode_failed(raw, cx, e)?;
            None
        }
    };
    // Rules run only on a value that passed the schema stage everywhere.
    // Without `RULES` the caller knows that they hold: a debug build runs
    // them all the same and asserts it.
    if let (Some(value), true) = (&value, cx.is_clean()) {
        if RULES || cfg!(debug_assertions) {
            value.rules(&Path::Root, cx);
        }
        debug_assert!(RULES || cx.is_clean(), "a rule known to hold is broken");
    }
    Ok(value)
}

// A decode that returned `Err`: a parse error is the rejection; the
// sentinel of a collector told to stop at its errors (`check_stop`) is not,
// and the errors collected so far are.
#[cold]
#[inline(never)]
fn decode_failed(raw: &str, cx: &Collector, e: ParseError) -> Result<(), Rejection> {
    if cx.stopped_by(&e) {
        Ok(())
    } else {
        Err(Rejection::single(e.into_error(raw.as_bytes())))
    }
}

// The outcome of an accepted document: review when there are reasons, else
// the decision of its `outcome` field.
fn decide<V>(
    value: V,
    mut reasons: Vec<Violation>,
    kind: impl FnOnce(&V) -> OutcomeKind,
) -> Outcome<V> {
    // One reason per pointer: the first found, from the earliest check, is
    // the one that explains it (a date dropped for being invalid is not also
    // "missing").
    let mut seen = BTreeSet::new();
    reasons.retain(|r| seen.insert(r.pointer.clone()));
    if !reasons.is_empty() {
        return Outcome::Review { value, reasons };
    }
    match kind(&value) {
        OutcomeKind::Clarify => Outcome::Clarify(value),
        OutcomeKind::Decline => Outcome::Decline(value),
        _ => Outcome::Accept(value),
    }
}

/// The one place a rejection is built from what the stages collected: the
/// errors kept plus how many more there were, never empty.
pub fn rejection(errors: Vec<Error>, omitted: usize) -> Rejection {
    let mut rejection = Rejection::from_errors(errors);
    rejection.omitted += omitted;
    if rejection.errors.is_empty() {
        // Unreachable by construction (a failed field records an error);
        // never return an empty rejection all the same.
        rejection.errors.push(Error::new(
            Stage::Schema,
            "",
            code::INVALID_TYPE,
            "the document was not accepted",
        ));
    }
    rejection
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Contract;
    use crate::error::MAX_ERRORS;

    #[derive(crate::Contract, Debug)]
    #[contract(edit(any = ["/items"]))]
    struct Many {
        items: Vec<u8>,
    }

    fn many_wrong_items(n: usize) -> String {
        let items = vec!["\"x\""; n].join(",");
        format!(r#"{{"items":[{items}]}}"#)
    }

    // Every entry point reports the same errors for the same document: the
    // kept ones and the count of those past the cap.
    #[test]
    fn an_edit_rejection_counts_errors_past_the_cap_like_from_json() {
        let doc = many_wrong_items(MAX_ERRORS + 6);
        let direct = Many::from_json(&doc).unwrap_err();
        assert_eq!((direct.errors.len(), direct.omitted), (MAX_ERRORS, 6));
        let edit = Many::ANY.check(&json!({"items": []}), &doc).unwrap_err();
        assert_eq!((edit.errors.len(), edit.omitted), (MAX_ERRORS, 6));
        assert_eq!(edit.errors, direct.errors);
    }
}
