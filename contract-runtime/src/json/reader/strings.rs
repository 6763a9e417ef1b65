//! Strings: the scan for the closing quote (eight bytes at a time), escapes
//! and surrogate pairs.
use std::borrow::Cow;

use super::Reader;
use crate::code;
use crate::json::ParseError;

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

const ONES: u64 = 0x0101_0101_0101_0101;

const HIGH: u64 = 0x8080_8080_8080_8080;

// The stop bytes of `word` (`"`, `\\` or a control character), as the
// high bit of each such byte (SWAR). A byte below `n` sets its high bit in
// `(w - n) & !w`, exactly for the lowest such byte (n <= 128): a borrow only
// marks bytes above a true one, so the lowest set bit is the first stop.
#[inline]
fn stop_bits(word: u64) -> u64 {
    let below = |w: u64, n: u64| w.wrapping_sub(ONES * n) & !w & HIGH;
    below(word ^ (ONES * u64::from(b'"')), 1)
        | below(word ^ (ONES * u64::from(b'\\')), 1)
        | below(word, 0x20)
}

// The offset of the first stop byte at or after `i`, or `bytes.len()` when
// there is none: eight bytes at a time, then byte by byte for the last few.
#[inline]
fn next_stop(bytes: &[u8], mut i: usize) -> usize {
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
        if STRING_STOP[b as usize] {
            return i;
        }
        i += 1;
    }
    i
}

impl<'de> Reader<'de> {
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
    // `self.scratch`. Small enough to inline: anything but a plain string
    // goes to `scan_rest`.
    #[inline(always)]
    pub(super) fn scan_string(&mut self) -> Result<Option<&'de str>, ParseError> {
        let src: &'de str = self.src;
        let bytes = src.as_bytes();
        if bytes.get(self.pos) != Some(&b'"') {
            return Err(self.not_a_string());
        }
        let start = self.pos + 1;
        let i = next_stop(bytes, start);
        if bytes.get(i) == Some(&b'"') {
            self.pos = i + 1;
            // `start` and `i` are on ASCII bytes, so char boundaries.
            return Ok(src.get(start..i));
        }
        self.scan_rest(start, i)
    }

    #[cold]
    #[inline(never)]
    fn not_a_string(&self) -> ParseError {
        self.unexpected("a string")
    }

    // A string whose plain run `bytes[start..i]` ends with something other
    // than its closing quote: an escape, a control character or the end.
    #[inline(never)]
    fn scan_rest(&mut self, start: usize, i: usize) -> Result<Option<&'de str>, ParseError> {
        match self.bytes().get(i) {
            Some(b'\\') => self.scan_escaped(start, i).map(|()| None),
            Some(_) => {
                self.pos = i;
                Err(self.error_here(
                    code::CONTROL_CHARACTER,
                    "a control character must be escaped inside a string",
                ))
            }
            None => {
                self.pos = i;
                Err(self.ends_inside_string())
            }
        }
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
            i = next_stop(bytes, i);
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
                        code::CONTROL_CHARACTER,
                        "a control character must be escaped inside a string",
                    ));
                }
                None => {
                    self.pos = i;
                    return Err(self.ends_inside_string());
                }
            }
        }
    }

    // Decodes the escape at `i` (`bytes[i]` is `\`); returns the char and the
    // offset after the escape. An escape the input ends inside (`\`,
    // `\u00`, a surrogate's `\ud83d\u`) is a cut text, `unexpected_end`,
    // as any string the input ends inside; `invalid_escape` and
    // `lone_surrogate` are for bytes no continuation could make valid.
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
            None => return Err(self.ends_inside_string()),
            Some(_) => return Err(self.error_here(code::INVALID_ESCAPE, "invalid escape sequence")),
        };
        Ok((c, i + 2))
    }

    // The input ends inside a string (or an escape of it): the error is at
    // the end of the input.
    #[cold]
    fn ends_inside_string(&self) -> ParseError {
        ParseError::new(
            code::UNEXPECTED_END,
            "the input ends inside a string",
            self.bytes().len(),
        )
    }

    // The four hex digits of a `\u` escape, from `at`.
    fn hex4(&self, at: usize) -> Result<u16, ParseError> {
        let bytes = self.bytes();
        let mut n: u16 = 0;
        for k in 0..4 {
            let Some(&d) = bytes.get(at + k) else {
                return Err(self.ends_inside_string());
            };
            let Some(v) = char::from(d).to_digit(16) else {
                return Err(ParseError::new(
                    code::INVALID_ESCAPE,
                    "a \\u escape needs four hex digits",
                    at,
                ));
            };
            // A hex digit is below 16: the conversion is lossless.
            n = (n << 4) | v as u16;
        }
        Ok(n)
    }

    fn unescape_unicode(&self, i: usize) -> Result<(char, usize), ParseError> {
        let first = self.hex4(i + 2)?;
        let lone = || {
            ParseError::new(
                code::LONE_SURROGATE,
                "a UTF-16 surrogate escape without its pair",
                i,
            )
        };
        match first {
            0xD800..=0xDBFF => {
                // A high surrogate: its low half must follow, as `\uDC00`
                // to `\uDFFF`.
                match self.bytes().get(i + 6..).unwrap_or_default() {
                    [] | [b'\\'] => return Err(self.ends_inside_string()),
                    [b'\\', b'u', ..] => {}
                    _ => return Err(lone()),
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
}

#[cfg(test)]
mod swar_tests {
    use proptest::prelude::*;

    use super::{STRING_STOP, next_stop, stop_bits};

    // The index of the first stop byte, 8 when there is none.
    fn naive(bytes: &[u8]) -> usize {
        bytes
            .iter()
            .position(|&b| STRING_STOP[b as usize])
            .unwrap_or(bytes.len())
    }

    fn first_stop(bytes: [u8; 8]) -> usize {
        (stop_bits(u64::from_le_bytes(bytes)).trailing_zeros() / 8) as usize
    }

    proptest! {
        #[test]
        fn stop_bits_agree_with_the_byte_table(bytes in any::<[u8; 8]>()) {
            prop_assert_eq!(first_stop(bytes), naive(&bytes));
        }

        #[test]
        fn stop_bits_agree_near_the_stop_bytes(
            bytes in prop::array::uniform8(prop::sample::select(vec![0u8, 0x1f, 0x20, 0x21, b'"', 0x23, 0x5b, b'\\', 0x5d, 0x7f, 0x80, 0xff])),
        ) {
            prop_assert_eq!(first_stop(bytes), naive(&bytes));
        }

        #[test]
        fn next_stop_agrees_with_the_byte_table(
            bytes in prop::collection::vec(prop::sample::select(vec![0u8, 0x1f, 0x20, b'"', b'\\', b'a', 0x80, 0xff]), 0..40),
            from in 0usize..40,
        ) {
            let from = from.min(bytes.len());
            prop_assert_eq!(next_stop(&bytes, from), from + naive(&bytes[from..]));
        }
    }
}
