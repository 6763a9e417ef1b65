//! Strict JSON reading: the policy every document goes through before its
//! shape is looked at.
//!
//! | input | decision |
//! |---|---|
//! | longer than `max_bytes` | `too_large`, before any parsing |
//! | nested deeper than `max_depth` | `too_deep` |
//! | not UTF-8 | `invalid_utf8` |
//! | starts with a byte-order mark | `byte_order_mark` |
//! | `NaN`, `Infinity`, `.5`, `+1`, comments, single quotes, trailing commas | `syntax` |
//! | `01`, `[1.]`, `[-]`, `[1e]` | `invalid_number` |
//! | `1e400`, a 400-digit integer (overflows f64) | `number_overflow` |
//! | `1E-400` (underflows) | accepted, as `0.0` |
//! | `-0` | accepted, as the integer `0` (`serde_json` reads the float `-0.0`); `-0.0` stays a float; a float field reads `-0` as `-0.0`, as a float parser does |
//! | `"\ud800"` (lone surrogate escape) | `lone_surrogate` |
//! | `"\x"`, `"\u12g4"` (an escape no continuation makes valid) | `invalid_escape` |
//! | the input ends inside a value (an output cut short): inside a string, even inside an escape or between a surrogate's halves (`"ab`, `"\u00`, `"\ud83d\u`), a number (`-`, `1.`, `1e+`), a literal (`tr`), an object or an array | `unexpected_end`, at the end of the input |
//! | a raw control character in a string | `control_character` |
//! | the same key twice in one object (after unescaping) | `duplicate_key`, at the member's pointer |
//! | anything after the value but whitespace | `trailing_data` |
//! | an integer beyond 64 bits (`100000000000000000000`) | accepted, as the nearest `f64` (an integer field refuses it: `out_of_range`) |
//! | keys that differ only in Unicode normalisation (NFC/NFD) | different keys (no normalisation) |
//!
//! Every refusal is a [`Stage::Parse`] error with line and
//! column, except `too_large`: it is decided from the length alone, before
//! anything is read, and has no position.
//!
//! Neither [`parse`] nor the reader's skip of a value recurses: nesting is kept on
//! a heap stack, so the depth limit, not the thread's stack size, bounds
//! what a document can nest.
//!
//! A parsed [`Value`] is another matter: `serde_json` drops, clones,
//! compares and prints it recursively. So [`parse`] never builds one nested
//! deeper than [`Limits::MAX_DEPTH`] (1024), whatever `max_depth` says. At
//! that depth dropping it takes about 0.3 MiB of stack in a debug build,
//! [`diff::changed_paths`](crate::diff::changed_paths) and
//! [`Fingerprint::of`](crate::fingerprint::Fingerprint::of) about 0.6 MiB,
//! `to_string` about 1 MiB: all fit a default 2 MiB thread (release builds
//! need less than half as much). `Value::clone` does not: 1024 nested objects
//! take about 2.1 MiB in debug (0.55 MiB in release).
use std::borrow::Cow;
use std::fmt;

use serde_json::{Map, Value};

use crate::code;
use crate::error::{Error, Rejection, Stage};

pub(crate) mod lexical;
mod path;
mod reader;

#[doc(hidden)]
pub use path::Path;
pub use reader::{Checkpoint, KeySet, Number, NumberValue, Peek, Reader, duplicate_key};

/// Size and depth limits for one document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest input accepted, in bytes.
    pub max_bytes: usize,
    /// The deepest nesting of arrays and objects accepted (the root object
    /// is depth 1), in the whole document: a contract's limits apply where
    /// it is the root ([`Contract::LIMITS`](crate::Contract::LIMITS)). [`parse`] reads a value above [`Limits::MAX_DEPTH`] as
    /// `MAX_DEPTH`.
    pub max_depth: usize,
}

impl Limits {
    /// 1 MiB and 64 levels.
    pub const DEFAULT: Limits = Limits {
        max_bytes: 1 << 20,
        max_depth: 64,
    };

    /// The deepest nesting a parsed [`Value`] may have (1024, as for
    /// `#[contract(max_depth)]`): `serde_json` drops a `Value` recursively,
    /// and at this depth that fits a default 2 MiB thread stack with room
    /// to spare (see the module docs).
    pub const MAX_DEPTH: usize = 1024;
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

// The code of `ParseError::stopped`, outside `code::ALL`.
const STOPPED: &str = "stopped at the error limit";

#[doc(hidden)]
/// A parse-stage failure: the scanner stops at the first one.
#[derive(Clone, PartialEq, Eq)]
pub struct ParseError(Box<ParseErrorInner>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct ParseErrorInner {
    code: &'static str,
    message: Cow<'static, str>,
    offset: usize,
    pointer: String,
}

impl ParseError {
    /// A parse error at byte `offset` of the input.
    pub fn new(code: &'static str, message: impl Into<Cow<'static, str>>, offset: usize) -> Self {
        ParseError(Box::new(ParseErrorInner {
            code,
            message: message.into(),
            offset,
            pointer: String::new(),
        }))
    }

    // The sentinel of a decode told to stop at a number of errors
    // (`Collector::check_stop`): not a parse failure, never reported.
    pub(crate) fn stopped() -> Self {
        ParseError::new(STOPPED, "", 0)
    }

    // Whether this is the sentinel of `stopped` (no reported code is this
    // text).
    pub(crate) fn is_stop(&self) -> bool {
        self.0.code == STOPPED
    }

    /// Sets the pointer (for a duplicate key: the member's pointer).
    pub fn with_pointer(mut self, pointer: String) -> Self {
        self.0.pointer = pointer;
        self
    }

    /// The stable code.
    pub fn code(&self) -> &'static str {
        self.0.code
    }

    /// The byte offset in the input.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// The error, with line and column computed against `src`.
    pub fn into_error(self, src: &[u8]) -> Error {
        let inner = *self.0;
        let (line, column) = line_column(src, inner.offset);
        Error::new(Stage::Parse, inner.pointer, inner.code, inner.message)
            .with_expected("well-formed JSON (RFC 8259) without duplicate keys")
            .at(line, column)
    }
}

impl fmt::Debug for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

// 1-based line and column (in characters) of byte `offset`.
fn line_column(src: &[u8], offset: usize) -> (usize, usize) {
    let before = src.get(..offset).unwrap_or(src);
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let rest = before.get(line_start..).unwrap_or_default();
    // Count characters: every byte that is not a UTF-8 continuation byte.
    let column = 1 + rest.iter().filter(|&&b| (b & 0xC0) != 0x80).count();
    (line, column)
}

#[doc(hidden)]
/// Checks size, encoding and byte-order mark: the part of the policy that
/// comes before scanning.
pub fn prepare<'a>(raw: &'a [u8], limits: &Limits) -> Result<&'a str, Rejection> {
    check_size(raw.len(), limits)?;
    let text = std::str::from_utf8(raw)
        .map_err(|e| {
            ParseError::new(
                code::INVALID_UTF8,
                "the input is not valid UTF-8",
                e.valid_up_to(),
            )
            .into_error(raw)
        })
        .map_err(Rejection::single)?;
    check_bom(text)?;
    Ok(text)
}

#[doc(hidden)]
/// Refuses an input longer than `limits.max_bytes`.
#[inline]
pub fn check_size(len: usize, limits: &Limits) -> Result<(), Rejection> {
    if len > limits.max_bytes {
        return Err(too_large(len, limits));
    }
    Ok(())
}

#[doc(hidden)]
/// Refuses a leading byte-order mark.
#[inline]
pub fn check_bom(text: &str) -> Result<(), Rejection> {
    if text.as_bytes().starts_with(BOM) {
        return Err(byte_order_mark(text));
    }
    Ok(())
}

#[doc(hidden)]
/// [`check_size`] then [`check_bom`] on a text, as one test on the way in
/// (the error, and which of the two comes first, are theirs).
#[inline]
pub fn check_text(text: &str, limits: &Limits) -> Result<(), Rejection> {
    if text.len() > limits.max_bytes || text.as_bytes().starts_with(BOM) {
        return Err(text_refused(text, limits));
    }
    Ok(())
}

// U+FEFF in UTF-8.
const BOM: &[u8] = b"\xEF\xBB\xBF";

#[cold]
#[inline(never)]
fn text_refused(text: &str, limits: &Limits) -> Rejection {
    if text.len() > limits.max_bytes {
        too_large(text.len(), limits)
    } else {
        byte_order_mark(text)
    }
}

#[cold]
#[inline(never)]
fn too_large(len: usize, limits: &Limits) -> Rejection {
    Rejection::single(
        Error::new(
            Stage::Parse,
            "",
            code::TOO_LARGE,
            format!(
                "the input is {len} bytes; the limit is {}",
                limits.max_bytes
            ),
        )
        .with_expected(format!("at most {} bytes", limits.max_bytes)),
    )
}

#[cold]
#[inline(never)]
fn byte_order_mark(text: &str) -> Rejection {
    Rejection::single(
        ParseError::new(
            code::BYTE_ORDER_MARK,
            "the input starts with a byte-order mark",
            0,
        )
        .into_error(text.as_bytes()),
    )
}

/// Parses `raw` under the strict policy (see the module docs) into a
/// `serde_json::Value`, nested at most `limits.max_depth` and never more
/// than [`Limits::MAX_DEPTH`] levels deep.
///
/// ```
/// use contract_runtime::json::{parse, Limits};
///
/// let value = parse(br#"{"a": [1, 2.5, null]}"#, &Limits::default()).unwrap();
/// assert_eq!(value["a"][1], 2.5);
///
/// let rejection = parse(br#"{"a": 1, "a": 2}"#, &Limits::default()).unwrap_err();
/// assert_eq!(rejection.errors[0].code, "duplicate_key");
/// assert_eq!(rejection.errors[0].pointer, "/a");
/// ```
pub fn parse(raw: &[u8], limits: &Limits) -> Result<Value, Rejection> {
    let text = prepare(raw, limits)?;
    parse_str(text, limits.max_depth).map_err(|e| Rejection::single(e.into_error(raw)))
}

#[doc(hidden)]
/// [`parse`] on text that has passed [`prepare`].
pub fn parse_str(text: &str, max_depth: usize) -> Result<Value, ParseError> {
    let mut reader = Reader::new(text, max_depth);
    let value = read_value(&mut reader, &Path::Root)?;
    reader.finish()?;
    Ok(value)
}

#[doc(hidden)]
/// Reads one value of any type into a `serde_json::Value`.
///
/// Iterative, not recursive: the nesting lives in a heap stack of open
/// containers, so the call stack it needs does not grow with `max_depth`
/// (a document at the depth limit parses on a 64 KiB thread). The value
/// nests at most [`Limits::MAX_DEPTH`] levels (counted from where it
/// starts), whatever the reader's own limit: deeper is `too_deep`.
pub fn read_value(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Value, ParseError> {
    let mut open: Vec<Open> = Vec::new();
    'value: loop {
        // The start of a value: a scalar or an empty container is complete;
        // a non-empty container is opened and its first element read next.
        let mut value = match r.peek()? {
            Peek::Null => {
                r.read_null()?;
                Value::Null
            }
            Peek::True | Peek::False => Value::Bool(r.read_bool()?),
            Peek::Number => Value::Number(r.read_number()?.to_json()),
            Peek::String => Value::String(r.read_string()?),
            Peek::Array | Peek::Object if open.len() >= Limits::MAX_DEPTH => {
                return Err(too_deep_for_a_value(r.offset()));
            }
            Peek::Array => {
                if r.begin_array()? {
                    open.push(Open::Array(Vec::new()));
                    continue 'value;
                }
                Value::Array(Vec::new())
            }
            Peek::Object => {
                if r.begin_object()? {
                    let key = r.read_key()?.to_owned();
                    open.push(Open::Object(Map::new(), key));
                    continue 'value;
                }
                Value::Object(Map::new())
            }
        };
        // A complete value goes into the innermost open container; when that
        // container ends, it is the complete value for the one around it.
        loop {
            match open.last_mut() {
                None => return Ok(value),
                Some(Open::Array(items)) => {
                    items.push(value);
                    if r.array_more()? {
                        continue 'value;
                    }
                    value = Value::Array(std::mem::take(items));
                }
                Some(Open::Object(map, key)) => {
                    map.insert(std::mem::take(key), value);
                    if r.object_more()? {
                        let at = r.offset();
                        let next = r.read_key()?;
                        if map.contains_key(next) {
                            let pointer = open_pointer(path, &open, next);
                            return Err(reader::duplicate_key_at(at, pointer));
                        }
                        key.push_str(next);
                        continue 'value;
                    }
                    value = Value::Object(std::mem::take(map));
                }
            }
            open.pop();
        }
    }
}

#[cold]
fn too_deep_for_a_value(offset: usize) -> ParseError {
    ParseError::new(
        code::TOO_DEEP,
        format!("nesting deeper than the limit of {}", Limits::MAX_DEPTH),
        offset,
    )
}

// A container that `read_value` has begun and not yet ended: an array and
// its elements so far, or an object, its members so far and the key whose
// value is being read.
enum Open {
    Array(Vec<Value>),
    Object(Map<String, Value>, String),
}

// The pointer of member `key` of the innermost open container (an object).
#[cold]
fn open_pointer(path: &Path<'_>, open: &[Open], key: &str) -> String {
    let mut out = path.to_pointer();
    let outer = open.get(..open.len().saturating_sub(1)).unwrap_or_default();
    for container in outer {
        match container {
            Open::Array(items) => crate::pointer::push_index(&mut out, items.len()),
            Open::Object(_, member) => crate::pointer::push_escaped(&mut out, member),
        }
    }
    crate::pointer::push_escaped(&mut out, key);
    out
}
