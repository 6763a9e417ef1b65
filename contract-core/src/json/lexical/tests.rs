//! The shared lexical rules on their own: tables against their definitions,
//! the escape machine, the number machine against the grammar and against
//! the reader's specialised loop, and the classification of numbers.
use proptest::prelude::*;

use super::escape::surrogate_pair;
use super::number::NumberError;
use super::{
    Escape, EscapeError, EscapeStep, NumberStep, NumberSyntax, NumberValue, Peek, escaped_char,
    hex_value, is_control, is_string_stop, is_whitespace, read_number, read_number_rest,
    short_integer, stop_bits,
};
use crate::code;

#[test]
fn the_byte_predicates_are_json_s_definitions() {
    for b in 0..=255u8 {
        assert_eq!(is_whitespace(b), b" \n\r\t".contains(&b), "{b:#x}");
        assert_eq!(
            is_control(b),
            char::from(b).is_ascii_control() && b != 0x7f,
            "{b:#x}"
        );
        assert_eq!(
            is_string_stop(b),
            b < 0x20 || b == b'"' || b == b'\\',
            "{b:#x}"
        );
        let hex = char::from(b).to_digit(16).map(|d| d as u16);
        assert_eq!(hex_value(b), hex, "{b:#x}");
    }
}

#[test]
fn the_one_byte_escapes_are_the_eight_of_rfc_8259() {
    let escapes: Vec<(u8, char)> = (0..=255u8)
        .filter_map(|b| escaped_char(b).map(|c| (b, c)))
        .collect();
    assert_eq!(
        escapes,
        [
            (b'"', '"'),
            (b'/', '/'),
            (b'\\', '\\'),
            (b'b', '\u{8}'),
            (b'f', '\u{c}'),
            (b'n', '\n'),
            (b'r', '\r'),
            (b't', '\t'),
        ]
    );
}

#[test]
fn peek_names_the_value_each_first_byte_starts() {
    for b in 0..=255u8 {
        let want = match b {
            b'{' => Some(Peek::Object),
            b'[' => Some(Peek::Array),
            b'"' => Some(Peek::String),
            b'-' | b'0'..=b'9' => Some(Peek::Number),
            b't' => Some(Peek::True),
            b'f' => Some(Peek::False),
            b'n' => Some(Peek::Null),
            _ => None,
        };
        assert_eq!(Peek::of(b), want, "{b:#x}");
    }
}

#[test]
fn stop_bits_find_the_first_string_stop_of_a_word() {
    for b in 0..=255u8 {
        for at in 0..8 {
            let mut word = *b"abcdefgh";
            word[at] = b;
            let bits = stop_bits(u64::from_le_bytes(word));
            let first = (bits.trailing_zeros() / 8) as usize;
            let want = if is_string_stop(b) { at } else { 8 };
            assert_eq!(first, want, "{b:#x} at {at}");
        }
    }
}

// The escape after its `\` (`escape` holds the bytes after it), through
// the machine: the character and how many bytes it took, or the refusal
// and the index (in `escape`) of the byte that decides it; `None` when the
// bytes end first.
fn unescape(escape: &[u8]) -> Option<Result<(char, usize), (EscapeError, usize)>> {
    let mut state = Escape::START;
    for (at, &b) in escape.iter().enumerate() {
        match state.step(b) {
            EscapeStep::More(next) => state = next,
            EscapeStep::Char(c) => return Some(Ok((c, at + 1))),
            EscapeStep::Refused(error) => return Some(Err((error, at))),
        }
    }
    None
}

#[test]
fn escapes_decode_to_their_characters() {
    assert_eq!(unescape(b"n"), Some(Ok(('\n', 1))));
    assert_eq!(unescape(b"/"), Some(Ok(('/', 1))));
    assert_eq!(unescape(b"u00e9"), Some(Ok(('\u{e9}', 5))));
    assert_eq!(unescape(b"u00E9"), Some(Ok(('\u{e9}', 5))));
    assert_eq!(unescape(b"u0000"), Some(Ok(('\0', 5))));
    assert_eq!(unescape(b"uFFFF"), Some(Ok(('\u{ffff}', 5))));
    assert_eq!(unescape(b"ud83d\\ude00"), Some(Ok(('\u{1f600}', 11))));
    assert_eq!(unescape(b"udbff\\udfff"), Some(Ok(('\u{10ffff}', 11))));
}

#[test]
fn an_escape_the_bytes_end_inside_is_undecided() {
    let whole = b"ud83d\\ude00";
    for cut in 0..whole.len() {
        assert_eq!(unescape(&whole[..cut]), None, "cut at {cut}");
    }
}

#[test]
fn an_invalid_escape_letter_is_refused_at_the_letter() {
    for letter in [b'x', b'U', b'0', b' ', b'\'', 0x7f, 0xc3] {
        assert_eq!(
            unescape(&[letter]),
            Some(Err((EscapeError::Invalid, 0))),
            "{letter:#x}"
        );
    }
}

#[test]
fn a_non_hex_digit_is_refused_where_it_stands_after_the_digits_of_its_group() {
    assert_eq!(
        unescape(b"u12g4"),
        Some(Err((EscapeError::NotHex { read: 2 }, 3)))
    );
    assert_eq!(
        unescape(b"ud83d\\uz"),
        Some(Err((EscapeError::NotHex { read: 0 }, 7)))
    );
    // Reported at the group's first digit: `\` at 10, group from 12.
    assert_eq!(EscapeError::NotHex { read: 2 }.offset(10, 14), 12);
    assert_eq!(EscapeError::LoneSurrogate.offset(10, 16), 10);
    assert_eq!(EscapeError::Invalid.offset(10, 11), 10);
}

#[test]
fn a_lone_surrogate_is_refused_at_the_byte_that_leaves_it_alone() {
    // A low half first, at its last digit.
    assert_eq!(
        unescape(b"ude00"),
        Some(Err((EscapeError::LoneSurrogate, 4)))
    );
    // A high half followed by anything but `\u` and a low half.
    assert_eq!(
        unescape(b"ud83dx"),
        Some(Err((EscapeError::LoneSurrogate, 5)))
    );
    assert_eq!(
        unescape(b"ud83d\\n"),
        Some(Err((EscapeError::LoneSurrogate, 6)))
    );
    assert_eq!(
        unescape(b"ud83d\\u0041"),
        Some(Err((EscapeError::LoneSurrogate, 10)))
    );
    assert_eq!(
        unescape(b"ud83d\\ud83d"),
        Some(Err((EscapeError::LoneSurrogate, 10)))
    );
}

#[test]
fn escape_refusals_have_their_codes() {
    assert_eq!(EscapeError::Invalid.code(), code::INVALID_ESCAPE);
    assert_eq!(EscapeError::NotHex { read: 0 }.code(), code::INVALID_ESCAPE);
    assert_eq!(EscapeError::LoneSurrogate.code(), code::LONE_SURROGATE);
}

#[test]
fn a_surrogate_pair_is_one_character_and_anything_else_none() {
    assert_eq!(surrogate_pair(0xD83D, 0xDE00), Some('\u{1f600}'));
    assert_eq!(surrogate_pair(0xD800, 0xDC00), Some('\u{10000}'));
    assert_eq!(surrogate_pair(0xD83D, 0xD83D), None);
    assert_eq!(surrogate_pair(0xDE00, 0xDE00), None);
    assert_eq!(surrogate_pair(0x0041, 0xDE00), None);
}

// The number machine over `text` from its start: where the number ends
// and whether it is an integer literal, or the refusal and its offset.
fn machine(text: &[u8]) -> Result<(usize, bool), (NumberError, usize)> {
    let mut state = NumberSyntax::Start;
    for (at, &b) in text.iter().enumerate() {
        match state.step(b) {
            NumberStep::More(next) => state = next,
            NumberStep::End => return Ok((at, state.is_integer())),
            NumberStep::Refused(error) => return Err((error, at)),
        }
    }
    match state.end() {
        Ok(()) => Ok((text.len(), state.is_integer())),
        Err(error) => Err((error, text.len())),
    }
}

// JSON's number grammar on a whole text, written apart from the machine.
fn well_formed(text: &str) -> bool {
    fn digits(s: &str) -> (&str, &str) {
        let n = s.bytes().take_while(u8::is_ascii_digit).count();
        s.split_at(n)
    }
    let s = text.strip_prefix('-').unwrap_or(text);
    let (int, mut rest) = digits(s);
    if int.is_empty() || (int.len() > 1 && int.starts_with('0')) {
        return false;
    }
    if let Some(r) = rest.strip_prefix('.') {
        let (frac, r) = digits(r);
        if frac.is_empty() {
            return false;
        }
        rest = r;
    }
    if let Some(r) = rest.strip_prefix(['e', 'E']) {
        let r = r.strip_prefix(['+', '-']).unwrap_or(r);
        let (exp, r) = digits(r);
        if exp.is_empty() {
            return false;
        }
        rest = r;
    }
    rest.is_empty()
}

proptest! {
    #[test]
    fn the_number_machine_accepts_exactly_json_s_grammar(text in "[-+.eE0-9x]{0,10}") {
        let whole = machine(text.as_bytes()) == Ok((text.len(), !text.contains(['.', 'e', 'E'])));
        prop_assert_eq!(whole, well_formed(&text), "{}", text);
    }

    // The reader's specialised loop decides as the machine: the same end,
    // the same refusal at the same byte (an overflow aside, which only
    // the value decides).
    #[test]
    fn the_specialised_number_loop_refuses_as_the_machine(
        text in "-?[0-9]{0,22}([.][0-9]{0,3})?([eE][-+]?[0-9]{0,4})?[-+.eE0-9x,]{0,3}",
    ) {
        let want = machine(text.as_bytes());
        for got in [read_number_rest(&text, 0), read_number(&text, 0)] {
            match got {
                Ok((number, end)) => prop_assert_eq!(Ok((end, number.integer_syntax)), want),
                Err(refusal) if refusal.error == NumberError::Overflow => {
                    prop_assert_eq!(refusal.at, 0);
                    prop_assert!(matches!(want, Ok((end, _)) if end == refusal.end));
                }
                Err(refusal) => prop_assert_eq!(Err((refusal.error, refusal.at)), want),
            }
        }
    }

    #[test]
    fn short_integers_read_as_the_full_loop(text in "-?[0-9]{0,21}([.eE][-+0-9]{0,3})?[,}x ]?") {
        if let Some((value, end)) = short_integer(text.as_bytes(), 0) {
            let full = read_number_rest(&text, 0).map(|(n, end)| (n.value, n.integer_syntax, end));
            prop_assert_eq!(full, Ok((value, true, end)));
        }
    }
}

#[test]
fn a_digit_after_a_leading_zero_is_refused_at_that_digit() {
    assert_eq!(machine(b"01"), Err((NumberError::LeadingZero, 1)));
    assert_eq!(machine(b"-00"), Err((NumberError::LeadingZero, 2)));
}

#[test]
fn a_missing_digit_is_refused_at_the_byte_that_is_not_one() {
    assert_eq!(machine(b"-"), Err((NumberError::NeedsDigit, 1)));
    assert_eq!(machine(b"-x"), Err((NumberError::NeedsDigit, 1)));
    assert_eq!(machine(b"x"), Err((NumberError::NeedsDigit, 0)));
    assert_eq!(machine(b"1.]"), Err((NumberError::NeedsFractionDigit, 2)));
    assert_eq!(machine(b"1e"), Err((NumberError::NeedsExponentDigit, 2)));
    assert_eq!(machine(b"1e+,"), Err((NumberError::NeedsExponentDigit, 3)));
}

#[test]
fn a_number_ends_at_the_first_byte_that_cannot_continue_it() {
    assert_eq!(machine(b"12,"), Ok((2, true)));
    assert_eq!(machine(b"0]"), Ok((1, true)));
    assert_eq!(machine(b"-0.5e-3}"), Ok((7, false)));
    assert_eq!(machine(b"1.5.2"), Ok((3, false)));
    assert_eq!(machine(b"1e5e"), Ok((3, false)));
}

#[test]
fn number_refusals_have_their_codes_and_a_cut_text_is_unexpected_end() {
    let code = |e: NumberError, at_end| e.code_and_message(at_end).0;
    assert_eq!(code(NumberError::LeadingZero, false), code::INVALID_NUMBER);
    assert_eq!(code(NumberError::NeedsDigit, false), code::INVALID_NUMBER);
    assert_eq!(
        code(NumberError::NeedsFractionDigit, false),
        code::INVALID_NUMBER
    );
    assert_eq!(
        code(NumberError::NeedsExponentDigit, false),
        code::INVALID_NUMBER
    );
    assert_eq!(code(NumberError::NeedsDigit, true), code::UNEXPECTED_END);
    assert_eq!(
        code(NumberError::NeedsExponentDigit, true),
        code::UNEXPECTED_END
    );
    assert_eq!(code(NumberError::Overflow, false), code::NUMBER_OVERFLOW);
}

fn value(text: &str) -> (NumberValue, bool) {
    let (number, end) = read_number(text, 0).unwrap();
    assert_eq!(end, text.len(), "{text}");
    (number.value, number.integer_syntax)
}

#[test]
fn integers_are_u64_when_non_negative_and_i64_when_negative() {
    assert_eq!(value("0"), (NumberValue::U64(0), true));
    assert_eq!(value("-0"), (NumberValue::U64(0), true));
    assert_eq!(
        value("18446744073709551615"),
        (NumberValue::U64(u64::MAX), true)
    );
    assert_eq!(value("-1"), (NumberValue::I64(-1), true));
    assert_eq!(
        value("-9223372036854775808"),
        (NumberValue::I64(i64::MIN), true)
    );
}

#[test]
fn integers_beyond_64_bits_are_the_nearest_float_still_of_integer_syntax() {
    assert_eq!(
        value("18446744073709551616"),
        (NumberValue::F64(18446744073709551616.0), true)
    );
    assert_eq!(
        value("-9223372036854775809"),
        (NumberValue::F64(-9223372036854775809.0), true)
    );
    assert!(value(&"9".repeat(300)).1);
}

#[test]
fn a_fraction_or_an_exponent_is_a_float() {
    assert_eq!(value("1.0"), (NumberValue::F64(1.0), false));
    assert_eq!(value("1e2"), (NumberValue::F64(100.0), false));
    assert!(!value("-0.0").1);
    let NumberValue::F64(minus_zero) = value("-0.0").0 else {
        panic!("a float");
    };
    assert_eq!(minus_zero.to_bits(), (-0.0f64).to_bits());
    assert_eq!(value("1E-400"), (NumberValue::F64(0.0), false));
}

#[test]
fn a_number_beyond_the_largest_float_is_an_overflow_at_its_start() {
    for text in ["1e400", "-1e400", "1.8e308", &"9".repeat(400)] {
        let refusal = read_number(text, 0).unwrap_err();
        assert_eq!(refusal.error, NumberError::Overflow, "{text}");
        assert_eq!(refusal.at, 0, "{text}");
        assert_eq!(refusal.end, text.len(), "{text}");
    }
    assert_eq!(
        value("1.7976931348623157e308"),
        (NumberValue::F64(f64::MAX), false)
    );
}
