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
use crate::error::{Error, PointerString, Rejection, Stage};

pub(crate) mod lexical;
mod reader;

#[doc(hidden)]
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
/// A location in the document being read, kept on the stack as a linked
/// list and turned into an RFC 6901 pointer only when an error needs one.
#[derive(Debug, Clone, Copy)]
pub enum Path<'a> {
    /// The whole document.
    Root,
    /// A member of an object.
    Key(&'a Path<'a>, &'a str),
    /// An element of an array.
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    /// The member `key` below this location.
    #[inline]
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    /// The element `index` below this location.
    #[inline]
    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path::Index(self, index)
    }

    /// The RFC 6901 pointer of this location, as an [`Error`] holds it:
    /// written in place, without a heap allocation, when none of its keys
    /// needs escaping and it is at most [`PointerString::INLINE`] bytes.
    #[inline]
    pub fn pointer(&self) -> PointerString {
        match self.inline_pointer() {
            Some(pointer) => pointer,
            None => self.heap_pointer(),
        }
    }

    // A pointer that does not fit inline, or needs escaping.
    #[cold]
    #[inline(never)]
    fn heap_pointer(&self) -> PointerString {
        PointerString::from(self.to_pointer())
    }

    // The pointer written inline, in one walk from its end (the leaf's
    // segment first) to the root, each key checked for `~` and `/` as it
    // is copied, a word at a time. `None` when it does not fit or a key
    // needs escaping.
    #[inline]
    fn inline_pointer(&self) -> Option<PointerString> {
        let mut buf = [0; PointerString::INLINE];
        let mut start = PointerString::INLINE;
        let mut at = self;
        loop {
            let parent = match at {
                Path::Root => return Some(PointerString::inline(buf, start)),
                Path::Key(parent, key) => {
                    let from = start.checked_sub(key.len())?;
                    copy_plain(buf.get_mut(from..start)?, key.as_bytes())?;
                    start = from;
                    parent
                }
                Path::Index(parent, index) => {
                    let mut n = *index;
                    loop {
                        start = start.checked_sub(1)?;
                        *buf.get_mut(start)? = b'0' + (n % 10) as u8;
                        n /= 10;
                        if n == 0 {
                            break;
                        }
                    }
                    parent
                }
            };
            start = start.checked_sub(1)?;
            *buf.get_mut(start)? = b'/';
            at = parent;
        }
    }

    /// The RFC 6901 pointer of this location.
    pub fn to_pointer(&self) -> String {
        // A member of the root (most errors' location) in two copies.
        if let Path::Key(Path::Root, key) = self
            && !crate::pointer::needs_escape(key)
        {
            let mut out = String::with_capacity(key.len() + 1);
            out.push('/');
            out.push_str(key);
            return out;
        }
        // One walk for the length and whether any key needs escaping, then
        // one allocation of the right size (a segment that needs escaping
        // grows it once more); the root allocates nothing.
        let (len, plain) = self.pointer_len();
        if len == 0 {
            return String::new();
        }
        let mut out = String::with_capacity(len);
        if plain {
            self.write_plain(&mut out);
        } else {
            self.write_pointer(&mut out);
        }
        out
    }

    // The pointer's length when no segment needs escaping, and whether
    // none does.
    fn pointer_len(&self) -> (usize, bool) {
        let mut len = 0;
        let mut plain = true;
        let mut at = self;
        loop {
            match at {
                Path::Root => return (len, plain),
                Path::Key(parent, key) => {
                    len += 1 + key.len();
                    plain = plain && !crate::pointer::needs_escape(key);
                    at = parent;
                }
                Path::Index(parent, index) => {
                    len += 1 + decimal_digits(*index);
                    at = parent;
                }
            }
        }
    }

    // `write_pointer` for a path none of whose keys needs escaping: each
    // key copied whole.
    fn write_plain(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Key(parent, key) => {
                parent.write_plain(out);
                out.push('/');
                out.push_str(key);
            }
            Path::Index(parent, index) => {
                parent.write_plain(out);
                crate::pointer::push_index(out, *index);
            }
        }
    }

    pub(crate) fn write_pointer(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Key(parent, key) => {
                parent.write_pointer(out);
                crate::pointer::push_escaped(out, key);
            }
            Path::Index(parent, index) => {
                parent.write_pointer(out);
                crate::pointer::push_index(out, *index);
            }
        }
    }
}

// Copies `src` into `dst` (of the same length), or `None` if `src` holds
// `~` or `/`: eight (or four) bytes at a time, the last word overlapping
// the one before it, so that a member name takes a few loads and stores.
#[inline]
fn copy_plain(dst: &mut [u8], src: &[u8]) -> Option<()> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const TILDES: u64 = ONES * b'~' as u64;
    const SLASHES: u64 = ONES * b'/' as u64;
    // Whether a byte of `w` is `~` or `/` (the classic zero-byte test on
    // `w` with either splatted byte taken out).
    fn special(w: u64) -> bool {
        let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
        (zero(w ^ TILDES) | zero(w ^ SLASHES)) != 0
    }
    let n = src.len();
    if n >= 8 {
        let mut i = 0;
        loop {
            // The last word ends at the end, overlapping the one before.
            let at = i.min(n - 8);
            let word: [u8; 8] = src.get(at..at + 8)?.try_into().ok()?;
            if special(u64::from_le_bytes(word)) {
                return None;
            }
            dst.get_mut(at..at + 8)?.copy_from_slice(&word);
            i += 8;
            if i >= n {
                return Some(());
            }
        }
    }
    if n >= 4 {
        // Two words of four, overlapping when `n < 8`, tested as one.
        let head: [u8; 4] = src.get(..4)?.try_into().ok()?;
        let tail: [u8; 4] = src.get(n - 4..)?.try_into().ok()?;
        let w = u64::from(u32::from_le_bytes(head)) | (u64::from(u32::from_le_bytes(tail)) << 32);
        if special(w) {
            return None;
        }
        dst.get_mut(..4)?.copy_from_slice(&head);
        dst.get_mut(n - 4..)?.copy_from_slice(&tail);
        return Some(());
    }
    for (d, &b) in dst.iter_mut().zip(src) {
        if b == b'~' || b == b'/' {
            return None;
        }
        *d = b;
    }
    Some(())
}

// How many decimal digits `n` has.
fn decimal_digits(mut n: usize) -> usize {
    let mut digits = 1;
    while n >= 10 {
        n /= 10;
        digits += 1;
    }
    digits
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

#[cfg(test)]
mod tests {
    use super::{Path, PointerString};

    // `to_pointer` (sized by `pointer_len`) writes what `write_pointer`
    // writes: short and long keys, keys that need escaping, multi-byte keys,
    // indices of every width.
    #[test]
    fn to_pointer_agrees_with_the_forward_writer() {
        let keys = [
            "a",
            "",
            "name",
            "é~ü",
            "a/b",
            "ключ",
            &"x".repeat(40),
            &"y".repeat(95),
        ];
        let indices = [0, 7, 10, 99, 12345, usize::MAX];
        let root = Path::Root;
        assert_eq!(root.to_pointer(), "");
        for k1 in keys {
            let p1 = root.key(k1);
            for i in indices {
                let p2 = p1.index(i);
                for k2 in keys {
                    let p3 = p2.key(k2);
                    for p in [&p1, &p2, &p3] {
                        let mut forwards = String::new();
                        p.write_pointer(&mut forwards);
                        assert_eq!(p.to_pointer(), forwards);
                    }
                }
            }
        }
        assert_eq!(
            root.key("a/b").index(10).key("~").to_pointer(),
            "/a~1b/10/~0"
        );
    }

    // `pointer` (inline when it fits and nothing needs escaping) writes
    // what `to_pointer` writes: keys of every length up to past the inline
    // room, with `~` or `/` at every position, multi-byte keys, indices.
    #[test]
    fn pointer_agrees_with_to_pointer() {
        let mut keys: Vec<String> = (0..=40).map(|n| "k".repeat(n)).collect();
        for n in 1..=20 {
            for at in 0..n {
                for special in ['~', '/'] {
                    let mut key: Vec<char> = "m".repeat(n).chars().collect();
                    key[at] = special;
                    keys.push(key.into_iter().collect());
                }
            }
        }
        keys.extend(["é~ü", "ключ", "ключи", "名前", "a/b"].map(String::from));
        let root = Path::Root;
        assert_eq!(root.pointer(), "");
        let mut inline = 0;
        for k1 in &keys {
            let p1 = root.key(k1);
            for i in [0, 7, 10, 99, 12345, usize::MAX] {
                let p2 = p1.index(i);
                for k2 in ["", "a", "qty", "unit_price", "x~y", "é"] {
                    let p3 = p2.key(k2);
                    for p in [&p1, &p2, &p3] {
                        let pointer = p.pointer();
                        assert_eq!(pointer, p.to_pointer());
                        assert_eq!(pointer.as_str(), p.to_pointer());
                        inline += usize::from(pointer.len() <= PointerString::INLINE);
                    }
                }
            }
        }
        assert!(inline > 1000, "{inline}");
    }
}
