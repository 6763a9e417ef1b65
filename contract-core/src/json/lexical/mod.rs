//! JSON's lexical rules (RFC 8259 under the strict policy), written once
//! for the two readers of a document: the pull [`Reader`](super::Reader)
//! over a whole text, and the stream's scanner, which gets the text a piece
//! at a time and resumes where the last piece ended.
//!
//! What is shared, and how each reader uses it:
//!
//! - byte predicates: whitespace, the first byte of each kind of value
//!   ([`Peek::of`]), the bytes that end a run of plain string content
//!   (`"`, `\`, control characters: [`is_string_stop`], and [`stop_bits`]
//!   for eight bytes at a time);
//! - escapes ([`Escape`]): a state machine fed the bytes after `\` one at a
//!   time, which decodes one-byte escapes and `\uXXXX` with surrogate
//!   pairing, and refuses an invalid escape, a non-hex digit or a lone
//!   surrogate with the byte that decides it. The reader runs it in a loop
//!   over an escape; the scanner keeps it between pieces;
//! - numbers ([`NumberSyntax`]): the grammar as a state machine with a
//!   `step(byte)`, which the scanner resumes between pieces; and
//!   [`read_number`], which reads a whole number's text and classifies
//!   it: integer or float syntax, `u64`/`i64`/`f64`, overflow to infinity
//!   refused ([`number::NumberError`] names each refusal, with its code and
//!   message). The reader reads every number with it, the scanner
//!   classifies with it a number it has delimited.
//!
//! Two loops stay specialised, for speed, each with a test that it decides
//! as the shared rule: [`read_number`] reads a number part by part in one
//! pass ([`short_integer`] inline for the common integer, then
//! [`read_number_rest`]) rather than stepping the machine byte by byte,
//! which cost the reader about a tenth more instructions per document on
//! float-heavy documents; it refuses exactly what the machine refuses, at
//! the same byte. And the run of plain string content is found eight bytes
//! at a time with [`stop_bits`] by each reader in its own loop (the
//! scanner's also counts characters, for length checks that decide
//! before the string closes).
//!
//! Nothing here knows positions in a document or builds an error: each
//! refusal is a small kind ([`EscapeError`], [`number::NumberError`]) with its
//! code and message, and the caller says where.
mod escape;
mod number;

pub(crate) use escape::{Escape, EscapeError, EscapeStep};
pub use number::{Number, NumberValue};
pub(crate) use number::{
    NumberRefusal, NumberStep, NumberSyntax, read_number, read_number_rest, short_decimal,
    short_integer,
};

#[cfg(test)]
mod tests;

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
    /// The kind of value that byte `b` starts; `None` when no value starts
    /// with it.
    #[inline]
    pub const fn of(b: u8) -> Option<Peek> {
        Some(match b {
            b'{' => Peek::Object,
            b'[' => Peek::Array,
            b'"' => Peek::String,
            b'-' | b'0'..=b'9' => Peek::Number,
            b't' => Peek::True,
            b'f' => Peek::False,
            b'n' => Peek::Null,
            _ => return None,
        })
    }

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

/// Whitespace between tokens: space, line feed, carriage return, tab.
#[inline]
pub(crate) const fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

/// A control character (below U+0020): never raw inside a string.
#[inline]
pub(crate) const fn is_control(b: u8) -> bool {
    b < 0x20
}

// Bytes that end a run of plain string content: `"`, `\` and control
// characters.
static STRING_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        // `i` is below 256: the conversion is lossless.
        table[i] = is_control(i as u8);
        i += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// Whether `b` ends a run of plain string content: the closing `"`, the
/// `\` of an escape, or a control character (refused raw).
#[inline]
pub(crate) fn is_string_stop(b: u8) -> bool {
    STRING_STOP[b as usize]
}

/// `0x01` in every byte of a word.
pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;

/// The high bit of every byte of a word.
pub(crate) const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The string stops of `word` (eight bytes, little-endian: see
/// [`is_string_stop`]), as the high bit of each such byte (SWAR). A byte
/// below `n` sets its high bit in `(w - n) & !w`, exactly for the lowest
/// such byte (n <= 128): a borrow only marks bytes above a true one, so the
/// lowest set bit is the first stop; the bits above it may be wrong.
#[inline]
pub(crate) fn stop_bits(word: u64) -> u64 {
    let below = |w: u64, n: u64| w.wrapping_sub(ONES * n) & !w & HIGHS;
    below(word ^ (ONES * u64::from(b'"')), 1)
        | below(word ^ (ONES * u64::from(b'\\')), 1)
        | below(word, 0x20)
}

/// The offset of the first string stop ([`is_string_stop`]) at or after
/// `i`, or `bytes.len()` when there is none: eight bytes at a time, then
/// byte by byte for the last few.
#[inline]
pub(crate) fn next_stop(bytes: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = bytes.get(i..i + 8) {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let stops = stop_bits(u64::from_le_bytes(word));
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if is_string_stop(b) {
            return i;
        }
        i += 1;
    }
    i
}

/// The character a one-byte escape stands for, from the byte after `\`
/// (`n` is a line feed); `None` for `u` (four hex digits follow) and for
/// any byte JSON does not allow there.
#[inline]
pub(crate) const fn escaped_char(b: u8) -> Option<char> {
    Some(match b {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

/// The value of a hex digit (either case), `None` for any other byte.
#[inline]
pub(crate) const fn hex_value(b: u8) -> Option<u16> {
    Some(match b {
        b'0'..=b'9' => (b - b'0') as u16,
        b'a'..=b'f' => (b - b'a' + 10) as u16,
        b'A'..=b'F' => (b - b'A' + 10) as u16,
        _ => return None,
    })
}
