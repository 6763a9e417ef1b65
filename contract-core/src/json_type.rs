//! The two things every stage shares: [`JsonType`], what a type must say
//! to be a field of a contract, and [`Collector`], where the stages record
//! what they find.
//!
//! [`Contract`](crate::Contract) (a whole document) builds on [`JsonType`];
//! it sits above the pipeline (module `contract`) because its provided
//! methods are the entry points that run it.
use std::borrow::Cow;

use serde_json::Value;

use crate::code;
use crate::describe::Type;
use crate::error::{Error, MAX_ERRORS, Stage};
use crate::json::{ParseError, Path, Peek, Reader, duplicate_key};
use crate::outcome::Violation;
use crate::schema::SchemaGen;
use crate::shape::Shape;

/// A type that can be a field of a contract: how it is decoded, encoded,
/// described in a schema, and navigated by an edit pointer.
///
/// The derive implements it for contract structs and enums; the runtime
/// implements it for the primitive, collection (`Option`, `Box`, `Vec`,
/// `BTreeMap<String, T>`) and date types (module `decode`). `Send + Sync`
/// (every field type is plain data): a deep recursive value is decoded,
/// encoded and checked on a thread of its own (`stack::with_room`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a contract type",
    label = "not a supported field type",
    note = "derive `Contract` for it, or use bool, an integer, f32/f64, String, Date, DateTime, Option, Vec, Box or BTreeMap<String, T>"
)]
pub trait JsonType: Sized + Send + Sync {
    /// The type's shape, for resolving edit pointers at compile time.
    const SHAPE: Shape;

    /// The type as the decoder reads it (what the stream's plan is built
    /// from); a type that does not say is `Type::Any`:
    /// nothing is decided early about its values.
    #[doc(hidden)]
    const TYPE: Type = Type::Any;

    /// Reads one value at `path`. `Ok(None)` means a schema error was
    /// recorded in `cx` (the value was skipped); `Err` is a parse error,
    /// which ends the decode.
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError>;

    /// The value as JSON.
    fn encode(&self) -> Value;

    /// The JSON Schema of the type (nested contracts go to `defs`'s `$defs`).
    fn schema(defs: &mut SchemaGen) -> Value;

    /// Runs the cross-field rules of nested contracts.
    #[inline]
    fn rules(&self, _path: &Path<'_>, _cx: &mut Collector) {}
}

/// A contract struct's members, read and written beside a tagged union's
/// tag (a newtype variant `Refund(Refund)` puts `Refund`'s members in the
/// union's object). The derive implements it for every contract struct.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a contract struct, and a newtype variant of a tagged union wraps one",
    label = "not a `#[derive(Contract)]` struct",
    note = "write the members in the variant (`Variant {{ name: Type }}`), or wrap a struct that derives `Contract`"
)]
pub trait ObjectMembers: JsonType {
    /// The members' JSON names.
    const MEMBER_NAMES: &'static [&'static str];

    /// Reads the members of an object whose `{` (and maybe its first
    /// members) were read already: `more` says whether a member follows.
    /// A member named `tag` is met once (`tag_seen` tells whether it was
    /// read before: [`TagSeen::meet`]); any other undeclared member is an
    /// `unknown_key`.
    fn decode_members(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
        more: bool,
        tag: Option<&str>,
        tag_seen: &mut TagSeen,
    ) -> Result<Option<Self>, ParseError>;

    /// Writes the members into `map`, in declaration order.
    fn encode_members(&self, map: &mut serde_json::Map<String, Value>);

    /// The struct's own (closed object) schema, not a `$ref` to it.
    fn object_schema(defs: &mut SchemaGen) -> Value;
}

/// What the stages of one document collect: errors (at most
/// [`MAX_ERRORS`] kept, the rest counted), and review reasons.
#[derive(Debug, Default)]
pub struct Collector {
    errors: Vec<Error>,
    omitted: usize,
    /// Structural errors only counted, past the cap (`is_structural`; the
    /// kept ones are looked up in `errors` when a quarantine asks).
    structural_omitted: usize,
    reviews: Vec<Violation>,
    /// Stop reading once this many errors are kept (0: read everything);
    /// see [`Collector::stopping_at`].
    stop_at: usize,
    /// Whether [`Collector::check_stop`] ended the decode.
    stopped: bool,
    /// Quarantined fields being read: no stop inside one, whose value
    /// failures may yet become review reasons.
    shielded: usize,
    /// What tagged unions guessed in this document (`decode::union`); not
    /// taken back by [`Collector::rollback`].
    pub(crate) guesses: Guesses,
}

/// What a member loop knows of a tagged union's tag: whether it was read
/// already (a second one is a duplicate key), and, while a variant is
/// decoded on a guess (`decode::decode_union`), which variant the tag it
/// meets names.
#[derive(Debug, Clone, Copy, Default)]
pub struct TagSeen {
    seen: bool,
    guess: Option<Guess>,
    // The variant the tag named, once read while guessing.
    found: Option<usize>,
    // Whether the guess is known to be wrong: the member loop then ends at
    // once, with `Ok(None)`, and nothing more is read or recorded.
    wrong: bool,
    // When the guess ended at a key its variant does not declare, met
    // before the tag (the reader is then at that key's value): the first
    // variant that declares it, if any.
    unexpected: Option<Option<usize>>,
}

/// A variant decoded on a guess: the union's variant names, and the guessed
/// one's index and name as written raw (quotes included; empty when it
/// would need escaping).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Guess {
    pub(crate) variants: &'static [&'static str],
    pub(crate) quoted: &'static [u8],
    pub(crate) index: usize,
    /// Each variant's member names.
    pub(crate) members: &'static [&'static [&'static str]],
}

impl TagSeen {
    /// No tag read yet, and none to read.
    pub const fn new() -> Self {
        TagSeen::after(false)
    }

    /// The tag read already.
    pub(crate) const fn read() -> Self {
        TagSeen::after(true)
    }

    /// The tag read already or not.
    pub(crate) const fn after(seen: bool) -> Self {
        TagSeen {
            seen,
            guess: None,
            found: None,
            wrong: false,
            unexpected: None,
        }
    }

    /// No tag read yet, and the variant it should name guessed.
    pub(crate) const fn guessing(guess: Guess) -> Self {
        TagSeen {
            seen: false,
            guess: Some(guess),
            found: None,
            wrong: false,
            unexpected: None,
        }
    }

    /// The variant the tag named, when it was read while guessing.
    pub(crate) fn found(&self) -> Option<usize> {
        self.found
    }

    /// When the guess ended at a key its variant does not declare
    /// ([`TagSeen::unexpected_key`]): the first variant that declares it.
    pub(crate) fn ended_at_key(&self) -> Option<Option<usize>> {
        self.unexpected
    }

    /// Whether the variant being decoded on a guess is known to be the
    /// wrong one: the member loop returns `Ok(None)` at once (the guess is
    /// taken back).
    #[inline]
    pub fn wrong_guess(&self) -> bool {
        self.wrong
    }

    /// A key `key` the member loop does not declare, other than the tag:
    /// while guessing, before the tag was read, the guess is wrong (the
    /// variant that declares every member would not meet it), and `true`
    /// says so before the key is recorded as unknown. `false` otherwise:
    /// the key is an `unknown_key`.
    #[inline]
    pub fn unexpected_key(&mut self, key: &str) -> bool {
        let Some(guess) = self.guess else {
            return false;
        };
        if self.found.is_some() {
            return false;
        }
        self.wrong = true;
        self.unexpected = Some(guess.members.iter().position(|m| m.contains(&key)));
        true
    }

    /// The tag met in a member loop (its key read, at offset `at`): a second
    /// one is a duplicate key; the first is skipped, or, while guessing,
    /// read to tell which variant it names. A tag that names another
    /// variant (or none, or is not a string) ends a guess at once
    /// ([`TagSeen::wrong_guess`]); what was read is taken back.
    pub fn meet(
        &mut self,
        r: &mut Reader<'_>,
        path: &Path<'_>,
        at: usize,
        name: &str,
    ) -> Result<(), ParseError> {
        if self.seen {
            return Err(duplicate_key(at, path, name));
        }
        self.seen = true;
        let Some(guess) = self.guess else {
            return r.skip_value(&path.key(name));
        };
        if r.eat_str(guess.quoted) {
            self.found = Some(guess.index);
            return Ok(());
        }
        if r.peek()? == Peek::String {
            let value = r.read_str_ref()?;
            self.found = guess.variants.iter().position(|v| *v == value);
            if self.found == Some(guess.index) {
                return Ok(());
            }
        }
        self.wrong = true;
        Ok(())
    }
}

/// Whether a tagged union may decode a variant on a guess
/// (`decode::decode_union`): not inside another guess (`active`), and not
/// inside an object read again after a wrong guess (`failed`). A wrong guess
/// reads its object at most three times; with no guess below it, nested
/// wrong guesses cannot multiply that level by level.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Guesses {
    pub(crate) active: bool,
    pub(crate) failed: bool,
}

/// What a [`Collector`] held at a point ([`Collector::save`]), to take back
/// what was recorded since ([`Collector::rollback`]).
#[derive(Debug, Clone, Copy)]
pub struct Saved {
    errors: usize,
    omitted: usize,
    structural_omitted: usize,
    reviews: usize,
}

/// A point in a decode ([`Collector::mark`]), to ask what was found after it.
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    errors: usize,
    structural_omitted: usize,
}

// A structural error says the document does not have the declared shape: a
// value of the wrong JSON type (the schema's `type`, which also refuses `7.0`
// for an integer), a key that is missing or unknown. Quarantine never absorbs
// one. Every other schema error is a value failure (a bound, a length,
// `equals`, `one_of`, a date, a number the Rust type cannot hold): the value
// has the right type and a wrong content. A duplicate key is a parse error,
// which ends the decode before quarantine is asked.
fn is_structural(stage: Stage, code: &str) -> bool {
    stage == Stage::Schema
        && matches!(
            code,
            code::INVALID_TYPE | code::MISSING_KEY | code::UNKNOWN_KEY
        )
}

impl Collector {
    /// An empty collector.
    pub fn new() -> Self {
        Collector::default()
    }

    /// A collector that asks the decode to stop once it holds `max_errors`
    /// errors (at least 1, at most [`MAX_ERRORS`]): what
    /// [`Contract::from_json_first`](crate::Contract::from_json_first) runs.
    /// The decoders check [`Collector::check_stop`] where an error was
    /// recorded, and the pipeline ends the decode at the sentinel it returns.
    pub fn stopping_at(max_errors: usize) -> Self {
        Collector {
            stop_at: max_errors.clamp(1, MAX_ERRORS),
            ..Collector::default()
        }
    }

    /// `Err` (a sentinel, never shown to a caller) when this collector stops
    /// at a number of errors and holds that many: the decode unwinds through
    /// `?` to the pipeline, which turns it into a truncated rejection. Never
    /// while a tagged union's variant is decoded on a guess: the errors of a
    /// wrong guess are taken back, and must not end the reading.
    #[inline]
    pub fn check_stop(&mut self) -> Result<(), ParseError> {
        if self.stop_at != 0
            && self.shielded == 0
            && !self.guesses.active
            && self.errors.len() >= self.stop_at
        {
            self.stopped = true;
            Err(ParseError::stopped())
        } else {
            Ok(())
        }
    }

    /// Whether `e` is [`Collector::check_stop`]'s sentinel.
    pub fn stopped_by(&self, e: &ParseError) -> bool {
        self.stopped && e.is_stop()
    }

    /// Whether [`Collector::check_stop`] ended the decode: the rest of the
    /// document was not read.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Records an error at `path`.
    #[cold]
    #[inline(never)]
    pub fn error(
        &mut self,
        stage: Stage,
        path: &Path<'_>,
        code: &'static str,
        message: impl Into<Cow<'static, str>>,
        expected: &'static str,
    ) {
        if self.is_full() {
            self.omitted += 1;
            self.structural_omitted += usize::from(is_structural(stage, code));
            return;
        }
        if self.errors.capacity() == 0 {
            // A document with one error usually has a few: allocate once,
            // as many as fit in 1 KiB (glibc's malloc serves blocks up to
            // 1,032 bytes from its per-thread cache; a larger first block
            // took 290 instructions more to get and free).
            self.errors = Vec::with_capacity(1024 / size_of::<Error>());
        }
        self.errors.push(Error {
            stage,
            pointer: path.pointer(),
            code,
            message: message.into(),
            line: None,
            column: None,
            expected: Cow::Borrowed(expected),
        });
    }

    /// Records a ready-made error.
    #[cold]
    pub fn push(&mut self, error: Error) {
        if self.is_full() {
            self.omitted += 1;
            self.structural_omitted += usize::from(is_structural(error.stage, error.code));
        } else {
            self.errors.push(error);
        }
    }

    /// Whether a further error would only be counted (so its message need
    /// not be built).
    #[inline]
    pub fn is_full(&self) -> bool {
        self.errors.len() >= MAX_ERRORS
    }

    /// How many errors were found so far (kept or not).
    #[inline]
    pub fn error_count(&self) -> usize {
        self.errors.len() + self.omitted
    }

    /// Whether no error was found.
    #[inline]
    pub fn is_clean(&self) -> bool {
        self.errors.is_empty() && self.omitted == 0
    }

    /// The current point, for [`Collector::failed_since`] and
    /// [`Collector::quarantine_since`].
    #[inline]
    pub fn mark(&self) -> Mark {
        Mark {
            errors: self.error_count(),
            structural_omitted: self.structural_omitted,
        }
    }

    /// [`Collector::mark`] at the start of a quarantined field's value;
    /// [`Collector::end_quarantined`] follows it once the value is read.
    #[inline]
    pub fn mark_quarantined(&mut self) -> Mark {
        self.shielded += 1;
        self.mark()
    }

    /// The end of the value of [`Collector::mark_quarantined`].
    #[inline]
    pub fn end_quarantined(&mut self) {
        self.shielded = self.shielded.saturating_sub(1);
    }

    /// Whether an error was found since `mark`.
    #[inline]
    pub fn failed_since(&self, mark: Mark) -> bool {
        self.error_count() != mark.errors
    }

    /// The errors kept since `mark`, to restate their messages.
    pub(crate) fn errors_since(&mut self, mark: Mark) -> impl Iterator<Item = &mut Error> {
        let keep = mark.errors.min(self.errors.len());
        self.errors[keep..].iter_mut()
    }

    /// Turns the errors found since `mark` into review reasons, if every
    /// one of them is a value failure; `true` if it did. A structural error
    /// since `mark` (a wrong JSON type, a missing or unknown key, at any
    /// depth below the field) leaves every error in place: the document
    /// does not have the declared shape, and is rejected.
    pub fn quarantine_since(&mut self, mark: Mark) -> bool {
        if !self.failed_since(mark) || self.structural_omitted != mark.structural_omitted {
            return false;
        }
        let keep = mark.errors.min(self.errors.len());
        if self.errors[keep..]
            .iter()
            .any(|e| is_structural(e.stage, e.code))
        {
            return false;
        }
        for e in self.errors.drain(keep..) {
            self.reviews.push(Violation::review(
                &e.pointer,
                e.code,
                e.message.into_owned(),
            ));
        }
        self.omitted = mark.errors.saturating_sub(keep);
        true
    }

    /// The current point, to come back to with [`Collector::rollback`].
    #[inline]
    pub fn save(&self) -> Saved {
        Saved {
            errors: self.errors.len(),
            omitted: self.omitted,
            structural_omitted: self.structural_omitted,
            reviews: self.reviews.len(),
        }
    }

    /// Takes back every error and review reason recorded since `saved` (a
    /// tagged union's variant decoded on a wrong guess). Errors kept then
    /// stay: [`Collector::quarantine_since`] only moves errors found after
    /// its own mark.
    pub fn rollback(&mut self, saved: Saved) {
        self.errors.truncate(saved.errors);
        self.omitted = saved.omitted;
        self.structural_omitted = saved.structural_omitted;
        self.reviews.truncate(saved.reviews);
    }

    /// Whether an error or a review reason was recorded at `pointer`.
    pub fn has_reason_at(&self, pointer: &str) -> bool {
        self.errors.iter().any(|e| e.pointer == pointer)
            || self.reviews.iter().any(|r| r.pointer == pointer)
    }

    /// Adds a review reason.
    pub fn review(&mut self, reason: Violation) {
        self.reviews.push(reason);
    }

    /// Whether the collector owns no allocation (it never held an error or
    /// a review reason): then it need not be dropped.
    #[inline]
    pub fn owns_nothing(&self) -> bool {
        self.errors.capacity() == 0 && self.reviews.capacity() == 0
    }

    /// Drops the collector; one that never held an error or a review
    /// reason (it owns no allocation) costs nothing to drop.
    #[inline]
    pub fn discard(self) {
        if self.owns_nothing() {
            // Nothing to free, so nothing is leaked: this skips the
            // out-of-line drop of the two lists.
            std::mem::forget(self);
        }
    }

    /// The errors, how many more were only counted, and the review reasons.
    pub fn finish(self) -> (Vec<Error>, usize, Vec<Violation>) {
        (self.errors, self.omitted, self.reviews)
    }

    /// The errors and how many more were only counted, the review reasons
    /// dropped: [`Collector::finish`] for a rejection.
    pub(crate) fn into_errors(self) -> (Vec<Error>, usize) {
        (self.errors, self.omitted)
    }
}
