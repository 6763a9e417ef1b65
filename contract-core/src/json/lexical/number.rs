//! Numbers: JSON's grammar as a state machine, and a whole number's text
//! read and classified (integers kept apart from floats, exact conversion
//! to f64, overflow refused).
use crate::code;

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

/// Where a number is in JSON's grammar
/// (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [-+]? [0-9]+)?`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberSyntax {
    /// Nothing read yet.
    Start,
    /// After the leading `-`.
    Minus,
    /// The integer part is `0`.
    Zero,
    /// In the integer part's digits (the first not `0`).
    Int,
    /// After `.`.
    Dot,
    /// In the fraction's digits.
    Frac,
    /// After `e` or `E`.
    Exp,
    /// After the exponent's sign.
    ExpSign,
    /// In the exponent's digits.
    ExpDigits,
}

/// What one byte does to a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberStep {
    /// The byte is part of the number, which is now in this state.
    More(NumberSyntax),
    /// The byte is not part of the number, which is complete before it
    /// (the byte is the next token's, or trailing data).
    End,
    /// The number is refused at this byte.
    Refused(NumberError),
}

/// Why a number is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberError {
    /// A digit after an integer part `0` (`01`).
    LeadingZero,
    /// No digit at the start or after `-` (`-`, `-x`).
    NeedsDigit,
    /// No digit after `.` (`1.`).
    NeedsFractionDigit,
    /// No digit after the exponent's `e` or sign (`1e`, `1e+`).
    NeedsExponentDigit,
    /// Well formed, but beyond the largest f64 (`1e400`).
    Overflow,
}

impl NumberError {
    /// The stable code and the message of the refusal; `at_end` says that
    /// the input ends at the refused byte (an output cut short inside a
    /// number is `unexpected_end`, whatever digit it lacks).
    pub(crate) const fn code_and_message(self, at_end: bool) -> (&'static str, &'static str) {
        match self {
            NumberError::Overflow => (
                code::NUMBER_OVERFLOW,
                "the number is too large for a 64-bit float",
            ),
            _ if at_end => (code::UNEXPECTED_END, "the input ends inside a number"),
            NumberError::LeadingZero => {
                (code::INVALID_NUMBER, "a number cannot have a leading zero")
            }
            NumberError::NeedsDigit => (code::INVALID_NUMBER, "a number needs a digit here"),
            NumberError::NeedsFractionDigit => {
                (code::INVALID_NUMBER, "a fraction needs a digit after `.`")
            }
            NumberError::NeedsExponentDigit => (code::INVALID_NUMBER, "an exponent needs a digit"),
        }
    }
}

impl NumberSyntax {
    /// The next byte.
    #[inline]
    pub(crate) fn step(self, b: u8) -> NumberStep {
        use NumberSyntax::{Dot, Exp, ExpDigits, ExpSign, Frac, Int, Minus, Start, Zero};
        NumberStep::More(match (self, b) {
            (Start, b'-') => Minus,
            (Start | Minus, b'0') => Zero,
            (Start | Minus | Int, b'1'..=b'9') | (Int, b'0') => Int,
            (Zero, b'0'..=b'9') => return NumberStep::Refused(NumberError::LeadingZero),
            (Zero | Int, b'.') => Dot,
            (Zero | Int | Frac, b'e' | b'E') => Exp,
            (Dot | Frac, b'0'..=b'9') => Frac,
            (Exp, b'+' | b'-') => ExpSign,
            (Exp | ExpSign | ExpDigits, b'0'..=b'9') => ExpDigits,
            _ => {
                return match self.end() {
                    Ok(()) => NumberStep::End,
                    Err(e) => NumberStep::Refused(e),
                };
            }
        })
    }

    /// Whether the number may end here: `Ok` when what was read is a
    /// number, else the digit it lacks.
    #[inline]
    pub(crate) const fn end(self) -> Result<(), NumberError> {
        match self {
            NumberSyntax::Start | NumberSyntax::Minus => Err(NumberError::NeedsDigit),
            NumberSyntax::Dot => Err(NumberError::NeedsFractionDigit),
            NumberSyntax::Exp | NumberSyntax::ExpSign => Err(NumberError::NeedsExponentDigit),
            NumberSyntax::Zero
            | NumberSyntax::Int
            | NumberSyntax::Frac
            | NumberSyntax::ExpDigits => Ok(()),
        }
    }

    /// Whether a number in this state is still an integer literal (no `.`
    /// or exponent yet).
    #[inline]
    pub(crate) const fn is_integer(self) -> bool {
        matches!(
            self,
            NumberSyntax::Start | NumberSyntax::Minus | NumberSyntax::Zero | NumberSyntax::Int
        )
    }
}

/// A refused number: why, the offset of the byte that decides it (for
/// [`NumberError::Overflow`], the number's first byte) and the offset
/// where reading stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NumberRefusal {
    pub(crate) error: NumberError,
    pub(crate) at: usize,
    pub(crate) end: usize,
}

/// Reads the number that starts at `text[start]`: its value and the
/// offset after it (the first byte that is not part of it).
#[inline]
pub(crate) fn read_number(text: &str, start: usize) -> Result<(Number, usize), NumberRefusal> {
    match short_integer(text.as_bytes(), start) {
        Some((value, end)) => Ok((
            Number {
                value,
                integer_syntax: true,
            },
            end,
        )),
        None => read_number_rest(text, start),
    }
}

/// The common case of [`read_number`], small enough to inline in every
/// integer field's decoder: an integer of at most 19 digits (it cannot
/// overflow a u64) that fits its 64-bit type, followed by a byte that ends
/// it. `None` for anything else (a fraction, an exponent, a longer
/// integer, an error), which [`read_number_rest`] reads from the start and
/// decides alone.
///
/// A specialised loop rather than [`NumberSyntax::step`]: one pass over the
/// digits with no state. It decides exactly as the machine (the tests
/// check it): no digit, a leading zero, or `.`/`e`/`E` after the digits is
/// `None`.
#[inline(always)]
pub(crate) fn short_integer(bytes: &[u8], start: usize) -> Option<(NumberValue, usize)> {
    let negative = bytes.get(start) == Some(&b'-');
    let first = start + usize::from(negative);
    // Its own loop rather than `digits`: through it, the inlined code came
    // out about 1 % slower on settings (callgrind, 2026-12-03).
    let mut i = first;
    let mut significand: u64 = 0;
    while let Some(&d @ b'0'..=b'9') = bytes.get(i) {
        significand = significand
            .wrapping_mul(10)
            .wrapping_add(u64::from(d - b'0'));
        i += 1;
    }
    let digits = i - first;
    let plain = digits > 0
        && digits <= 19
        && (digits == 1 || bytes.get(first) != Some(&b'0'))
        && !matches!(bytes.get(i), Some(b'.' | b'e' | b'E'));
    if !plain {
        return None;
    }
    let value = if !negative || significand == 0 {
        // `-0` is the integer 0 (see `classify`).
        NumberValue::U64(significand)
    } else {
        let neg = (significand as i64).wrapping_neg();
        if neg >= 0 {
            return None;
        }
        NumberValue::I64(neg)
    };
    Some((value, i))
}

// The digits from `i` on, each taken onto `significand` (wrapping: the
// callers bound the count before they use the value); where they end.
#[inline(always)]
fn digits(bytes: &[u8], mut i: usize, mut significand: u64) -> (usize, u64) {
    while let Some(&d @ b'0'..=b'9') = bytes.get(i) {
        significand = significand
            .wrapping_mul(10)
            .wrapping_add(u64::from(d - b'0'));
        i += 1;
    }
    (i, significand)
}

/// A float field's common number, read inline: at most 15 digits, an
/// optional fraction and no exponent (`0.06`, `-12.5`, `3`), whose value
/// is its digits over a power of ten, one correctly rounded division of
/// two exact f64s (Clinger's fast path). Anything else (a leading zero, a
/// missing digit, an exponent, more digits) is `None`: the full reader
/// decides it, errors included.
#[inline(always)]
pub(crate) fn short_decimal(bytes: &[u8], start: usize) -> Option<(f64, usize)> {
    let negative = bytes.get(start) == Some(&b'-');
    let first = start + usize::from(negative);
    let (i, significand) = digits(bytes, first, 0);
    let whole = i - first;
    if whole == 0 || (whole > 1 && bytes.get(first) == Some(&b'0')) {
        return None;
    }
    let (mut i, mut significand, mut fraction) = (i, significand, 0);
    if bytes.get(i) == Some(&b'.') {
        let from = i + 1;
        (i, significand) = digits(bytes, from, significand);
        fraction = i - from;
        if fraction == 0 {
            return None;
        }
    }
    if whole + fraction > 15 || matches!(bytes.get(i), Some(b'e' | b'E')) {
        return None;
    }
    // Below 10^15 < 2^53: the significand is an exact f64, and so is the
    // power (at most 10^15).
    let v = significand as f64 / *POW10.get(fraction)?;
    Some((if negative { -v } else { v }, i))
}

/// [`read_number`] for everything but what [`short_integer`] takes: the
/// grammar of [`NumberSyntax`] read part by part (sign, integer part,
/// fraction, exponent) in one pass, then the value classified.
///
/// A specialised loop rather than [`NumberSyntax::step`] byte by byte:
/// the reader reads every float here, and a state dispatch per byte costs
/// it about a tenth more instructions per document on float-heavy seeds.
/// It refuses exactly what the machine refuses, at the same byte, with the
/// same [`NumberError`] (the tests check it on generated texts).
#[inline]
pub(crate) fn read_number_rest(text: &str, start: usize) -> Result<(Number, usize), NumberRefusal> {
    let bytes = text.as_bytes();
    let refuse = |error, at| NumberRefusal { error, at, end: at };
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
                return Err(refuse(NumberError::LeadingZero, i));
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
        _ => return Err(refuse(NumberError::NeedsDigit, i)),
    }
    let mut integer_syntax = true;
    // For the exact fast path: fraction digits go on into the significand
    // while it fits, and `exponent` is the power of ten.
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
            return Err(refuse(NumberError::NeedsFractionDigit, i));
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
            return Err(refuse(NumberError::NeedsExponentDigit, i));
        }
        exponent += if minus { -written } else { written };
    }
    let digits = Digits {
        negative,
        significand,
        overflowed,
        exponent,
        integer_syntax,
    };
    match classify(text, start, i, &digits) {
        Some(number) => Ok((number, i)),
        None => Err(NumberRefusal {
            error: NumberError::Overflow,
            at: start,
            end: i,
        }),
    }
}

// A well-formed number's parts, as read: its sign, its significand
// (integer and fraction digits while it fits a u64), the power of ten it
// is multiplied by, and whether it is written as an integer.
struct Digits {
    negative: bool,
    significand: u64,
    overflowed: bool,
    exponent: i64,
    integer_syntax: bool,
}

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

/// The value of the well-formed number `text[start..end]`, whose parts
/// are `digits`: a `u64` or an `i64` for an integer literal that fits
/// (`-0` is the integer 0), else the nearest `f64` (exact in one operation
/// when it can be, else from the text); `None` when it overflows an f64.
#[inline]
fn classify(text: &str, start: usize, end: usize, digits: &Digits) -> Option<Number> {
    let negative = digits.negative;
    let integer_syntax = digits.integer_syntax;
    let significand = digits.significand;
    if !integer_syntax
        && !digits.overflowed
        && let Some(v) = exact_float(significand, digits.exponent)
    {
        return Some(Number {
            value: NumberValue::F64(if negative { -v } else { v }),
            integer_syntax,
        });
    }
    if integer_syntax && !digits.overflowed {
        if !negative {
            return Some(Number {
                value: NumberValue::U64(significand),
                integer_syntax,
            });
        }
        let neg = (significand as i64).wrapping_neg();
        if neg < 0 {
            return Some(Number {
                value: NumberValue::I64(neg),
                integer_syntax,
            });
        }
        // `-0` is the integer 0 (serde_json reads it as the float `-0.0`,
        // which would make `-0` and `0` two values); integers below
        // i64::MIN become floats, as in serde_json.
        if significand == 0 {
            return Some(Number {
                value: NumberValue::U64(0),
                integer_syntax,
            });
        }
    }
    match text.get(start..end).unwrap_or_default().parse::<f64>() {
        Ok(v) if v.is_finite() => Some(Number {
            value: NumberValue::F64(v),
            integer_syntax,
        }),
        _ => None,
    }
}
