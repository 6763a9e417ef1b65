//! Numbers: the JSON grammar, integers kept apart from floats, and exact
//! conversion to f64.
use super::Reader;
use crate::code;
use crate::json::ParseError;

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

impl<'de> Reader<'de> {
    /// Reads a number under JSON's grammar. A number too large for an f64
    /// is a parse error (`number_overflow`).
    #[inline]
    pub fn read_number(&mut self) -> Result<Number, ParseError> {
        // Inline, the common case: an integer of at most 19 digits (it
        // cannot overflow a u64) that fits its 64-bit type. Anything else
        // (a fraction, an exponent, a longer integer, an error) is read
        // again from the start by `read_number_rest`, which decides alone.
        let bytes = self.bytes();
        let start = self.pos;
        let negative = bytes.get(start) == Some(&b'-');
        let first = start + usize::from(negative);
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
        if plain {
            let value = if !negative || significand == 0 {
                // `-0` is the integer 0 (see below).
                Some(NumberValue::U64(significand))
            } else {
                let neg = (significand as i64).wrapping_neg();
                (neg < 0).then_some(NumberValue::I64(neg))
            };
            if let Some(value) = value {
                self.pos = i;
                return Ok(Number {
                    value,
                    integer_syntax: true,
                });
            }
        }
        self.read_number_rest()
    }

    /// Reads a number as a float field takes it: the `f64` a float parser
    /// reads from its text, so `-0` is `-0.0` (as an integer it is 0: see
    /// [`NumberValue::U64`]), as serde_json reads an `f64` and as a
    /// `serde_json::Value` holds it.
    #[inline]
    pub fn read_float(&mut self) -> Result<f64, ParseError> {
        let negative = self.bytes().get(self.pos) == Some(&b'-');
        let v = self.read_number()?.as_f64();
        Ok(if negative && v == 0.0 { -0.0 } else { v })
    }

    // A digit is missing at the scanner's position: where the input ends
    // there (`-`, `1.`, `1e+`: an output cut short) it is `unexpected_end`,
    // else `invalid_number`.
    #[cold]
    fn needs_digit(&self, message: &'static str) -> ParseError {
        if self.pos >= self.bytes().len() {
            self.error_here(code::UNEXPECTED_END, "the input ends inside a number")
        } else {
            self.error_here(code::INVALID_NUMBER, message)
        }
    }

    // `read_number` for everything but a short integer.
    #[inline(never)]
    fn read_number_rest(&mut self) -> Result<Number, ParseError> {
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
                    return Err(self
                        .error_here(code::INVALID_NUMBER, "a number cannot have a leading zero"));
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
                return Err(self.needs_digit("a number needs a digit here"));
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
                return Err(self.needs_digit("a fraction needs a digit after `.`"));
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
                return Err(self.needs_digit("an exponent needs a digit"));
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
                code::NUMBER_OVERFLOW,
                "the number is too large for a 64-bit float",
                start,
            )),
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
        // The inline path for short integers decides as the full reader:
        // same value, same error, same position after.
        #[test]
        fn the_short_integer_path_agrees_with_the_full_reader(
            text in "-?[0-9]{0,21}([.eE][-+0-9]{0,3})?[,}x ]?",
        ) {
            let mut fast = Reader::new(&text, 8);
            let mut full = Reader::new(&text, 8);
            let a = fast.read_number();
            let b = full.read_number_rest();
            prop_assert_eq!(format!("{a:?}"), format!("{b:?}"));
            prop_assert_eq!(fast.offset(), full.offset());
        }

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
