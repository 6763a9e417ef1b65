//! The strict pull scanner that both [`super::parse`] and generated decoders drive.
//!
//! The input is a `&str`, so UTF-8 is already proven; the scanner checks the
//! rest of the policy as it goes: grammar, escapes, lone surrogates, control
//! characters, numbers that overflow f64, depth. Duplicate keys are the
//! caller's job (a generated struct decoder uses a field bitset; maps and
//! skipped objects use [`KeySet`]), because only the caller knows how keys are
//! stored.
use std::borrow::Cow;
use std::collections::HashSet;

use super::{ParseError, Path};

/// The kind of the next value, from its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peek {
    /// `{`
    Object,
    /// `[`
    Array,
    /// `"`
    String,
    /// `-` or a digit
    Number,
    /// `t`
    True,
    /// `f`
    False,
    /// `n`
    Null,
}

impl Peek {
    /// The JSON type's name, for messages ("expected integer, found string").
    pub const fn type_name(self) -> &'static str {
        match self {
            Peek::Object => "object",
            Peek::Array => "array",
            Peek::String => "string",
            Peek::Number => "number",
            Peek::True | Peek::False => "boolean",
            Peek::Null => "null",
        }
    }
}

/// A number as read: its value the way `serde_json` would hold it, and
/// whether it was written as an integer (no fraction, no exponent).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number {
    /// The value.
    pub value: NumberValue,
    /// Written without `.` or exponent (`7`, `-0`, a 30-digit integer).
    pub integer_syntax: bool,
}

/// The value of a [`Number`], in `serde_json`'s three representations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NumberValue {
    /// A non-negative integer that fits `u64` (`-0` is 0).
    U64(u64),
    /// A negative integer that fits `i64`.
    I64(i64),
    /// Anything else (finite: an overflow is a parse error): a fraction or
    /// an exponent (`-0.0` keeps its sign), or an integer beyond 64 bits.
    F64(f64),
}

impl Number {
    /// The value as an `i128` when it was written as an integer and fits
    /// 64 bits (`-0` is 0); `None` otherwise.
    pub fn as_i128(&self) -> Option<i128> {
        if !self.integer_syntax {
            return None;
        }
        match self.value {
            NumberValue::U64(v) => Some(i128::from(v)),
            NumberValue::I64(v) => Some(i128::from(v)),
            NumberValue::F64(_) => None,
        }
    }

    /// The value as an `f64` (integers may round).
    pub fn as_f64(&self) -> f64 {
        match self.value {
            NumberValue::U64(v) => v as f64,
            NumberValue::I64(v) => v as f64,
            NumberValue::F64(v) => v,
        }
    }

    /// The number as a `serde_json::Number`.
    pub fn to_json(&self) -> serde_json::Number {
        match self.value {
            NumberValue::U64(v) => v.into(),
            NumberValue::I64(v) => v.into(),
            // Finite by construction, so `from_f64` cannot fail; zero is the
            // unreachable fallback rather than a panic.
            NumberValue::F64(v) => serde_json::Number::from_f64(v).unwrap_or_else(|| 0.into()),
        }
    }
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

// Bytes that end a run of plain string content: `"`, `\` and control characters.
static STRING_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        table[i] = true;
        i += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

// Powers of ten that an f64 holds exactly.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

// `significand × 10^exponent` when one correctly rounded operation gives it
// exactly (Clinger's fast path): the significand fits 53 bits and the power
// of ten is exact. Otherwise `None`, and the caller parses the text.
#[inline]
fn exact_float(significand: u64, exponent: i64) -> Option<f64> {
    if significand > (1 << 53) {
        return None;
    }
    let m = significand as f64;
    let power = POW10.get(usize::try_from(exponent.unsigned_abs()).ok()?)?;
    Some(if exponent < 0 { m / power } else { m * power })
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

// Whether no byte of `word` is `"`, `\` or a control character (SWAR: a
// byte below `n` sets its high bit in `(w - n) & !w`, exactly, for n <= 128).
#[inline]
fn plain_word(word: u64) -> bool {
    let below = |w: u64, n: u64| w.wrapping_sub(ONES * n) & !w & HIGH != 0;
    !(below(word ^ (ONES * u64::from(b'"')), 1)
        || below(word ^ (ONES * u64::from(b'\\')), 1)
        || below(word, 0x20))
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

    #[inline]
    fn bytes(&self) -> &'de [u8] {
        self.src.as_bytes()
    }

    #[inline]
    fn skip_ws(&mut self) {
        let bytes = self.bytes();
        while let Some(&b) = bytes.get(self.pos) {
            if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
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
                "unexpected_end",
                format!("the input ends where {what} was expected"),
            ),
            Some(&b) if b.is_ascii_graphic() => {
                self.error_here("syntax", format!("expected {what}, found `{}`", b as char))
            }
            Some(_) => self.error_here("syntax", format!("expected {what}")),
        }
    }

    /// Skips whitespace and tells the kind of the next value.
    #[inline]
    pub fn peek(&mut self) -> Result<Peek, ParseError> {
        self.skip_ws();
        match self.bytes().get(self.pos) {
            Some(b'{') => Ok(Peek::Object),
            Some(b'[') => Ok(Peek::Array),
            Some(b'"') => Ok(Peek::String),
            Some(b'-' | b'0'..=b'9') => Ok(Peek::Number),
            Some(b't') => Ok(Peek::True),
            Some(b'f') => Ok(Peek::False),
            Some(b'n') => Ok(Peek::Null),
            _ => Err(self.unexpected("a JSON value")),
        }
    }

    /// Checks that only whitespace is left.
    pub fn finish(&mut self) -> Result<(), ParseError> {
        self.skip_ws();
        if self.pos < self.src.len() {
            Err(self.error_here("trailing_data", "unexpected data after the JSON value"))
        } else {
            Ok(())
        }
    }

    fn literal(&mut self, word: &'static str) -> Result<(), ParseError> {
        let end = self.pos + word.len();
        if self.bytes().get(self.pos..end) == Some(word.as_bytes()) {
            self.pos = end;
            Ok(())
        } else {
            Err(self.error_here("syntax", format!("expected `{word}`")))
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

    fn enter(&mut self) -> Result<(), ParseError> {
        if self.depth >= self.max_depth {
            return Err(self.error_here(
                "too_deep",
                format!("nesting deeper than the limit of {}", self.max_depth),
            ));
        }
        self.depth += 1;
        self.pos += 1;
        Ok(())
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

    /// At the start of a member, consumes the key and its `:` when the raw
    /// bytes of the key are exactly `quoted` (a key literal with its quotes
    /// and no escapes); otherwise consumes nothing. A key written with
    /// escapes is not matched here: [`Reader::read_key`] unescapes it.
    #[inline]
    pub fn eat_key(&mut self, quoted: &[u8]) -> bool {
        let start = self.pos;
        let end = start + quoted.len();
        if quoted.len() < 2 || self.bytes().get(start..end) != Some(quoted) {
            return false;
        }
        self.pos = end;
        self.skip_ws();
        if self.bytes().get(self.pos) == Some(&b':') {
            self.pos += 1;
            true
        } else {
            self.pos = start;
            false
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

    /// Reads a string value; borrowed from the input when it has no escapes.
    #[inline]
    pub fn read_str(&mut self) -> Result<Cow<'de, str>, ParseError> {
        match self.scan_string()? {
            Some(s) => Ok(Cow::Borrowed(s)),
            None => Ok(Cow::Owned(self.scratch.clone())),
        }
    }

    /// Reads a string value into the scratch buffer or the input, for a
    /// caller that only looks at it (a date, an enum variant).
    #[inline]
    pub fn read_str_ref(&mut self) -> Result<&str, ParseError> {
        Ok(match self.scan_string()? {
            Some(s) => s,
            None => &self.scratch,
        })
    }

    /// Reads a string value as an owned `String` (one allocation).
    #[inline]
    pub fn read_string(&mut self) -> Result<String, ParseError> {
        match self.scan_string()? {
            Some(s) => Ok(s.to_owned()),
            // The unescaped text is already in its own buffer: hand it over.
            None => Ok(std::mem::take(&mut self.scratch)),
        }
    }

    // Scans a string starting at `"`. Returns the content borrowed from the
    // input when it has no escapes, else `None` with the unescaped content in
    // `self.scratch`.
    #[inline]
    fn scan_string(&mut self) -> Result<Option<&'de str>, ParseError> {
        let src: &'de str = self.src;
        let bytes = src.as_bytes();
        if bytes.get(self.pos) != Some(&b'"') {
            return Err(self.unexpected("a string"));
        }
        self.pos += 1;
        let start = self.pos;
        let mut i = start;
        // Eight bytes at a time while none of them ends the plain run; the
        // byte loop below then finds the exact stop.
        while let Some(chunk) = bytes.get(i..i + 8) {
            let Ok(word) = <[u8; 8]>::try_from(chunk) else {
                break;
            };
            if !plain_word(u64::from_le_bytes(word)) {
                break;
            }
            i += 8;
        }
        while let Some(&b) = bytes.get(i) {
            if STRING_STOP[b as usize] {
                if b == b'"' {
                    self.pos = i + 1;
                    // `start` and `i` are on ASCII bytes, so char boundaries.
                    return Ok(src.get(start..i));
                }
                if b == b'\\' {
                    return self.scan_escaped(start, i).map(|()| None);
                }
                self.pos = i;
                return Err(self.error_here(
                    "control_character",
                    "a control character must be escaped inside a string",
                ));
            }
            i += 1;
        }
        self.pos = i;
        Err(self.error_here("unexpected_end", "the input ends inside a string"))
    }

    // The slow path of `scan_string`: `bytes[start..i]` is plain, `bytes[i]` is `\`.
    fn scan_escaped(&mut self, start: usize, mut i: usize) -> Result<(), ParseError> {
        let src = self.src;
        let bytes = src.as_bytes();
        self.scratch.clear();
        // Room for the plain prefix and a short tail, so most strings take
        // one allocation.
        self.scratch.reserve(i - start + 32);
        self.scratch.push_str(src.get(start..i).unwrap_or_default());
        loop {
            let run = i;
            while let Some(&b) = bytes.get(i) {
                if STRING_STOP[b as usize] {
                    break;
                }
                i += 1;
            }
            self.scratch.push_str(src.get(run..i).unwrap_or_default());
            match bytes.get(i) {
                Some(b'"') => {
                    self.pos = i + 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.pos = i;
                    let (c, next) = self.unescape(i)?;
                    self.scratch.push(c);
                    i = next;
                }
                Some(_) => {
                    self.pos = i;
                    return Err(self.error_here(
                        "control_character",
                        "a control character must be escaped inside a string",
                    ));
                }
                None => {
                    self.pos = i;
                    return Err(self.error_here("unexpected_end", "the input ends inside a string"));
                }
            }
        }
    }

    // Decodes the escape at `i` (`bytes[i]` is `\`); returns the char and the
    // offset after the escape.
    fn unescape(&mut self, i: usize) -> Result<(char, usize), ParseError> {
        let bytes = self.bytes();
        let c = match bytes.get(i + 1) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => return self.unescape_unicode(i),
            None => return Err(self.error_here("unexpected_end", "the input ends inside a string")),
            Some(_) => return Err(self.error_here("invalid_escape", "invalid escape sequence")),
        };
        Ok((c, i + 2))
    }

    fn hex4(&self, at: usize) -> Result<u16, ParseError> {
        let digits = self.bytes().get(at..at + 4).ok_or_else(|| {
            ParseError::new("invalid_escape", "a \\u escape needs four hex digits", at)
        })?;
        let mut n: u16 = 0;
        for &d in digits {
            let v = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => {
                    return Err(ParseError::new(
                        "invalid_escape",
                        "a \\u escape needs four hex digits",
                        at,
                    ));
                }
            };
            n = (n << 4) | u16::from(v);
        }
        Ok(n)
    }

    fn unescape_unicode(&self, i: usize) -> Result<(char, usize), ParseError> {
        let first = self.hex4(i + 2)?;
        let lone = || {
            ParseError::new(
                "lone_surrogate",
                "a UTF-16 surrogate escape without its pair",
                i,
            )
        };
        match first {
            0xD800..=0xDBFF => {
                let bytes = self.bytes();
                if bytes.get(i + 6) != Some(&b'\\') || bytes.get(i + 7) != Some(&b'u') {
                    return Err(lone());
                }
                let second = self.hex4(i + 8)?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(lone());
                }
                let code =
                    0x10000 + ((u32::from(first) - 0xD800) << 10) + (u32::from(second) - 0xDC00);
                char::from_u32(code).map(|c| (c, i + 12)).ok_or_else(lone)
            }
            0xDC00..=0xDFFF => Err(lone()),
            n => char::from_u32(u32::from(n))
                .map(|c| (c, i + 6))
                .ok_or_else(lone),
        }
    }

    /// Reads a number under JSON's grammar. A number too large for an f64
    /// is a parse error (`number_overflow`).
    #[inline]
    pub fn read_number(&mut self) -> Result<Number, ParseError> {
        let bytes = self.bytes();
        let start = self.pos;
        let mut i = start;
        let negative = bytes.get(i) == Some(&b'-');
        if negative {
            i += 1;
        }
        let mut significand: u64 = 0;
        let mut overflowed = false;
        match bytes.get(i) {
            Some(b'0') => {
                i += 1;
                if matches!(bytes.get(i), Some(b'0'..=b'9')) {
                    self.pos = i;
                    return Err(
                        self.error_here("invalid_number", "a number cannot have a leading zero")
                    );
                }
            }
            Some(b'1'..=b'9') => {
                while let Some(&d @ b'0'..=b'9') = bytes.get(i) {
                    match significand
                        .checked_mul(10)
                        .and_then(|s| s.checked_add(u64::from(d - b'0')))
                    {
                        Some(s) => significand = s,
                        None => overflowed = true,
                    }
                    i += 1;
                }
            }
            _ => {
                self.pos = i;
                return Err(self.error_here("invalid_number", "a number needs a digit here"));
            }
        }
        let mut integer_syntax = true;
        // For the exact fast path below: fraction digits go on into the
        // significand while it fits, and `exponent` is the power of ten.
        let mut exponent: i64 = 0;
        if bytes.get(i) == Some(&b'.') {
            integer_syntax = false;
            i += 1;
            let digits = i;
            while let Some(&d @ b'0'..=b'9') = bytes.get(i) {
                match significand
                    .checked_mul(10)
                    .and_then(|s| s.checked_add(u64::from(d - b'0')))
                {
                    Some(s) if !overflowed => {
                        significand = s;
                        exponent -= 1;
                    }
                    _ => overflowed = true,
                }
                i += 1;
            }
            if i == digits {
                self.pos = i;
                return Err(self.error_here("invalid_number", "a fraction needs a digit after `.`"));
            }
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            integer_syntax = false;
            i += 1;
            let minus = match bytes.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let digits = i;
            let mut written: i64 = 0;
            while let Some(&d @ b'0'..=b'9') = bytes.get(i) {
                // Saturates far beyond any exponent the fast path takes.
                written = (written * 10 + i64::from(d - b'0')).min(1_000_000);
                i += 1;
            }
            if i == digits {
                self.pos = i;
                return Err(self.error_here("invalid_number", "an exponent needs a digit"));
            }
            exponent += if minus { -written } else { written };
        }
        self.pos = i;
        if !integer_syntax
            && !overflowed
            && let Some(v) = exact_float(significand, exponent)
        {
            return Ok(Number {
                value: NumberValue::F64(if negative { -v } else { v }),
                integer_syntax,
            });
        }
        if integer_syntax && !overflowed {
            if !negative {
                return Ok(Number {
                    value: NumberValue::U64(significand),
                    integer_syntax,
                });
            }
            let neg = (significand as i64).wrapping_neg();
            if neg < 0 {
                return Ok(Number {
                    value: NumberValue::I64(neg),
                    integer_syntax,
                });
            }
            // `-0` is the integer 0 (serde_json reads it as the float
            // `-0.0`, which would make `-0` and `0` two values); integers
            // below i64::MIN become floats, as in serde_json.
            if significand == 0 {
                return Ok(Number {
                    value: NumberValue::U64(0),
                    integer_syntax,
                });
            }
        }
        let text = self.src.get(start..i).unwrap_or_default();
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Number {
                value: NumberValue::F64(v),
                integer_syntax,
            }),
            _ => Err(ParseError::new(
                "number_overflow",
                "the number is too large for a 64-bit float",
                start,
            )),
        }
    }

    /// Skips one value, checking it as strictly as if it were read: grammar,
    /// depth, escapes, numbers, and duplicate keys (reported at their pointer
    /// below `path`).
    ///
    /// Iterative, like [`super::read_value`]: the call stack it needs does
    /// not grow with the depth of the value.
    pub fn skip_value(&mut self, path: &Path<'_>) -> Result<(), ParseError> {
        let mut open: Vec<Skipping> = Vec::new();
        'value: loop {
            // The start of a value: a scalar or an empty container is
            // complete; a non-empty container is opened.
            match self.peek()? {
                Peek::Object => {
                    if self.begin_object()? {
                        let mut keys = KeySet::default();
                        keys.insert(self.read_key()?);
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
                            let key = self.read_key()?;
                            if !keys.insert(key) {
                                let pointer = skipping_pointer(path, &open, key);
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
fn skipping_pointer(path: &Path<'_>, open: &[Skipping], key: &str) -> String {
    let mut out = path.to_pointer();
    let outer = open.get(..open.len().saturating_sub(1)).unwrap_or_default();
    for container in outer {
        match container {
            Skipping::Array(index) => {
                out.push('/');
                out.push_str(&index.to_string());
            }
            Skipping::Object(keys) => crate::pointer::push_escaped(&mut out, keys.last()),
        }
    }
    crate::pointer::push_escaped(&mut out, key);
    out
}

/// The parse error for a key seen twice in one object, at the member's pointer.
pub fn duplicate_key(offset: usize, path: &Path<'_>, key: &str) -> ParseError {
    duplicate_key_at(offset, path.key(key).to_pointer())
}

// The parse error for a duplicate key whose member pointer is known.
pub(super) fn duplicate_key_at(offset: usize, pointer: String) -> ParseError {
    ParseError::new(
        "duplicate_key",
        "the same key appears twice in one object",
        offset,
    )
    .with_pointer(pointer)
}

/// The keys seen so far in one object, to refuse duplicates: a short list
/// scanned linearly, turning into a hash set past a few dozen keys so that a
/// huge object stays linear.
///
/// The set keeps the standard library's randomly keyed SipHash: the keys
/// come from the document, so a predictable hash would let a document force
/// collisions.
#[derive(Debug, Default)]
pub struct KeySet {
    // Every key while there are few; emptied into `set` past `KEYSET_LINEAR`.
    list: Vec<Box<str>>,
    set: HashSet<Box<str>>,
    // The last key once `set` is in use (one buffer, reused).
    last: String,
}

const KEYSET_LINEAR: usize = 32;

impl KeySet {
    /// Adds `key`; `false` if it was already there.
    pub fn insert(&mut self, key: &str) -> bool {
        self.insert_with(key, || key.into())
    }

    /// [`KeySet::insert`] of a key the caller owns already (no copy);
    /// a key already there is handed back as the error.
    pub fn insert_owned(&mut self, key: String) -> Result<(), String> {
        if self.contains(&key) {
            return Err(key);
        }
        self.insert_new(key.into_boxed_str());
        Ok(())
    }

    fn contains(&self, key: &str) -> bool {
        if self.set.is_empty() {
            self.list.iter().any(|k| &**k == key)
        } else {
            self.set.contains(key)
        }
    }

    fn insert_with(&mut self, key: &str, make: impl FnOnce() -> Box<str>) -> bool {
        if self.contains(key) {
            return false;
        }
        self.insert_new(make());
        true
    }

    // Adds a key known to be absent.
    fn insert_new(&mut self, key: Box<str>) {
        if self.set.is_empty() {
            if self.list.len() < KEYSET_LINEAR {
                self.list.push(key);
                return;
            }
            self.set.extend(self.list.drain(..));
        }
        self.last.clear();
        self.last.push_str(&key);
        self.set.insert(key);
    }

    /// The key inserted last ("" when none).
    pub fn last(&self) -> &str {
        if self.set.is_empty() {
            self.list.last().map_or("", |k| k)
        } else {
            &self.last
        }
    }
}

#[cfg(test)]
mod swar_tests {
    use proptest::prelude::*;

    use super::{STRING_STOP, plain_word};

    fn naive(bytes: [u8; 8]) -> bool {
        bytes.iter().all(|&b| !STRING_STOP[b as usize])
    }

    proptest! {
        #[test]
        fn plain_word_agrees_with_the_byte_table(bytes in any::<[u8; 8]>()) {
            prop_assert_eq!(plain_word(u64::from_le_bytes(bytes)), naive(bytes));
        }

        #[test]
        fn plain_word_agrees_near_the_stop_bytes(
            bytes in prop::array::uniform8(prop::sample::select(vec![0u8, 0x1f, 0x20, 0x21, b'"', 0x23, 0x5b, b'\\', 0x5d, 0x7f, 0x80, 0xff])),
        ) {
            prop_assert_eq!(plain_word(u64::from_le_bytes(bytes)), naive(bytes));
        }
    }
}

#[cfg(test)]
mod float_tests {
    use proptest::prelude::*;

    use super::{NumberValue, Reader};

    fn read(text: &str) -> f64 {
        let mut r = Reader::new(text, 8);
        match r.read_number().map(|n| n.value) {
            Ok(NumberValue::F64(v)) => v,
            other => panic!("{text}: {other:?}"),
        }
    }

    proptest! {
        #[test]
        fn fractions_read_exactly_as_the_standard_parser(
            int in "-?(0|[1-9][0-9]{0,19})",
            frac in "[0-9]{1,20}",
            exp in proptest::option::of(-330i32..330),
        ) {
            let text = match exp {
                Some(e) => format!("{int}.{frac}e{e}"),
                None => format!("{int}.{frac}"),
            };
            let want: f64 = text.parse().unwrap();
            prop_assume!(want.is_finite());
            prop_assert_eq!(read(&text).to_bits(), want.to_bits(), "{}", text);
        }

        #[test]
        fn exponents_read_exactly_as_the_standard_parser(m in 0u64..(1 << 54), e in -40i32..40) {
            let text = format!("{m}e{e}");
            let want: f64 = text.parse().unwrap();
            prop_assert_eq!(read(&text).to_bits(), want.to_bits(), "{}", text);
        }
    }

    #[test]
    fn minus_zero_is_the_integer_zero_and_minus_zero_point_zero_a_float() {
        let number = |text: &str| Reader::new(text, 8).read_number().unwrap();
        let minus_zero = number("-0");
        assert_eq!(minus_zero.value, NumberValue::U64(0));
        assert!(minus_zero.integer_syntax);
        assert_eq!(minus_zero, number("0"));
        assert_eq!(minus_zero.as_i128(), Some(0));
        assert_eq!(minus_zero.to_json(), serde_json::Number::from(0u64));
        for float in ["-0.0", "-0e0", "-0E1"] {
            let n = number(float);
            assert!(!n.integer_syntax, "{float}");
            assert_eq!(read(float).to_bits(), (-0.0f64).to_bits(), "{float}");
        }
    }

    #[test]
    fn edge_spellings_read_exactly() {
        for text in [
            "0.0",
            "-0.0",
            "0.1",
            "0.3",
            "1.5e-400",
            "9007199254740993.0",
            "9007199254740992e1",
            "1e22",
            "1e23",
            "123456789012345678901234567890.5",
            "0.000000000000000000000001",
            "1E+2",
            "1e-0",
            "4.9e-324",
            "1.7976931348623157e308",
        ] {
            let want: f64 = text.parse().unwrap();
            assert_eq!(read(text).to_bits(), want.to_bits(), "{text}");
        }
    }
}
