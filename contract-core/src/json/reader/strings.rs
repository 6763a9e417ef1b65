//! Strings: the scan for the closing quote (eight bytes at a time), escapes
//! and surrogate pairs, on [`crate::json::lexical`]'s rules.
use std::borrow::Cow;

use super::Reader;
use crate::code;
use crate::json::ParseError;
use crate::json::lexical::{Escape, EscapeError, EscapeStep, escaped_char, next_stop};

// The end of a string's raw text from a stop byte at `i` (the end of a
// plain run): its closing quote, or the first byte the full scan refuses (a
// control character, the end of the input). Each escape is stepped over
// whole as far as this needs: `\"` does not close the string, and the hex
// digits of `\uXXXX` are no stops.
fn raw_end(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i) == Some(&b'\\') {
        i = next_stop(bytes, i + 2);
    }
    i.min(bytes.len())
}

impl<'de> Reader<'de> {
    /// Reads a string value; borrowed from the input when it has no escapes.
    #[inline(always)]
    pub fn read_str(&mut self) -> Result<Cow<'de, str>, ParseError> {
        match self.scan_string()? {
            Some(s) => Ok(Cow::Borrowed(s)),
            // The unescaped text is already in its own buffer: hand it over.
            None => Ok(Cow::Owned(std::mem::take(&mut self.scratch))),
        }
    }

    /// Reads a string value borrowed from the input: `None` when it has
    /// escapes (its unescaped content is then in the scratch buffer, which
    /// a borrowed `&str` field cannot hold).
    #[inline(always)]
    pub fn read_borrowed_str(&mut self) -> Result<Option<&'de str>, ParseError> {
        self.scan_string()
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
        // one allocation; a string whose first escape comes late is most
        // likely long, and gets room for all of its raw text at once
        // (unescaped, it is no longer), so that it is never copied to a
        // larger buffer.
        let plain = i - start;
        self.scratch.reserve(if plain >= 32 {
            raw_end(bytes, i) - start
        } else {
            plain + 32
        });
        self.scratch.push_str(src.get(start..i).unwrap_or_default());
        loop {
            let run = i;
            i = next_stop(bytes, i);
            if self.scratch.capacity() - self.scratch.len() < i - run {
                // A longer string: room for all the rest at once (unescaped,
                // it is no longer than its raw text), so that it grows once
                // rather than by doubling.
                self.scratch.reserve(raw_end(bytes, i) - run);
            }
            self.scratch.push_str(src.get(run..i).unwrap_or_default());
            match bytes.get(i) {
                Some(b'"') => {
                    self.pos = i + 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    // A two-byte escape (`\n`, `\"`, ...) is its character;
                    // `\u` and the refused ones go through the escape machine.
                    if let Some(c) = bytes.get(i + 1).and_then(|&b| escaped_char(b)) {
                        self.scratch.push(c);
                        i += 2;
                        continue;
                    }
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

    // Decodes the escape at `i` (`bytes[i]` is `\`) with the lexical
    // escape machine; returns the char and the offset after the escape. An
    // escape the input ends inside (`\`, `\u00`, a surrogate's `\ud83d\u`)
    // is a cut text, `unexpected_end`, as any string the input ends inside;
    // `invalid_escape` and `lone_surrogate` are for bytes no continuation
    // could make valid.
    fn unescape(&mut self, i: usize) -> Result<(char, usize), ParseError> {
        let bytes = self.bytes();
        let mut escape = Escape::START;
        let mut at = i + 1;
        loop {
            let Some(&b) = bytes.get(at) else {
                return Err(self.ends_inside_string());
            };
            match escape.step(b) {
                EscapeStep::More(next) => escape = next,
                EscapeStep::Char(c) => return Ok((c, at + 1)),
                EscapeStep::Refused(error) => return Err(refused_escape(error, i, at)),
            }
            at += 1;
        }
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
}

// The escape whose `\` is at `backslash`, refused at the byte at `at`.
#[cold]
fn refused_escape(error: EscapeError, backslash: usize, at: usize) -> ParseError {
    ParseError::new(error.code(), error.message(), error.offset(backslash, at))
}

#[cfg(test)]
mod swar_tests {
    use proptest::prelude::*;

    use super::raw_end;
    use crate::json::Reader;
    use crate::json::lexical::{is_string_stop, next_stop, stop_bits};

    // The index of the first stop byte, 8 when there is none.
    fn naive(bytes: &[u8]) -> usize {
        bytes
            .iter()
            .position(|&b| is_string_stop(b))
            .unwrap_or(bytes.len())
    }

    fn first_stop(bytes: [u8; 8]) -> usize {
        (stop_bits(u64::from_le_bytes(bytes)).trailing_zeros() / 8) as usize
    }

    #[test]
    fn a_long_escaped_string_grows_once_to_its_raw_length() {
        // An escape first, then tails longer than a buffer sized for the
        // prefix: doubling, that buffer would grow twice, to 128 bytes.
        let part = format!("\\n{}", "x".repeat(33));
        let doc = format!("\"{part}{part}\"");
        let mut r = Reader::new(&doc, 8);
        let s = r.read_string().unwrap_or_default();
        assert_eq!(s, format!("\n{0}\n{0}", "x".repeat(33)));
        assert!(s.capacity() <= doc.len() - 2, "{}", s.capacity());
    }

    #[test]
    fn raw_end_steps_over_escaped_quotes_and_stops_at_the_end() {
        assert_eq!(raw_end(br#""a\"b\\"c"#, 2), 7);
        assert_eq!(raw_end(br#"\u0022x""#, 0), 7);
        assert_eq!(raw_end(b"\\", 0), 1);
        assert_eq!(raw_end(b"\\\n\x01", 0), 2);
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
