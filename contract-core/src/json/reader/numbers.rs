//! Numbers: the reader's side of [`crate::json::lexical`]'s number rules
//! (the grammar, integers kept apart from floats, exact conversion to
//! f64), with the errors at the reader's offsets.
use super::Reader;
use crate::json::ParseError;
use crate::json::lexical::{self, Number, NumberRefusal};

impl<'de> Reader<'de> {
    /// Reads a number under JSON's grammar. A number too large for an f64
    /// is a parse error (`number_overflow`).
    #[inline]
    pub fn read_number(&mut self) -> Result<Number, ParseError> {
        // Inline, the common case: a short integer that fits its 64-bit
        // type. Anything else is read again from the start by
        // `read_number_rest`, which decides alone.
        match lexical::short_integer(self.bytes(), self.pos) {
            Some((value, end)) => {
                self.pos = end;
                Ok(Number {
                    value,
                    integer_syntax: true,
                })
            }
            None => self.read_number_rest(),
        }
    }

    /// Reads a number as a float field takes it: the `f64` a float parser
    /// reads from its text, so `-0` is `-0.0` (as an integer it is 0: see
    /// [`NumberValue::U64`](crate::json::NumberValue::U64)), as serde_json
    /// reads an `f64` and as a `serde_json::Value` holds it.
    #[inline]
    pub fn read_float(&mut self) -> Result<f64, ParseError> {
        if let Some((v, end)) = lexical::short_decimal(self.bytes(), self.pos) {
            self.pos = end;
            return Ok(v);
        }
        let negative = self.bytes().get(self.pos) == Some(&b'-');
        let v = self.read_number()?.as_f64();
        Ok(if negative && v == 0.0 { -0.0 } else { v })
    }

    // `read_number` for everything but a short integer.
    #[inline(never)]
    fn read_number_rest(&mut self) -> Result<Number, ParseError> {
        match lexical::read_number_rest(self.src, self.pos) {
            Ok((number, end)) => {
                self.pos = end;
                Ok(number)
            }
            Err(refusal) => {
                self.pos = refusal.end;
                Err(self.refused_number(refusal))
            }
        }
    }

    // A digit missing where the input ends (`-`, `1.`, `1e+`: an output cut
    // short) is `unexpected_end`, else `invalid_number`; an overflow is
    // reported at the number's start.
    #[cold]
    fn refused_number(&self, refusal: NumberRefusal) -> ParseError {
        let at_end = refusal.at >= self.bytes().len();
        let (code, message) = refusal.error.code_and_message(at_end);
        ParseError::new(code, message, refusal.at)
    }
}

#[cfg(test)]
mod float_tests {
    use proptest::prelude::*;

    use super::Reader;
    use crate::json::NumberValue;

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

        // The inline path for short decimals decides as the full reader:
        // the same f64 to the bit, the same position after; what it
        // declines, the full reader reads (errors included).
        #[test]
        fn the_short_decimal_path_agrees_with_the_full_reader(
            text in "-?[0-9]{0,17}([.][0-9]{0,17})?([eE][-+]?[0-9]{0,3})?[,}x ]?",
        ) {
            let bytes = text.as_bytes();
            if let Some((v, end)) = crate::json::lexical::short_decimal(bytes, 0) {
                let mut full = Reader::new(&text, 8);
                let negative = text.starts_with('-');
                let n = full.read_number_rest();
                prop_assert!(n.is_ok(), "{} {:?}", text, n);
                let want = n.map(|n| n.as_f64()).unwrap_or_default();
                let want = if negative && want == 0.0 { -0.0 } else { want };
                prop_assert_eq!(v.to_bits(), want.to_bits(), "{}", text);
                prop_assert_eq!(end, full.offset());
            }
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
