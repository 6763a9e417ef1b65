//! The strict pull scanner that both [`super::parse`] and generated decoders drive.
//!
//! The input is a `&str`, so UTF-8 is already proven; the scanner checks the
//! rest of the policy as it goes: grammar, escapes, lone surrogates, control
//! characters, numbers that overflow f64, depth. Duplicate keys are the
//! caller's job (a generated struct decoder uses a field bitset; maps and
//! skipped objects use [`KeySet`]), because only the caller knows how keys are
//! stored.
//!
//! This file holds the scanner and its structure (values, objects, arrays,
//! skipping); `strings` reads strings, `numbers` numbers, `keys` holds the
//! duplicate-key set. The lexical rules (escapes, number syntax, which
//! bytes are what) are [`super::lexical`]'s, shared with the stream's
//! scanner.
use std::borrow::Cow;

use super::lexical::is_whitespace;
use super::{ParseError, Path};
use crate::code;

mod keys;
mod literal;
mod numbers;
mod strings;

pub use super::lexical::{Number, NumberValue, Peek};
pub(in crate::json) use keys::duplicate_key_at;
pub use keys::{KeySet, duplicate_key};

/// A position of a [`Reader`] (see [`Reader::checkpoint`]).
#[derive(Debug, Clone, Copy)]
pub struct Checkpoint {
    pos: usize,
    depth: usize,
}

/// A strict JSON pull scanner over a `&str`.
#[derive(Debug)]
pub struct Reader<'de> {
    src: &'de str,
    pos: usize,
    depth: usize,
    max_depth: usize,
    scratch: String,
}

impl<'de> Reader<'de> {
    /// A scanner over `src` that refuses nesting deeper than `max_depth`.
    pub fn new(src: &'de str, max_depth: usize) -> Self {
        Reader {
            src,
            pos: 0,
            depth: 0,
            max_depth,
            scratch: String::new(),
        }
    }

    /// The byte offset of the next unread byte.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// How many containers are open at the next unread byte.
    #[inline]
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The whole input, which keys read without escapes borrow
    /// ([`KeySet::insert_in`]).
    #[inline]
    pub fn input(&self) -> &'de str {
        self.src
    }

    /// Where the scanner is, to come back to with [`Reader::rewind`].
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            pos: self.pos,
            depth: self.depth,
        }
    }

    /// Goes back to `at`, to read again what was skipped since: a tagged
    /// union looks ahead for its tag this way.
    pub fn rewind(&mut self, at: Checkpoint) {
        self.pos = at.pos;
        self.depth = at.depth;
    }

    #[inline]
    fn bytes(&self) -> &'de [u8] {
        self.src.as_bytes()
    }

    #[inline]
    fn skip_ws(&mut self) {
        let bytes = self.bytes();
        while let Some(&b) = bytes.get(self.pos) {
            if is_whitespace(b) {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn error_here(&self, code: &'static str, message: impl Into<Cow<'static, str>>) -> ParseError {
        ParseError::new(code, message, self.pos)
    }

    fn unexpected(&self, what: &'static str) -> ParseError {
        match self.bytes().get(self.pos) {
            None => self.error_here(
                code::UNEXPECTED_END,
                format!("the input ends where {what} was expected"),
            ),
            Some(&b) if b.is_ascii_graphic() => self.error_here(
                code::SYNTAX,
                format!("expected {what}, found `{}`", b as char),
            ),
            Some(_) => self.error_here(code::SYNTAX, format!("expected {what}")),
        }
    }

    /// Skips whitespace and tells the kind of the next value.
    #[inline]
    pub fn peek(&mut self) -> Result<Peek, ParseError> {
        self.skip_ws();
        match self.bytes().get(self.pos).and_then(|&b| Peek::of(b)) {
            Some(kind) => Ok(kind),
            None => Err(self.unexpected("a JSON value")),
        }
    }

    /// Checks that only whitespace is left.
    #[inline]
    pub fn finish(&mut self) -> Result<(), ParseError> {
        // Most documents end at their last `}`.
        if self.pos >= self.src.len() {
            return Ok(());
        }
        self.finish_after_ws()
    }

    #[inline(never)]
    fn finish_after_ws(&mut self) -> Result<(), ParseError> {
        self.skip_ws();
        if self.pos < self.src.len() {
            Err(self.error_here(code::TRAILING_DATA, "unexpected data after the JSON value"))
        } else {
            Ok(())
        }
    }

    // Inlined, so that the comparison with a constant word is a few
    // integer compares rather than a call.
    #[inline]
    fn literal(&mut self, word: &'static str) -> Result<(), ParseError> {
        let end = self.pos + word.len();
        if self.bytes().get(self.pos..end) == Some(word.as_bytes()) {
            self.pos = end;
            Ok(())
        } else {
            Err(self.not_literal(word))
        }
    }

    // A literal the input ends inside (`tr`, an output cut short) is
    // `unexpected_end`; any other byte in it is a syntax error.
    #[cold]
    #[inline(never)]
    fn not_literal(&self, word: &'static str) -> ParseError {
        let rest = self.bytes().get(self.pos..).unwrap_or_default();
        if rest.len() < word.len() && word.as_bytes().starts_with(rest) {
            ParseError::new(
                code::UNEXPECTED_END,
                format!("the input ends inside `{word}`"),
                self.bytes().len(),
            )
        } else {
            self.error_here(code::SYNTAX, format!("expected `{word}`"))
        }
    }

    /// Reads `true` or `false` (after [`Reader::peek`] said so).
    #[inline]
    pub fn read_bool(&mut self) -> Result<bool, ParseError> {
        match self.bytes().get(self.pos) {
            Some(b't') => self.literal("true").map(|()| true),
            Some(b'f') => self.literal("false").map(|()| false),
            _ => Err(self.unexpected("a boolean")),
        }
    }

    /// Reads `null`.
    #[inline]
    pub fn read_null(&mut self) -> Result<(), ParseError> {
        self.literal("null")
    }

    // Inline, with its error out of line: every object and array read
    // passes here.
    #[inline]
    fn enter(&mut self) -> Result<(), ParseError> {
        if self.depth >= self.max_depth {
            return Err(self.too_deep());
        }
        self.depth += 1;
        self.pos += 1;
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&self) -> ParseError {
        self.error_here(
            code::TOO_DEEP,
            format!("nesting deeper than the limit of {}", self.max_depth),
        )
    }

    /// Consumes `{`; `true` when a member follows, `false` for `{}`.
    #[inline]
    pub fn begin_object(&mut self) -> Result<bool, ParseError> {
        self.skip_ws();
        if self.bytes().get(self.pos) != Some(&b'{') {
            return Err(self.unexpected("`{`"));
        }
        self.enter()?;
        self.skip_ws();
        match self.bytes().get(self.pos) {
            Some(b'}') => {
                self.pos += 1;
                self.depth -= 1;
                Ok(false)
            }
            Some(b'"') => Ok(true),
            _ => Err(self.unexpected("a string key or `}`")),
        }
    }

    /// After a member's value: `true` when another member follows (the `,`
    /// is consumed), `false` at `}` (consumed).
    #[inline]
    pub fn object_more(&mut self) -> Result<bool, ParseError> {
        self.skip_ws();
        match self.bytes().get(self.pos) {
            Some(b',') => {
                self.pos += 1;
                self.skip_ws();
                if self.bytes().get(self.pos) == Some(&b'"') {
                    Ok(true)
                } else {
                    Err(self.unexpected("a string key"))
                }
            }
            Some(b'}') => {
                self.pos += 1;
                self.depth -= 1;
                Ok(false)
            }
            _ => Err(self.unexpected("`,` or `}`")),
        }
    }

    /// Reads a member's key and its `:`. The key is unescaped; it borrows the
    /// input, or the scanner's scratch buffer when it had escapes.
    #[inline]
    pub fn read_key(&mut self) -> Result<&str, ParseError> {
        let raw = self.scan_string()?;
        self.skip_ws();
        if self.bytes().get(self.pos) != Some(&b':') {
            return Err(self.unexpected("`:`"));
        }
        self.pos += 1;
        Ok(match raw {
            Some(s) => s,
            None => &self.scratch,
        })
    }

    /// Consumes `[`; `true` when an element follows, `false` for `[]`.
    #[inline]
    pub fn begin_array(&mut self) -> Result<bool, ParseError> {
        self.skip_ws();
        if self.bytes().get(self.pos) != Some(&b'[') {
            return Err(self.unexpected("`[`"));
        }
        self.enter()?;
        self.skip_ws();
        if self.bytes().get(self.pos) == Some(&b']') {
            self.pos += 1;
            self.depth -= 1;
            Ok(false)
        } else {
            Ok(true)
        }
    }

    /// After an element: `true` when another follows (`,` consumed), `false`
    /// at `]` (consumed).
    #[inline]
    pub fn array_more(&mut self) -> Result<bool, ParseError> {
        self.skip_ws();
        match self.bytes().get(self.pos) {
            Some(b',') => {
                self.pos += 1;
                self.skip_ws();
                if self.bytes().get(self.pos) == Some(&b']') {
                    Err(self.unexpected("a value"))
                } else {
                    Ok(true)
                }
            }
            Some(b']') => {
                self.pos += 1;
                self.depth -= 1;
                Ok(false)
            }
            _ => Err(self.unexpected("`,` or `]`")),
        }
    }

    /// Skips one value, checking it as strictly as if it were read: grammar,
    /// depth, escapes, numbers, and duplicate keys (reported at their pointer
    /// below `path`).
    ///
    /// Iterative, like [`super::read_value`]: the call stack it needs does
    /// not grow with the depth of the value.
    pub fn skip_value(&mut self, path: &Path<'_>) -> Result<(), ParseError> {
        // A scalar, what most skipped values are (the value of a member of
        // the wrong type): read and done, with no container set up.
        match self.peek()? {
            Peek::String => self.scan_string().map(drop),
            Peek::Number => self.read_number().map(drop),
            Peek::True | Peek::False => self.read_bool().map(drop),
            Peek::Null => self.read_null(),
            Peek::Object | Peek::Array => self.skip_container(path),
        }
    }

    // `skip_value` of an object or an array.
    fn skip_container(&mut self, path: &Path<'_>) -> Result<(), ParseError> {
        let mut open: Vec<Skipping> = Vec::new();
        'value: loop {
            // The start of a value: a scalar or an empty container is
            // complete; a non-empty container is opened.
            match self.peek()? {
                Peek::Object => {
                    if self.begin_object()? {
                        let src = self.src;
                        let mut keys = KeySet::default();
                        keys.insert_in(src, self.read_key()?);
                        open.push(Skipping::Object(keys));
                        continue 'value;
                    }
                }
                Peek::Array => {
                    if self.begin_array()? {
                        open.push(Skipping::Array(0));
                        continue 'value;
                    }
                }
                Peek::String => self.scan_string().map(drop)?,
                Peek::Number => self.read_number().map(drop)?,
                Peek::True | Peek::False => self.read_bool().map(drop)?,
                Peek::Null => self.read_null()?,
            }
            // A value is complete: move on in the innermost open container,
            // closing those that end.
            loop {
                match open.last_mut() {
                    None => return Ok(()),
                    Some(Skipping::Array(index)) => {
                        if self.array_more()? {
                            *index += 1;
                            continue 'value;
                        }
                    }
                    Some(Skipping::Object(keys)) => {
                        if self.object_more()? {
                            let at = self.pos;
                            let src = self.src;
                            let key = self.read_key()?;
                            if !keys.insert_in(src, key) {
                                let pointer = skipping_pointer(path, &open, src, key);
                                return Err(duplicate_key_at(at, pointer));
                            }
                            continue 'value;
                        }
                    }
                }
                open.pop();
            }
        }
    }
}

// A container that `skip_value` has begun and not yet ended: an array and
// the index of the element being skipped, or an object and its keys so far
// (the last one is the member being skipped).
enum Skipping {
    Array(usize),
    Object(KeySet),
}

// The pointer of member `key` of the innermost open container (an object).
#[cold]
fn skipping_pointer(path: &Path<'_>, open: &[Skipping], src: &str, key: &str) -> String {
    let mut out = path.to_pointer();
    let outer = open.get(..open.len().saturating_sub(1)).unwrap_or_default();
    for container in outer {
        match container {
            Skipping::Array(index) => crate::pointer::push_index(&mut out, *index),
            Skipping::Object(keys) => crate::pointer::push_escaped(&mut out, keys.last_in(src)),
        }
    }
    crate::pointer::push_escaped(&mut out, key);
    out
}
