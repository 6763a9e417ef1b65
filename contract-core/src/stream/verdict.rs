//! What a complete or partial value says against its plan node: nothing
//! yet, or a certain schema error (the code the decoder records there).
//! The node states the field's Rust type, so a number's code is decided
//! as the decoder decides it.
use super::plan::{Kind, Node, Numeric, Text, types};
use crate::code;
use crate::date::DateTime;
use crate::decode::{Format, is_email, is_uuid};
use crate::describe::Float;
use crate::json::Number;

/// A value's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Nothing against it (so far).
    Fine,
    /// The decoder records this code at the value's pointer.
    Reject(&'static str),
}

/// A complete number against its node (`quarantine`: value failures are
/// not errors).
pub(crate) fn number(node: &Node, n: &Number, quarantine: bool) -> Verdict {
    let integer_only = node.types & types::NUMBER == 0;
    if integer_only && !n.integer_syntax {
        return Verdict::Reject(code::INVALID_TYPE);
    }
    if quarantine {
        return Verdict::Fine;
    }
    match node.number.kind {
        Some(Kind::Int(kind)) => match n.as_i128() {
            Some(v) => integer(&node.number, kind.range(), v),
            // Written as an integer, beyond 64 bits: no integer type holds it.
            None => Verdict::Reject(code::OUT_OF_RANGE),
        },
        Some(Kind::Float(kind)) => float(&node.number, kind, n.as_f64()),
        None => Verdict::Fine,
    }
}

// An integer field's value, checked as the decoder checks it: the type's
// range (`out_of_range`), then `min`, `max`, `equals` and `one_of`.
fn integer(rule: &Numeric, (lo, hi): (i128, i128), v: i128) -> Verdict {
    if v < lo || v > hi {
        return Verdict::Reject(code::OUT_OF_RANGE);
    }
    if rule.minimum.is_some_and(|m| m.above(v)) {
        return Verdict::Reject(code::BELOW_MINIMUM);
    }
    if rule.maximum.is_some_and(|m| m.below(v)) {
        return Verdict::Reject(code::ABOVE_MAXIMUM);
    }
    match rule.allowed.iter().find(|(values, _)| !values.contains(&v)) {
        Some((_, code)) => Verdict::Reject(code),
        None => Verdict::Fine,
    }
}

// A float field's value: bounds are checked on the f64 as written (an f32
// field too, before narrowing); then an `f32` holds it or it is
// `out_of_range`. An `equals` or `one_of` on a float leaves the node
// `unsure` (decided at `finish`).
fn float(rule: &Numeric, kind: Float, v: f64) -> Verdict {
    if rule.minimum.is_some_and(|m| v < m.float) {
        return Verdict::Reject(code::BELOW_MINIMUM);
    }
    if rule.maximum.is_some_and(|m| v > m.float) {
        return Verdict::Reject(code::ABOVE_MAXIMUM);
    }
    if kind == Float::F32 && !(v as f32).is_finite() {
        return Verdict::Reject(code::OUT_OF_RANGE);
    }
    Verdict::Fine
}

/// A string so far (`chars` Unicode scalar values; `text` its decoded
/// content when the node needs it): what no continuation can repair.
pub(crate) fn string_prefix(rule: &Text, chars: usize, text: &str) -> Verdict {
    if rule.max_len.is_some_and(|max| chars > max) {
        return Verdict::Reject(code::TOO_LONG);
    }
    if let Some((_, code)) = rule
        .allowed
        .iter()
        .find(|(values, _)| !values.iter().any(|v| v.starts_with(text)))
    {
        return Verdict::Reject(code);
    }
    if rule.date && !date_prefix(text.as_bytes()) {
        return Verdict::Reject(code::INVALID_DATE);
    }
    if rule.date_time && !date_time_prefix(text.as_bytes()) {
        return Verdict::Reject(code::INVALID_DATE_TIME);
    }
    Verdict::Fine
}

/// Whether some RFC 3339 date-time starts with `p`, as far as its date and
/// the `T` after it tell.
pub(crate) fn date_time_prefix(p: &[u8]) -> bool {
    date_prefix(p.get(..10).unwrap_or(p)) && p.get(10).is_none_or(|b| matches!(b, b'T' | b't'))
}

/// A complete string.
pub(crate) fn string_end(rule: &Text, chars: usize, text: &str) -> Verdict {
    // A text equal to a value of every list starts with one of each too:
    // then the prefix's checks are its length and dates alone, in the
    // same order, and the lists are not read again.
    let listed = rule
        .allowed
        .iter()
        .all(|(values, _)| values.iter().any(|v| v == text));
    if !listed {
        return string_end_unlisted(rule, chars, text);
    }
    if rule.max_len.is_some_and(|max| chars > max) {
        return Verdict::Reject(code::TOO_LONG);
    }
    // A whole date (the common case) is a day by the decoder's own read;
    // anything else, its prefix decides here as for a partial string.
    if rule.date && !is_day(text) && !date_prefix(text.as_bytes()) {
        return Verdict::Reject(code::INVALID_DATE);
    }
    if rule.date_time && !date_time_prefix(text.as_bytes()) {
        return Verdict::Reject(code::INVALID_DATE_TIME);
    }
    if rule.min_len.is_some_and(|min| chars < min) {
        return Verdict::Reject(code::TOO_SHORT);
    }
    string_end_rest(rule, text)
}

// A complete string that some list has no value equal to: the prefix's
// verdict, then the length and the lists in the decoder's order.
#[cold]
fn string_end_unlisted(rule: &Text, chars: usize, text: &str) -> Verdict {
    match string_prefix(rule, chars, text) {
        Verdict::Fine => {}
        other => return other,
    }
    if rule.min_len.is_some_and(|min| chars < min) {
        return Verdict::Reject(code::TOO_SHORT);
    }
    if let Some((_, code)) = rule
        .allowed
        .iter()
        .find(|(values, _)| !values.iter().any(|v| v == text))
    {
        return Verdict::Reject(code);
    }
    string_end_rest(rule, text)
}

// What a complete string's whole text decides past its length and lists.
fn string_end_rest(rule: &Text, text: &str) -> Verdict {
    // The prefix check passed: ten characters are a calendar day (the two
    // agree on every year, month and day: tested below).
    if rule.date && text.len() != 10 {
        return Verdict::Reject(code::INVALID_DATE);
    }
    if rule.date_time && DateTime::parse(text).is_err() {
        return Verdict::Reject(code::INVALID_DATE_TIME);
    }
    let format = match rule.format {
        Some(Format::Email) if !is_email(text) => Some(code::INVALID_EMAIL),
        Some(Format::Uuid) if !is_uuid(text) => Some(code::INVALID_UUID),
        _ => None,
    };
    if let Some(code) = format {
        return Verdict::Reject(code);
    }
    // A pattern is a search anywhere in the string: a prefix seldom
    // decides it, so it is decided at the closing quote.
    if rule.pattern.as_ref().is_some_and(|p| !p.is_match(text)) {
        return Verdict::Reject(code::PATTERN_MISMATCH);
    }
    Verdict::Fine
}

// Whether `text` is exactly a `YYYY-MM-DD` day of the calendar (then
// `date_prefix` holds of it too: the two agree on ten bytes, tested below
// and in `date`).
#[inline]
fn is_day(text: &str) -> bool {
    <&[u8; 10]>::try_from(text.as_bytes()).is_ok_and(|b| crate::date::Date::from_ten(b).is_some())
}

/// Whether some `YYYY-MM-DD` day of the calendar starts with `p`.
pub(crate) fn date_prefix(p: &[u8]) -> bool {
    if p.len() > 10 {
        return false;
    }
    let digit = |i: usize| p.get(i).map(|b| b.is_ascii_digit());
    let dash = |i: usize| p.get(i).map(|&b| b == b'-');
    let shape = [0, 1, 2, 3, 5, 6, 8, 9]
        .iter()
        .all(|&i| digit(i) != Some(false))
        && dash(4) != Some(false)
        && dash(7) != Some(false);
    if !shape {
        return false;
    }
    let value = |i: usize| p.get(i).map(|b| u32::from(b - b'0'));
    let year = match (value(0), value(1), value(2), value(3)) {
        (Some(a), Some(b), Some(c), Some(d)) => Some(a * 1000 + b * 100 + c * 10 + d),
        _ => None,
    };
    let month = match (value(5), value(6)) {
        (Some(0), Some(m)) if m >= 1 => Some(m),
        (Some(1), Some(m)) if m <= 2 => Some(10 + m),
        (Some(0 | 1), None) => None,
        (None, _) => None,
        _ => return false,
    };
    // The longest the month can be (29 for February until the year says).
    let longest = match (year, month) {
        (_, None) => 31,
        (Some(y), Some(2)) if !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) => 28,
        (_, Some(2)) => 29,
        (_, Some(4 | 6 | 9 | 11)) => 30,
        _ => 31,
    };
    match (value(8), value(9)) {
        (Some(d), None) => d * 10 <= longest,
        (Some(d), Some(e)) => (1..=longest).contains(&(d * 10 + e)),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::Date;
    use crate::describe::Int;
    use crate::stream::plan::Bound;

    #[test]
    fn a_date_prefix_is_viable_when_a_calendar_day_starts_with_it() {
        for ok in [
            "",
            "2",
            "2027",
            "2027-",
            "2027-0",
            "2027-1",
            "2027-12",
            "2027-02-2",
            "2024-02-29",
            "2027-04-3",
            "2027-04-30",
            "0000-02-29",
        ] {
            assert!(date_prefix(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "x",
            "2027/",
            "2027-2",
            "2027-13",
            "2027-00",
            "2027-02-3",
            "2027-02-29",
            "2027-04-31",
            "2027-01-00",
            "2027-01-011",
            "2027-01-0a",
        ] {
            assert!(!date_prefix(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn every_viable_ten_character_prefix_parses_as_a_date() {
        for y in 0..=9999 {
            // Every day of the years that decide leap days; the month ends
            // of the others.
            let days: &[u32] = if y % 4 == 0 || y < 30 {
                &[0, 1, 9, 10, 19, 20, 28, 29, 30, 31, 32, 39, 40, 99]
            } else {
                &[0, 1, 28, 29, 30, 31, 32]
            };
            for m in 0..=13 {
                for &d in days {
                    let text = format!("{y:04}-{m:02}-{d:02}");
                    assert_eq!(
                        date_prefix(text.as_bytes()),
                        Date::parse(&text).is_ok(),
                        "{text}"
                    );
                    assert_eq!(is_day(&text), Date::parse(&text).is_ok(), "{text}");
                }
            }
        }
    }

    fn rule(min: i128, max: i128) -> Numeric {
        Numeric {
            kind: None,
            minimum: Some(Bound::integer(min)),
            maximum: Some(Bound::integer(max)),
            allowed: Vec::new(),
        }
    }

    #[test]
    fn an_integer_code_follows_the_fields_rust_type() {
        // `0..=4294967295`: a `u32`, or an `i64` with `min = 0`.
        let r = rule(0, u32::MAX as i128);
        assert_eq!(
            integer(&r, Int::U32.range(), -1),
            Verdict::Reject(code::OUT_OF_RANGE)
        );
        assert_eq!(
            integer(&r, Int::I64.range(), -1),
            Verdict::Reject(code::BELOW_MINIMUM)
        );
        let r = rule(1, 10);
        assert_eq!(
            integer(&r, Int::U8.range(), -3),
            Verdict::Reject(code::OUT_OF_RANGE)
        );
        assert_eq!(
            integer(&r, Int::I8.range(), -3),
            Verdict::Reject(code::BELOW_MINIMUM)
        );
        assert_eq!(
            integer(&r, Int::I8.range(), 11),
            Verdict::Reject(code::ABOVE_MAXIMUM)
        );
        assert_eq!(integer(&r, Int::I8.range(), 5), Verdict::Fine);
    }

    #[test]
    fn a_float_beyond_f32_is_out_of_range_for_an_f32_only() {
        let r = Numeric::default();
        assert_eq!(
            float(&r, Float::F32, 1e39),
            Verdict::Reject(code::OUT_OF_RANGE)
        );
        assert_eq!(float(&r, Float::F64, 1e39), Verdict::Fine);
        // Within rounding of `f32::MAX`: the narrowed value is finite.
        assert_eq!(float(&r, Float::F32, f64::from(f32::MAX)), Verdict::Fine);
    }
}
