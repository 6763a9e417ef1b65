//! The decoding engine behind `from_json`: one pass over the text with the
//! strict [`Reader`], no `serde_json::Value` built first.
//!
//! Why a purpose-built scanner: a wrong type must not stop the pass (every
//! error of the document is collected), keys must be compared after
//! unescaping, duplicate keys must be caught at any depth, and numbers must
//! keep "written as an integer" apart from "written with a fraction". A pull
//! scanner driven by generated code does all of this in the same pass that
//! builds the value: a field bitset finds missing and duplicate keys, and a
//! value of the wrong type is skipped (still checked strictly) while the
//! error is recorded. It also keeps the engine behind one module: generated
//! code sees only [`JsonType`], [`Reader`] and [`Collector`].
//!
//! The impls are grouped by family: `primitives` (booleans, numbers,
//! strings), `collections` (`Option`, `Box`, `Vec`, `BTreeMap`), `dates`
//! ([`Date`](crate::Date), [`DateTime`](crate::DateTime) and the optional
//! foreign date types), `formats` (`pattern`, `format = "email" | "uuid"`), `union`
//! (a tagged union: its tag found, its variant decoded), `arrays` (an
//! array field's checks, run while it is read, so that a failing item
//! hides no other error of the array), `borrowed` (`&str` and `Cow<str>`
//! fields, and `BorrowDecode`: a contract with a lifetime reading the text
//! it borrows from); the
//! schema-stage errors they and generated code record live here.
use crate::code;
use crate::error::Stage;
use crate::json::{KeySet, ParseError, Path, Peek, Reader, duplicate_key};
pub use crate::json_type::{Collector, JsonType};
use crate::json_type::{Mark, TagSeen};

pub use arrays::{ArrayField, read_array, read_array_items};
pub use borrowed::{
    BorrowArray, BorrowDecode, BorrowMembers, member_borrowed_array, member_borrowed_array_items,
    read_borrowed_array, read_borrowed_array_items,
};
pub use bounds::{Check, Checkable, Literal};
pub use formats::{Format, Pattern, check_format, check_pattern, is_email, is_uuid};
pub use length::{LenCheck, Length};
pub use member::{
    Slot, member, member_array, member_array_items, member_index, member_unchecked, no_lookup,
    present_all,
};
pub use primitives::narrow_f32;
pub use union::{DecodeVariant, Tag, decode_union};

/// Runs `f` in a stack frame of its own. Generated struct decoders read
/// each member's value through it: unoptimised, a function's frame holds
/// the temporaries of all its branches, so a member loop that decoded every
/// member inline would cost a recursive contract a frame that grows with
/// its member count at every level. Optimised builds inline it away.
#[inline]
pub fn own_frame<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Wrong-type messages for one expectation, one per JSON type found, fixed
/// at compile time so that recording the error allocates only its pointer.
#[derive(Debug)]
pub struct TypeMessages {
    /// What was expected ("a string").
    pub expected: &'static str,
    /// "expected X, found object", "… array", "… string", "… number",
    /// "… boolean", "… null", then the words of an integer's other errors
    /// restated with a declared range: "… a number outside that range",
    /// "… a number written with a fraction or exponent".
    pub found: [&'static str; 8],
}

impl TypeMessages {
    fn message(&self, found: Peek) -> &'static str {
        let i = match found {
            Peek::Object => 0,
            Peek::Array => 1,
            Peek::String => 2,
            Peek::Number => 3,
            Peek::True | Peek::False => 4,
            Peek::Null => 5,
        };
        self.found[i]
    }
}

/// Builds a [`TypeMessages`] from a literal expectation.
#[macro_export]
#[doc(hidden)]
macro_rules! __type_messages {
    ($expected:literal) => {
        $crate::__private::TypeMessages {
            expected: $expected,
            found: [
                concat!("expected ", $expected, ", found object"),
                concat!("expected ", $expected, ", found array"),
                concat!("expected ", $expected, ", found string"),
                concat!("expected ", $expected, ", found number"),
                concat!("expected ", $expected, ", found boolean"),
                concat!("expected ", $expected, ", found null"),
                concat!(
                    "expected ",
                    $expected,
                    ", found a number outside that range"
                ),
                concat!(
                    "expected ",
                    $expected,
                    ", found a number written with a fraction or exponent"
                ),
            ],
        }
    };
}

pub(crate) static OBJECT: TypeMessages = crate::__type_messages!("an object");

// Records a wrong-type error with messages fixed at compile time.
macro_rules! wrong_type {
    ($r:expr, $path:expr, $cx:expr, $expected:literal, $found:expr) => {{
        static MESSAGES: crate::decode::TypeMessages = crate::__type_messages!($expected);
        crate::decode::invalid_type_of($r, $path, $cx, &MESSAGES, $found)
    }};
}

// The impls, after `wrong_type!` so that they can use it.
mod arrays;
mod borrowed;
mod bounds;
mod collections;
mod dates;
mod formats;
mod length;
mod member;
mod primitives;
mod union;

/// Records a wrong-type error and skips the value.
#[inline]
pub fn invalid_type<T>(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Collector,
    expected: &'static str,
    found: Peek,
) -> Result<Option<T>, ParseError> {
    wrong_type(r, path, cx, expected, found)?;
    Ok(None)
}

/// `invalid_type`'s work, written once for every `T`: what generated
/// decoders call (then `Ok(None)`), so that no copy of it is made per
/// contract.
#[cold]
#[inline(never)]
pub fn wrong_type(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Collector,
    expected: &'static str,
    found: Peek,
) -> Result<(), ParseError> {
    if expected == OBJECT.expected {
        return wrong_type_of(r, path, cx, &OBJECT, found);
    }
    // Past the cap the error is only counted: build no message for it.
    let message = if cx.is_full() {
        std::borrow::Cow::Borrowed("")
    } else {
        std::borrow::Cow::Owned(format!("expected {expected}, found {}", found.type_name()))
    };
    cx.error(Stage::Schema, path, code::INVALID_TYPE, message, expected);
    cx.check_stop()?;
    r.skip_value(path)
}

/// `invalid_type` with messages fixed at compile time.
#[inline]
pub fn invalid_type_of<T>(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Collector,
    messages: &'static TypeMessages,
    found: Peek,
) -> Result<Option<T>, ParseError> {
    wrong_type_of(r, path, cx, messages, found)?;
    Ok(None)
}

// `invalid_type_of`'s work, written once for every `T`.
#[cold]
#[inline(never)]
fn wrong_type_of(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Collector,
    messages: &'static TypeMessages,
    found: Peek,
) -> Result<(), ParseError> {
    cx.error(
        Stage::Schema,
        path,
        code::INVALID_TYPE,
        messages.message(found),
        messages.expected,
    );
    cx.check_stop()?;
    r.skip_value(path)
}

#[cold]
#[inline(never)]
pub(crate) fn out_of_range<T>(
    path: &Path<'_>,
    cx: &mut Collector,
    message: &'static str,
    expected: &'static str,
) -> Option<T> {
    cx.error(Stage::Schema, path, code::OUT_OF_RANGE, message, expected);
    None
}

#[cold]
#[inline(never)]
pub(crate) fn not_integer<T>(
    path: &Path<'_>,
    cx: &mut Collector,
    expected: &'static str,
) -> Option<T> {
    cx.error(
        Stage::Schema,
        path,
        code::INVALID_TYPE,
        "expected an integer, found a number written with a fraction or exponent",
        expected,
    );
    None
}

/// Records a schema-stage error.
#[cold]
#[inline(never)]
pub fn field_error(
    cx: &mut Collector,
    path: &Path<'_>,
    code: &'static str,
    message: &'static str,
    expected: &'static str,
) {
    cx.error(Stage::Schema, path, code, message, expected);
}

/// A member no field declares, its key of `len` bytes read at `at` (taken
/// again here as a slice of the input, copied only if it has escapes): a
/// tagged union's tag, met once (`true`; twice is a duplicate key:
/// [`TagSeen::meet`]), or an unknown key (`false`): an error at the
/// member's pointer, its value skipped; a second occurrence of the same
/// unknown key is a duplicate. Not inlined: the key lives in this frame,
/// not in the member loop's.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub fn undeclared_member(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Collector,
    seen: &mut Option<KeySet>,
    at: usize,
    len: usize,
    tag: Option<&str>,
    tag_seen: &mut TagSeen,
) -> Result<bool, ParseError> {
    let key = r.key_at(at, len);
    let key: &str = &key;
    if tag == Some(key) {
        tag_seen.meet(r, path, at, key)?;
        return Ok(true);
    }
    // A key read from the input is kept as its byte range (no copy).
    if !seen.get_or_insert_default().insert_in(r.input(), key) {
        return Err(duplicate_key(at, path, key));
    }
    let member = path.key(key);
    cx.error(
        Stage::Schema,
        &member,
        code::UNKNOWN_KEY,
        "this key is not part of the contract",
        "only the keys the schema declares",
    );
    cx.check_stop()?;
    r.skip_value(&member)?;
    Ok(false)
}

/// Drops a member loop's set of undeclared keys, if it made one
/// ([`undeclared_member`]): most objects have none, and pay one test.
#[inline(always)]
pub fn discard_keys(keys: Option<KeySet>) {
    if let Some(keys) = keys {
        keys.discard();
    }
}

/// A tagged union's tag met in a member loop (its key read at `at`): see
/// [`TagSeen::meet`]. `Ok(true)`, as a member read without error.
#[inline]
pub fn meet_tag(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    at: usize,
    tag: Option<&str>,
    tag_seen: &mut TagSeen,
) -> Result<bool, ParseError> {
    tag_seen.meet(r, path, at, tag.unwrap_or_default())?;
    Ok(true)
}

/// What kind of member an absent key is: what its `missing_key` error says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Absent {
    /// A field that cannot be null.
    Field,
    /// A nullable field (`Option<T>` without `optional`): present, with null.
    Nullable,
}

/// Records a declared key that is absent.
#[cold]
#[inline(never)]
pub fn missing_key(cx: &mut Collector, path: &Path<'_>, name: &str, absent: Absent) {
    let (message, expected) = match absent {
        Absent::Field => ("missing required key", "the key present"),
        Absent::Nullable => (
            "missing required key (a nullable field must be present, with null when it has no value)",
            "the key present, with null when it has no value",
        ),
    };
    cx.error(
        Stage::Schema,
        &path.key(name),
        code::MISSING_KEY,
        message,
        expected,
    );
}

/// Records a tagged union's absent tag (`tag` is the tag's name; `expected`
/// lists the variants' names, "one of: \"a\", \"b\"").
#[cold]
#[inline(never)]
pub fn missing_tag(cx: &mut Collector, path: &Path<'_>, tag: &str, expected: &'static str) {
    let message = if cx.is_full() {
        std::borrow::Cow::Borrowed("")
    } else {
        std::borrow::Cow::Owned(format!("the tag `{tag}` is required: {expected}"))
    };
    cx.error(
        Stage::Schema,
        &path.key(tag),
        code::MISSING_KEY,
        message,
        expected,
    );
}

/// What follows "expected <words>" in each of [`TypeMessages::found`], in
/// its order (`__type_messages!` writes them so).
const FOUND: [&str; 8] = [
    ", found object",
    ", found array",
    ", found string",
    ", found number",
    ", found boolean",
    ", found null",
    ", found a number outside that range",
    ", found a number written with a fraction or exponent",
];

/// Restates the type errors of a value whose field declares `min`/`max`
/// (`invalid_type` and `out_of_range` at `path`, recorded since `mark`)
/// with the declared range (`range`, "an integer from 1 to 50") in
/// place of the Rust type's: a model is told the range it must write.
#[cold]
#[inline(never)]
pub fn declared_range(
    cx: &mut Collector,
    mark: Mark,
    _path: &Path<'_>,
    range: &'static TypeMessages,
) {
    // A field with a declared range holds a number, whose value has no
    // members: every type or range error since `mark` is at `path` itself
    // (no pointer to build and compare).
    for e in cx.errors_since(mark) {
        if !(e.code == code::INVALID_TYPE || e.code == code::OUT_OF_RANGE) {
            continue;
        }
        // "expected <the type's range>, found <what>": the same, with the
        // declared range.
        // What was found is most often a JSON type or a number out of the
        // type's range: the type's message is "expected <its words>" and one
        // of `FOUND`, and the declared range's message for the same thing,
        // fixed at compile time, is at the same index of `range.found`.
        // (An integer's fraction error has other words before its `FOUND`:
        // it is found by its end.)
        let found = e
            .message
            .get("expected ".len() + e.expected.len()..)
            .and_then(|suffix| FOUND.iter().position(|f| *f == suffix))
            .or_else(|| FOUND.iter().position(|f| e.message.ends_with(f)));
        if let Some(fixed) = found.and_then(|i| range.found.get(i)) {
            e.message = std::borrow::Cow::Borrowed(fixed);
            e.expected = std::borrow::Cow::Borrowed(range.expected);
            continue;
        }
        // The last comma is the one before "found" (neither the range's
        // words nor a number have one); a search for a byte, not a word.
        if let Some(at) = e
            .message
            .rfind(',')
            .filter(|&at| e.message[at..].starts_with(", found "))
        {
            let found = &e.message[at..];
            let expected = range.expected;
            let mut message =
                String::with_capacity("expected ".len() + expected.len() + found.len());
            message.push_str("expected ");
            message.push_str(expected);
            message.push_str(found);
            e.message = std::borrow::Cow::Owned(message);
        }
        e.expected = std::borrow::Cow::Borrowed(range.expected);
    }
}

/// Records a string that names no variant.
#[cold]
#[inline(never)]
pub fn not_one_of(
    cx: &mut Collector,
    path: &Path<'_>,
    message: &'static str,
    expected: &'static str,
) {
    cx.error(Stage::Schema, path, code::NOT_ONE_OF, message, expected);
}
