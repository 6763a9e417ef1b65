//! Escapes inside a string: a state machine fed the bytes after `\` one at
//! a time, so that an escape may be split anywhere between pieces.
use super::{escaped_char, hex_value};
use crate::code;

/// Where an escape is, after its `\` (start at [`Escape::START`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Escape {
    /// After `\`: the escape's letter comes next.
    Backslash,
    /// In `\uXXXX`: `read` hex digits read so far, worth `acc`.
    Hex { read: u8, acc: u16 },
    /// After a high surrogate `high`: the `\` of its low half must follow.
    Low { high: u16 },
    /// After the `\` that follows a high surrogate: `u` must follow.
    LowU { high: u16 },
    /// In the low half's hex digits.
    LowHex { high: u16, read: u8, acc: u16 },
}

/// What one byte of an escape does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EscapeStep {
    /// The escape goes on in this state.
    More(Escape),
    /// The escape is complete: the character it stands for.
    Char(char),
    /// No continuation makes the escape valid.
    Refused(EscapeError),
}

/// Why an escape is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EscapeError {
    /// `\` followed by a byte that starts no escape (`\x`).
    Invalid,
    /// A byte that is not a hex digit in `\uXXXX`, after `read` digits of
    /// its group of four.
    NotHex { read: u8 },
    /// A low surrogate alone, or a high one not followed by a low one.
    LoneSurrogate,
}

impl EscapeError {
    /// The stable code.
    pub(crate) const fn code(self) -> &'static str {
        match self {
            EscapeError::Invalid | EscapeError::NotHex { .. } => code::INVALID_ESCAPE,
            EscapeError::LoneSurrogate => code::LONE_SURROGATE,
        }
    }

    /// The message.
    pub(crate) const fn message(self) -> &'static str {
        match self {
            EscapeError::Invalid => "invalid escape sequence",
            EscapeError::NotHex { .. } => "a \\u escape needs four hex digits",
            EscapeError::LoneSurrogate => "a UTF-16 surrogate escape without its pair",
        }
    }

    /// The offset the error is reported at, for an escape whose `\` is at
    /// `backslash` and refused at the byte at `at`: the escape's `\`, or for
    /// a bad hex digit the first digit of its group.
    pub(crate) const fn offset(self, backslash: usize, at: usize) -> usize {
        match self {
            EscapeError::NotHex { read } => at - read as usize,
            EscapeError::Invalid | EscapeError::LoneSurrogate => backslash,
        }
    }
}

impl Escape {
    /// The state after the `\` that starts an escape.
    pub(crate) const START: Escape = Escape::Backslash;

    /// The next byte of the escape.
    #[inline]
    pub(crate) fn step(self, b: u8) -> EscapeStep {
        match self {
            Escape::Backslash if b == b'u' => EscapeStep::More(Escape::Hex { read: 0, acc: 0 }),
            Escape::Backslash => match escaped_char(b) {
                Some(c) => EscapeStep::Char(c),
                None => EscapeStep::Refused(EscapeError::Invalid),
            },
            Escape::Hex { read, acc } => match hex_value(b) {
                None => EscapeStep::Refused(EscapeError::NotHex { read }),
                Some(d) if read < 3 => EscapeStep::More(Escape::Hex {
                    read: read + 1,
                    acc: acc << 4 | d,
                }),
                Some(d) => unit(acc << 4 | d),
            },
            Escape::Low { high } if b == b'\\' => EscapeStep::More(Escape::LowU { high }),
            Escape::LowU { high } if b == b'u' => EscapeStep::More(Escape::LowHex {
                high,
                read: 0,
                acc: 0,
            }),
            Escape::Low { .. } | Escape::LowU { .. } => {
                EscapeStep::Refused(EscapeError::LoneSurrogate)
            }
            Escape::LowHex { high, read, acc } => match hex_value(b) {
                None => EscapeStep::Refused(EscapeError::NotHex { read }),
                Some(d) if read < 3 => EscapeStep::More(Escape::LowHex {
                    high,
                    read: read + 1,
                    acc: acc << 4 | d,
                }),
                Some(d) => match surrogate_pair(high, acc << 4 | d) {
                    Some(c) => EscapeStep::Char(c),
                    None => EscapeStep::Refused(EscapeError::LoneSurrogate),
                },
            },
        }
    }
}

// A complete first `\uXXXX`: a character, a high surrogate waiting for its
// low half, or a low surrogate alone.
fn unit(n: u16) -> EscapeStep {
    match n {
        0xD800..=0xDBFF => EscapeStep::More(Escape::Low { high: n }),
        // A low surrogate alone is the only code unit that is no `char`.
        _ => match char::from_u32(u32::from(n)) {
            Some(c) => EscapeStep::Char(c),
            None => EscapeStep::Refused(EscapeError::LoneSurrogate),
        },
    }
}

/// The character of the UTF-16 pair `high` (`\uD800`..`\uDBFF`), `low`;
/// `None` when `low` is not a low surrogate (`\uDC00`..`\uDFFF`).
pub(crate) fn surrogate_pair(high: u16, low: u16) -> Option<char> {
    if !(0xD800..=0xDBFF).contains(&high) || !(0xDC00..=0xDFFF).contains(&low) {
        return None;
    }
    let code = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
    char::from_u32(code)
}
