//! The decoder's string formats as exact `pattern`s: where a format's
//! syntax is a regular language, the pattern accepts exactly the strings
//! the decoder accepts, so a target that enforces `pattern` enforces the
//! format as `from_json` reads it — not as each engine reads `format`
//! (Outlines takes a date-time without an offset, llguidance a leap second
//! and ten fraction digits, both `ana@[127.0.0.1]`).
//!
//! The patterns are in the subset of ECMA-262 that llguidance, Outlines
//! (Python's `re`), OpenAI and `jsonschema` read alike: anchored with `^`
//! and `$`, non-capturing groups, classes of ASCII characters (`[0-9]`,
//! never `\d`, which Python reads as any Unicode digit), bounded
//! repetition. No lookaround, backreference or word boundary.
//!
//! - `date`: [`Date::parse`](crate::Date::parse) — `YYYY-MM-DD`, years
//!   0000–9999, each month's days, 29 February in Gregorian leap years only;
//! - `date-time`: [`DateTime::parse`](crate::DateTime::parse) — that date,
//!   `T` or `t`, `HH:MM:SS` (hours 00–23, seconds 00–59: no leap second),
//!   1 to 9 fraction digits, then `Z`, `z` or an offset `±HH:MM` up to
//!   `23:59`;
//! - `uuid`: [`is_uuid`](crate::decode::is_uuid) — `8-4-4-4-12`
//!   hexadecimal digits of either case;
//! - `email`: [`is_email`](crate::decode::is_email) — WHATWG's valid
//!   e-mail address: atext and dots, one `@`, dot-separated labels of 1 to
//!   63 letters, digits and inner hyphens.

/// A day of the calendar, unanchored: every month's days 01–28, the 29th
/// and 30th but in February, the 31st in the long months, and 29 February
/// in years divisible by 4 but not 100, or by 400. (A macro: `concat!`
/// takes literals only.)
macro_rules! day {
    () => {
        concat!(
            "(?:[0-9]{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])",
            "|(?:0[13-9]|1[0-2])-(?:29|30)",
            "|(?:0[13578]|1[02])-31)",
            "|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)",
        )
    };
}

/// `date`: a strict, calendar-valid `YYYY-MM-DD`.
pub(super) const DATE: &str = concat!("^", day!(), "$");

/// `date-time`: RFC 3339 with a mandatory offset, as the decoder reads it.
pub(super) const DATE_TIME: &str = concat!(
    "^",
    day!(),
    "[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,9})?",
    "(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$",
);

/// `uuid`: 8-4-4-4-12 hexadecimal digits.
pub(super) const UUID: &str =
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/// `email`: WHATWG HTML's valid e-mail address.
pub(super) const EMAIL: &str = concat!(
    "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+",
    "@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?",
    "(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$",
);

/// The exact pattern of a `format` the decoder checks, if it has one.
pub(super) fn exact_pattern(format: &str) -> Option<&'static str> {
    match format {
        "date" => Some(DATE),
        "date-time" => Some(DATE_TIME),
        "uuid" => Some(UUID),
        "email" => Some(EMAIL),
        _ => None,
    }
}

/// The decoder's syntax for a `format` it checks, in the words a reader
/// (and a model) reads: the error code that refuses a string breaking it,
/// and the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Syntax {
    /// The code `from_json` reports (`invalid_date_time`).
    pub(super) code: &'static str,
    /// The rule, with its article ("an RFC 3339 date-time with ...").
    pub(super) rule: &'static str,
}

/// The decoder's syntax for `format`, if it checks it (the formats of
/// [`exact_pattern`]).
pub(super) fn syntax(format: &str) -> Option<Syntax> {
    let (code, rule) = match format {
        "date" => ("invalid_date", "a strict YYYY-MM-DD calendar date"),
        "date-time" => (
            "invalid_date_time",
            "an RFC 3339 date-time with a mandatory offset, 1–9 fraction digits, no leap second",
        ),
        "uuid" => ("invalid_uuid", "a UUID of 8-4-4-4-12 hexadecimal digits"),
        "email" => ("invalid_email", "a WHATWG valid e-mail address"),
        _ => return None,
    };
    Some(Syntax { code, rule })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{is_email, is_uuid};
    use crate::{Date, DateTime};

    fn matcher(pattern: &str) -> regex_lite::Regex {
        match regex_lite::Regex::new(pattern) {
            Ok(re) => re,
            Err(e) => panic!("{pattern}: {e}"),
        }
    }

    #[test]
    fn every_exact_pattern_has_its_syntax_in_words() {
        for format in ["date", "date-time", "uuid", "email", "time", "uri"] {
            assert_eq!(
                exact_pattern(format).is_some(),
                syntax(format).is_some(),
                "{format}"
            );
        }
    }

    #[test]
    fn the_date_pattern_is_the_calendar() {
        let re = matcher(DATE);
        // Every day-of-month text of the years around each leap rule.
        for year in [
            0, 1, 4, 96, 100, 104, 200, 400, 1900, 2000, 2023, 2024, 2100, 9996, 9999,
        ] {
            for month in 0..=13 {
                for day in 0..=32 {
                    let text = format!("{year:04}-{month:02}-{day:02}");
                    assert_eq!(re.is_match(&text), Date::parse(&text).is_ok(), "{text}");
                }
            }
        }
        for text in [
            "2024-1-01",
            "2024-01-1",
            " 2024-01-01",
            "2024-01-01\n",
            "２０２４-01-01",
        ] {
            assert!(!re.is_match(text), "{text}");
        }
    }

    #[test]
    fn the_date_time_pattern_is_the_decoders() {
        let re = matcher(DATE_TIME);
        for text in [
            "2024-02-29T23:59:59Z",
            "2024-02-29t00:00:00z",
            "2027-06-30T12:00:00.5+02:00",
            "2027-06-30T12:00:00.123456789-00:00",
            "2027-06-30T12:00:00+23:59",
            "2027-06-30T23:59:60Z",
            "2027-06-30T12:00:00.1234567890Z",
            "2027-06-30T12:00:00",
            "2027-06-30 12:00:00Z",
            "2027-06-30T24:00:00Z",
            "2027-06-30T12:60:00Z",
            "2027-06-30T12:00:00+24:00",
            "2027-06-30T12:00:00+02:60",
            "2027-06-30T12:00:00.Z",
            "2027-06-30T12:00:00+0200",
            "2023-02-29T12:00:00Z",
            "2027-06-30T12:00:00ZZ",
        ] {
            assert_eq!(re.is_match(text), DateTime::parse(text).is_ok(), "{text}");
        }
    }

    #[test]
    fn the_uuid_and_email_patterns_are_the_decoders() {
        let uuid = matcher(UUID);
        for text in [
            "123e4567-e89b-12d3-a456-426614174000",
            "123E4567-E89B-12D3-A456-426614174000",
            "123e4567e89b12d3a456426614174000",
            "{123e4567-e89b-12d3-a456-426614174000}",
            "123e4567-e89b-12d3-a456-42661417400g",
        ] {
            assert_eq!(uuid.is_match(text), is_uuid(text), "{text}");
        }
        let email = matcher(EMAIL);
        let long = "a".repeat(63);
        let too_long = "a".repeat(64);
        for text in [
            "a@b".to_owned(),
            "ana.lopez+tickets@example.com".to_owned(),
            ".dots..anywhere.@example.com".to_owned(),
            "!#$%&'*+/=?^_`{|}~-@example.com".to_owned(),
            "ana@[127.0.0.1]".to_owned(),
            "ana@-example.com".to_owned(),
            "ana@example-.com".to_owned(),
            "ana@example..com".to_owned(),
            "ana@.example.com".to_owned(),
            "\"ana\"@example.com".to_owned(),
            "@example.com".to_owned(),
            "ana@".to_owned(),
            "a@b@c".to_owned(),
            "añа@example.com".to_owned(),
            format!("a@{long}.com"),
            format!("a@{too_long}.com"),
        ] {
            assert_eq!(email.is_match(&text), is_email(&text), "{text}");
        }
    }
}
