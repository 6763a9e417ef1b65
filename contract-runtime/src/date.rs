//! Calendar dates, decoded strictly from the `YYYY-MM-DD` text a model wrote.
//!
//! [`Date`] is a day of the proleptic Gregorian calendar between `0000-01-01`
//! and `9999-12-31`. Its only text form is the ten bytes `YYYY-MM-DD`: no sign,
//! no time, no offset, no surrounding whitespace, ASCII digits only. A string
//! of that shape that names no real day (`2027-02-29`, `2027-13-01`) is
//! rejected too; [`DateError::kind`] tells the two failures apart.
//!
//! # Decisions
//!
//! - Year `0000` is accepted (it is a leap year under the Gregorian rule, as in
//!   ISO 8601's proleptic calendar); years above `9999` cannot be written in
//!   four digits and so do not exist here.
//! - [`DateError`]'s message never repeats the input: it may be sent back to
//!   the model that wrote it.
//! - With the cargo features `chrono`, `jiff` or `time`, [`Date`] converts into
//!   `chrono::NaiveDate`, `jiff::civil::Date` and `time::Date` (always
//!   possible) and back with `TryFrom` (fails outside years 0000–9999).

use std::fmt;
use std::str::FromStr;

/// A calendar date (proleptic Gregorian, years `0000`–`9999`), written and
/// read as exactly `YYYY-MM-DD`.
///
/// Fields are ordered year, month, day, so the derived [`Ord`] is
/// chronological. Every value is a real day: the constructors check the
/// month and the month's length, leap years included.
///
/// # Example
///
/// ```
/// use contract_runtime::date::{Date, DateErrorKind};
///
/// let start: Date = "2024-02-29".parse()?;
/// assert_eq!((start.year(), start.month(), start.day()), (2024, 2, 29));
/// assert_eq!(start.to_string(), "2024-02-29");
///
/// let end = Date::new(2024, 3, 1).ok_or("not a date")?;
/// assert!(start < end);
///
/// // Wrong shape, and a shape that names no day, are different errors.
/// assert_eq!(Date::parse("2024-2-29").map_err(|e| e.kind()), Err(DateErrorKind::Format));
/// assert_eq!(Date::parse("2027-02-29").map_err(|e| e.kind()), Err(DateErrorKind::Day));
///
/// // With serde, a date is its string, read through the same strict parser.
/// let json = serde_json::to_string(&start)?;
/// assert_eq!(json, r#""2024-02-29""#);
/// assert_eq!(serde_json::from_str::<Date>(&json)?, start);
/// assert!(serde_json::from_str::<Date>(r#""2024-02-29T00:00:00""#).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Date {
    year: u16,
    month: u8,
    day: u8,
}

/// Month lengths in a common year, January first.
const COMMON_YEAR_MONTH_DAYS: [u8; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/// The largest year that four digits can write.
const MAX_YEAR: u16 = 9999;

impl Date {
    /// The JSON Schema `pattern` for a date's string: the shape only (the
    /// calendar check is [`Date::parse`]'s).
    pub const PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";

    /// The earliest date, `0000-01-01`.
    pub const MIN: Date = Date {
        year: 0,
        month: 1,
        day: 1,
    };

    /// The latest date, `9999-12-31`.
    pub const MAX: Date = Date {
        year: MAX_YEAR,
        month: 12,
        day: 31,
    };

    /// The date `year-month-day`, or `None` if it is not a day of the calendar
    /// (month outside 1–12, day outside the month, year above 9999).
    #[must_use]
    pub const fn new(year: u16, month: u8, day: u8) -> Option<Date> {
        match Date::checked(year, month, day) {
            Ok(date) => Some(date),
            Err(_) => None,
        }
    }

    /// Reads exactly `YYYY-MM-DD` (ASCII digits, `-` separators, nothing
    /// before or after) and checks that it names a real day.
    ///
    /// # Errors
    ///
    /// [`DateErrorKind::Format`] if the text does not have that shape;
    /// [`DateErrorKind::Month`] or [`DateErrorKind::Day`] if it has the shape
    /// but the month, or the day in that month, does not exist.
    pub const fn parse(s: &str) -> Result<Date, DateError> {
        let b = s.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return Err(DateError::new(DateErrorKind::Format));
        }
        let (Some(y0), Some(y1), Some(y2), Some(y3)) =
            (digit(b[0]), digit(b[1]), digit(b[2]), digit(b[3]))
        else {
            return Err(DateError::new(DateErrorKind::Format));
        };
        let (Some(m0), Some(m1), Some(d0), Some(d1)) =
            (digit(b[5]), digit(b[6]), digit(b[8]), digit(b[9]))
        else {
            return Err(DateError::new(DateErrorKind::Format));
        };
        let year = y0 as u16 * 1000 + y1 as u16 * 100 + y2 as u16 * 10 + y3 as u16;
        Date::checked(year, m0 * 10 + m1, d0 * 10 + d1)
    }

    /// The year, 0–9999.
    #[must_use]
    pub const fn year(self) -> u16 {
        self.year
    }

    /// The month, 1–12.
    #[must_use]
    pub const fn month(self) -> u8 {
        self.month
    }

    /// The day of the month, 1–31.
    #[must_use]
    pub const fn day(self) -> u8 {
        self.day
    }

    /// Whether `year` is a leap year under the Gregorian rule: divisible by 4,
    /// except centuries, except every fourth century (2000 and 0 are, 1900 is
    /// not).
    #[must_use]
    pub const fn is_leap_year(year: u16) -> bool {
        year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
    }

    /// The number of days in `month` (1–12) of `year`: 28 to 31, or 0 if
    /// `month` is not 1–12.
    #[must_use]
    pub const fn days_in_month(year: u16, month: u8) -> u8 {
        match month {
            2 if Date::is_leap_year(year) => 29,
            1..=12 => COMMON_YEAR_MONTH_DAYS[(month - 1) as usize],
            _ => 0,
        }
    }

    /// The ten ASCII bytes `YYYY-MM-DD`.
    const fn to_ascii(self) -> [u8; 10] {
        let y = self.year;
        [
            b'0' + (y / 1000 % 10) as u8,
            b'0' + (y / 100 % 10) as u8,
            b'0' + (y / 10 % 10) as u8,
            b'0' + (y % 10) as u8,
            b'-',
            b'0' + self.month / 10 % 10,
            b'0' + self.month % 10,
            b'-',
            b'0' + self.day / 10 % 10,
            b'0' + self.day % 10,
        ]
    }

    /// The date, or the error saying which part does not exist.
    const fn checked(year: u16, month: u8, day: u8) -> Result<Date, DateError> {
        if year > MAX_YEAR {
            Err(DateError::new(DateErrorKind::YearOutOfRange))
        } else if month < 1 || month > 12 {
            Err(DateError::new(DateErrorKind::Month))
        } else if day < 1 || day > Date::days_in_month(year, month) {
            Err(DateError::new(DateErrorKind::Day))
        } else {
            Ok(Date { year, month, day })
        }
    }

    /// A date from another library's signed/wider parts; the year must be
    /// 0–9999. Used by the `TryFrom` conversions.
    #[cfg(any(feature = "chrono", feature = "jiff", feature = "time"))]
    fn from_wide(year: i64, month: i64, day: i64) -> Result<Date, DateError> {
        let year = match u16::try_from(year) {
            Ok(year) if year <= MAX_YEAR => year,
            _ => return Err(DateError::new(DateErrorKind::YearOutOfRange)),
        };
        let Ok(month) = u8::try_from(month) else {
            return Err(DateError::new(DateErrorKind::Month));
        };
        let Ok(day) = u8::try_from(day) else {
            return Err(DateError::new(DateErrorKind::Day));
        };
        Date::checked(year, month, day)
    }
}

/// The value of an ASCII digit (`0`–`9` only; no other Unicode digits).
const fn digit(b: u8) -> Option<u8> {
    if b.is_ascii_digit() {
        Some(b - b'0')
    } else {
        None
    }
}

impl fmt::Display for Date {
    /// Writes `YYYY-MM-DD`, zero-padded; honours width and alignment.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.to_ascii();
        match std::str::from_utf8(&bytes) {
            Ok(s) => f.pad(s),
            Err(_) => Err(fmt::Error),
        }
    }
}

impl FromStr for Date {
    type Err = DateError;

    /// Same as [`Date::parse`].
    fn from_str(s: &str) -> Result<Date, DateError> {
        Date::parse(s)
    }
}

impl serde::Serialize for Date {
    /// Serializes as the string `YYYY-MM-DD`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Date {
    /// Deserializes from a string through [`Date::parse`] (strict); the error
    /// message does not repeat the input.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Date, D::Error> {
        deserializer.deserialize_str(DateVisitor)
    }
}

/// Reads a [`Date`] from a string.
struct DateVisitor;

impl serde::de::Visitor<'_> for DateVisitor {
    type Value = Date;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a date string YYYY-MM-DD")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Date, E> {
        Date::parse(v).map_err(E::custom)
    }
}

/// What is wrong with a date: its shape, or the day it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DateErrorKind {
    /// The text is not exactly `YYYY-MM-DD` with ASCII digits.
    Format,
    /// The month is not 01–12.
    Month,
    /// The day is not a day of that month in that year (`00`, `31` in a
    /// 30-day month, `29` of February outside leap years).
    Day,
    /// The year is outside 0000–9999 (only from a constructor or a conversion;
    /// four digits cannot write such a year).
    YearOutOfRange,
}

/// Why a string or a set of parts is not a [`Date`].
///
/// The message ([`Display`](fmt::Display)) says what is wrong without
/// repeating the input, so it is safe to send back to a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DateError {
    kind: DateErrorKind,
}

impl DateError {
    /// An error of this kind.
    const fn new(kind: DateErrorKind) -> DateError {
        DateError { kind }
    }

    /// What is wrong.
    #[must_use]
    pub const fn kind(&self) -> DateErrorKind {
        self.kind
    }

    /// Whether the text had the `YYYY-MM-DD` shape but names no real day.
    #[must_use]
    pub const fn is_nonexistent_date(&self) -> bool {
        matches!(self.kind, DateErrorKind::Month | DateErrorKind::Day)
    }

    /// The message, as a static string (what [`Display`](fmt::Display)
    /// writes).
    #[must_use]
    pub const fn message(&self) -> &'static str {
        match self.kind {
            DateErrorKind::Format => {
                "expected a date written exactly as YYYY-MM-DD: a 4-digit year, \
                 a 2-digit month and a 2-digit day, separated by '-', \
                 with nothing before or after"
            }
            DateErrorKind::Month => {
                "the date does not exist on the calendar: the month must be 01 to 12"
            }
            DateErrorKind::Day => {
                "the date does not exist on the calendar: the day is not in that month \
                 (months have 28 to 31 days; February 29 only in leap years)"
            }
            DateErrorKind::YearOutOfRange => "the year must be 0000 to 9999",
        }
    }
}

impl fmt::Display for DateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for DateError {}

/// A valid [`Date`] is always in range of the foreign type; this names the
/// impossible branch of a fallible foreign constructor.
#[cfg(any(feature = "chrono", feature = "jiff", feature = "time"))]
macro_rules! in_range {
    ($lib:literal) => {
        unreachable!(concat!(
            "every Date (years 0000-9999) is a valid ",
            $lib,
            " date"
        ))
    };
}

#[cfg(feature = "chrono")]
impl From<Date> for chrono::NaiveDate {
    /// The same day; always in range.
    fn from(date: Date) -> chrono::NaiveDate {
        match chrono::NaiveDate::from_ymd_opt(
            i32::from(date.year),
            u32::from(date.month),
            u32::from(date.day),
        ) {
            Some(d) => d,
            None => in_range!("chrono"),
        }
    }
}

#[cfg(feature = "chrono")]
impl TryFrom<chrono::NaiveDate> for Date {
    type Error = DateError;

    /// The same day.
    ///
    /// # Errors
    ///
    /// [`DateErrorKind::YearOutOfRange`] if the year is outside 0000–9999.
    fn try_from(date: chrono::NaiveDate) -> Result<Date, DateError> {
        use chrono::Datelike;
        Date::from_wide(
            i64::from(date.year()),
            i64::from(date.month()),
            i64::from(date.day()),
        )
    }
}

#[cfg(feature = "jiff")]
impl From<Date> for jiff::civil::Date {
    /// The same day; always in range (jiff's years are -9999 to 9999).
    fn from(date: Date) -> jiff::civil::Date {
        // The year is at most 9999, month and day at most 31: all fit an i8/i16.
        match (
            i16::try_from(date.year),
            i8::try_from(date.month),
            i8::try_from(date.day),
        ) {
            (Ok(y), Ok(m), Ok(d)) => match jiff::civil::Date::new(y, m, d) {
                Ok(d) => d,
                Err(_) => in_range!("jiff"),
            },
            _ => in_range!("jiff"),
        }
    }
}

#[cfg(feature = "jiff")]
impl TryFrom<jiff::civil::Date> for Date {
    type Error = DateError;

    /// The same day.
    ///
    /// # Errors
    ///
    /// [`DateErrorKind::YearOutOfRange`] if the year is negative.
    fn try_from(date: jiff::civil::Date) -> Result<Date, DateError> {
        Date::from_wide(
            i64::from(date.year()),
            i64::from(date.month()),
            i64::from(date.day()),
        )
    }
}

#[cfg(feature = "time")]
impl From<Date> for time::Date {
    /// The same day; always in range (time's years are -9999 to 9999 without
    /// its `large-dates` feature).
    fn from(date: Date) -> time::Date {
        let Ok(month) = time::Month::try_from(date.month) else {
            in_range!("time")
        };
        match time::Date::from_calendar_date(i32::from(date.year), month, date.day) {
            Ok(d) => d,
            Err(_) => in_range!("time"),
        }
    }
}

#[cfg(feature = "time")]
impl TryFrom<time::Date> for Date {
    type Error = DateError;

    /// The same day.
    ///
    /// # Errors
    ///
    /// [`DateErrorKind::YearOutOfRange`] if the year is outside 0000–9999.
    fn try_from(date: time::Date) -> Result<Date, DateError> {
        Date::from_wide(
            i64::from(date.year()),
            i64::from(u8::from(date.month())),
            i64::from(date.day()),
        )
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn kind(s: &str) -> Result<Date, DateErrorKind> {
        Date::parse(s).map_err(|e| e.kind())
    }

    fn ymd(y: u16, m: u8, d: u8) -> Date {
        Date::new(y, m, d).expect("valid test date")
    }

    /// The reference calendar: written differently from the code under test.
    fn reference_is_leap(y: u32) -> bool {
        y.is_multiple_of(400) || (y.is_multiple_of(4) && !y.is_multiple_of(100))
    }

    fn reference_month_len(y: u32, m: u32) -> u32 {
        match m {
            2 if reference_is_leap(y) => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            _ => 0,
        }
    }

    fn reference_valid(y: u32, m: u32, d: u32) -> bool {
        y <= 9999 && (1..=12).contains(&m) && d >= 1 && d <= reference_month_len(y, m)
    }

    #[test]
    fn accepts_valid_dates() {
        for (s, y, m, d) in [
            ("2027-06-12", 2027, 6, 12),
            ("2024-02-29", 2024, 2, 29),
            ("2000-02-29", 2000, 2, 29),
            ("0000-01-01", 0, 1, 1),
            ("0000-02-29", 0, 2, 29),
            ("9999-12-31", 9999, 12, 31),
            ("2027-01-31", 2027, 1, 31),
            ("2027-04-30", 2027, 4, 30),
            ("1900-02-28", 1900, 2, 28),
        ] {
            let date = Date::parse(s).expect(s);
            assert_eq!((date.year(), date.month(), date.day()), (y, m, d), "{s}");
            assert_eq!(Date::new(y, m, d), Some(date), "{s}");
            assert_eq!(s.parse::<Date>(), Ok(date), "{s}");
            assert_eq!(date.to_string(), s);
        }
        assert_eq!(Date::parse("0000-01-01"), Ok(Date::MIN));
        assert_eq!(Date::parse("9999-12-31"), Ok(Date::MAX));
    }

    #[test]
    fn rejects_wrong_shape() {
        for s in [
            "2027-6-1",
            "2027-06-1",
            "2027-6-01",
            "2027-06-12T00:00:00",
            "2027-06-12T00:00:00Z",
            "20270612",
            " 2027-06-12",
            "2027-06-12 ",
            "2027-06-12\n",
            "\u{feff}2027-06-12",
            "+2027-06-12",
            "-2027-06-12",
            "+027-06-12",
            "2027/06/12",
            "2027.06.12",
            "2027_06_12",
            "\u{ff12}\u{ff10}\u{ff12}\u{ff17}-\u{ff10}\u{ff16}-\u{ff11}\u{ff12}",
            "2027-\u{ff10}6-12",
            "\u{0662}027-06-12",
            "",
            "-",
            "----------",
            "02027-06-12",
            "12027-06-12",
            "2027-006-12",
            "2027-06-012",
            "27-06-12",
            "2027-06",
            "2027-W24-6",
            "2027-163",
            "2027-06-1a",
            "2027-0x-12",
            "2027-06\u{2010}12",
            "2027\u{2212}06-12",
            "\"2027-06-12\"",
            "2027 06 12",
            "2027-06-12\0",
        ] {
            assert_eq!(kind(s), Err(DateErrorKind::Format), "{s:?}");
        }
    }

    #[test]
    fn rejects_nonexistent_dates() {
        for (s, k) in [
            ("2027-02-30", DateErrorKind::Day),
            ("2027-02-29", DateErrorKind::Day),
            ("1900-02-29", DateErrorKind::Day),
            ("2100-02-29", DateErrorKind::Day),
            ("2027-00-10", DateErrorKind::Month),
            ("2027-13-01", DateErrorKind::Month),
            ("2027-99-01", DateErrorKind::Month),
            ("2027-01-00", DateErrorKind::Day),
            ("2027-01-32", DateErrorKind::Day),
            ("2027-04-31", DateErrorKind::Day),
            ("2027-06-31", DateErrorKind::Day),
            ("2027-09-31", DateErrorKind::Day),
            ("2027-11-31", DateErrorKind::Day),
            ("2027-12-99", DateErrorKind::Day),
            ("0000-00-00", DateErrorKind::Month),
        ] {
            let err = Date::parse(s).expect_err(s);
            assert_eq!(err.kind(), k, "{s}");
            assert!(err.is_nonexistent_date(), "{s}");
        }
        assert!(
            !Date::parse("2027/06/12")
                .expect_err("shape")
                .is_nonexistent_date()
        );
    }

    #[test]
    fn leap_years() {
        assert!(Date::is_leap_year(2024));
        assert!(Date::is_leap_year(2000));
        assert!(Date::is_leap_year(1600));
        assert!(Date::is_leap_year(0));
        assert!(Date::is_leap_year(9996));
        assert!(!Date::is_leap_year(2027));
        assert!(!Date::is_leap_year(2023));
        assert!(!Date::is_leap_year(1900));
        assert!(!Date::is_leap_year(2100));
        assert!(!Date::is_leap_year(9999));
        for y in 0..=u16::MAX {
            assert_eq!(
                Date::is_leap_year(y),
                reference_is_leap(u32::from(y)),
                "{y}"
            );
        }
        assert!(Date::new(2024, 2, 29).is_some());
        assert!(Date::new(2000, 2, 29).is_some());
        assert!(Date::new(2027, 2, 29).is_none());
        assert!(Date::new(1900, 2, 29).is_none());
        assert_eq!(Date::days_in_month(2024, 2), 29);
        assert_eq!(Date::days_in_month(2023, 2), 28);
        assert_eq!(Date::days_in_month(1900, 2), 28);
        assert_eq!(Date::days_in_month(2000, 2), 29);
    }

    #[test]
    fn days_in_month_matches_reference() {
        for y in [0, 1, 4, 100, 400, 1900, 2000, 2023, 2024, 9999] {
            for m in 0..=255u8 {
                assert_eq!(
                    u32::from(Date::days_in_month(y, m)),
                    reference_month_len(u32::from(y), u32::from(m)),
                    "{y}-{m}"
                );
            }
        }
    }

    #[test]
    fn new_rejects_out_of_range_parts() {
        assert_eq!(Date::new(10000, 1, 1), None);
        assert_eq!(Date::new(u16::MAX, 1, 1), None);
        assert_eq!(Date::new(2027, 0, 1), None);
        assert_eq!(Date::new(2027, 13, 1), None);
        assert_eq!(Date::new(2027, 1, 0), None);
        assert_eq!(Date::new(2027, 1, 32), None);
        assert_eq!(Date::new(2027, 255, 255), None);
    }

    #[test]
    fn ordering_is_chronological() {
        let dates = [
            ymd(0, 1, 1),
            ymd(1999, 12, 31),
            ymd(2000, 1, 1),
            ymd(2000, 1, 2),
            ymd(2000, 2, 1),
            ymd(2000, 10, 1),
            ymd(2000, 12, 31),
            ymd(2001, 1, 1),
            ymd(9999, 12, 31),
        ];
        for pair in dates.windows(2) {
            assert!(pair[0] < pair[1], "{} < {}", pair[0], pair[1]);
        }
        let mut shuffled = [dates[5], dates[0], dates[8], dates[2], dates[7]];
        shuffled.sort();
        assert_eq!(shuffled, [dates[0], dates[2], dates[5], dates[7], dates[8]]);
        assert_eq!(
            ymd(2024, 6, 1).cmp(&ymd(2024, 6, 1)),
            std::cmp::Ordering::Equal
        );
        // String order of the canonical form is the same order.
        assert!(ymd(2024, 9, 30).to_string() < ymd(2024, 10, 1).to_string());
    }

    #[test]
    fn every_day_of_2023_and_2024_round_trips() {
        for (year, expected_days) in [(2023u16, 365), (2024, 366)] {
            let mut count = 0;
            let mut previous: Option<Date> = None;
            for month in 1..=12u8 {
                let len = Date::days_in_month(year, month);
                for day in 1..=len {
                    let date = ymd(year, month, day);
                    let text = date.to_string();
                    assert_eq!(text, format!("{year:04}-{month:02}-{day:02}"));
                    assert_eq!(text.parse::<Date>(), Ok(date));
                    assert_eq!(Date::parse(&text), Ok(date));
                    if let Some(p) = previous {
                        assert!(p < date);
                    }
                    previous = Some(date);
                    count += 1;
                }
                assert_eq!(Date::new(year, month, len + 1), None);
                let past_end = format!("{year:04}-{month:02}-{:02}", len + 1);
                assert_eq!(kind(&past_end), Err(DateErrorKind::Day));
            }
            assert_eq!(count, expected_days, "{year}");
        }
    }

    #[test]
    fn display_pads() {
        assert_eq!(ymd(7, 3, 4).to_string(), "0007-03-04");
        assert_eq!(ymd(0, 1, 1).to_string(), "0000-01-01");
        assert_eq!(format!("[{:>12}]", ymd(2027, 6, 12)), "[  2027-06-12]");
        assert_eq!(format!("[{:<11}]", ymd(2027, 6, 12)), "[2027-06-12 ]");
    }

    #[test]
    fn serde_round_trip_is_strict() {
        let date = ymd(2027, 6, 12);
        assert_eq!(
            serde_json::to_value(date).expect("serialize"),
            serde_json::json!("2027-06-12")
        );
        assert_eq!(
            serde_json::from_str::<Date>("\"2027-06-12\"").expect("deserialize"),
            date
        );
        let from_value: Date =
            serde_json::from_value(serde_json::json!("2024-02-29")).expect("from value");
        assert_eq!(from_value, ymd(2024, 2, 29));
        for bad in [
            "\"2027-02-30\"",
            "\"2027-6-1\"",
            "\"2027-06-12T00:00:00\"",
            "\" 2027-06-12\"",
            "20270612",
            "null",
            "[2027, 6, 12]",
            "{\"year\": 2027}",
        ] {
            assert!(serde_json::from_str::<Date>(bad).is_err(), "{bad}");
        }
        // An escaped form decodes to the same characters, so it is the same date.
        assert_eq!(
            serde_json::from_str::<Date>("\"2027\\u002d06-12\"").expect("escaped"),
            date
        );
        let err = serde_json::from_str::<Date>("\"1234-56-78\"").expect_err("month");
        assert!(!err.to_string().contains("1234"), "{err}");
    }

    #[test]
    fn messages_do_not_echo_input() {
        for s in [
            "1234-56-78",
            "1987-02-30",
            "1987-00-17",
            "secret-value",
            "9876-5-4",
            "2027-06-12T00:00:00",
        ] {
            let err = Date::parse(s).expect_err(s);
            let msg = err.to_string();
            assert_eq!(msg, err.message());
            assert!(!msg.is_empty());
            for part in s.split(['-', 'T', ':']).filter(|p| p.len() >= 2) {
                assert!(!msg.contains(part), "{msg:?} echoes {part:?}");
            }
        }
        let shape = Date::parse("x").expect_err("shape").to_string();
        let calendar = Date::parse("2027-02-30").expect_err("calendar").to_string();
        assert!(shape.contains("YYYY-MM-DD"), "{shape}");
        assert!(calendar.contains("does not exist"), "{calendar}");
        let err: Box<dyn std::error::Error> = Box::new(Date::parse("").expect_err("empty"));
        assert!(err.source().is_none());
    }

    #[test]
    fn pattern_matches_shape_only() {
        assert_eq!(Date::PATTERN, "^[0-9]{4}-[0-9]{2}-[0-9]{2}$");
    }

    #[test]
    fn const_usable() {
        const D: Option<Date> = Date::new(2024, 2, 29);
        const P: Result<Date, DateError> = Date::parse("2024-02-29");
        assert_eq!(D.map(Date::year), Some(2024));
        assert_eq!(P, Ok(ymd(2024, 2, 29)));
    }

    fn date_like() -> impl Strategy<Value = String> {
        prop_oneof![
            "[0-9]{4}-[0-9]{2}-[0-9]{2}",
            "[0-9]{4}-[01][0-9]-[0-3][0-9]",
            "[0-9+ T:/-]{0,12}",
            any::<String>(),
        ]
    }

    proptest! {
        #[test]
        fn accepted_strings_round_trip_exactly(s in date_like()) {
            match Date::parse(&s) {
                Ok(date) => {
                    prop_assert_eq!(date.to_string(), s.clone());
                    prop_assert!(reference_valid(
                        u32::from(date.year()),
                        u32::from(date.month()),
                        u32::from(date.day())
                    ));
                    prop_assert_eq!(s.parse::<Date>(), Ok(date));
                }
                Err(err) => {
                    prop_assert!(!err.message().is_empty());
                }
            }
        }

        #[test]
        fn new_agrees_with_reference(
            y in prop_oneof![0u16..=10_010, any::<u16>()],
            m in prop_oneof![0u8..=13, any::<u8>()],
            d in prop_oneof![0u8..=32, any::<u8>()],
        ) {
            let expected = reference_valid(u32::from(y), u32::from(m), u32::from(d));
            let date = Date::new(y, m, d);
            prop_assert_eq!(date.is_some(), expected);
            if let Some(date) = date {
                prop_assert_eq!((date.year(), date.month(), date.day()), (y, m, d));
            }
            if y <= 9999 && m <= 99 && d <= 99 {
                let text = format!("{y:04}-{m:02}-{d:02}");
                prop_assert_eq!(Date::parse(&text).ok(), date);
            }
        }
    }

    /// Boundary days of every year 0000–9999: the first, the last, and the
    /// end of February.
    #[cfg(any(feature = "chrono", feature = "jiff", feature = "time"))]
    fn boundary_dates() -> impl Iterator<Item = Date> {
        (0..=9999u16).flat_map(|y| {
            [
                ymd(y, 1, 1),
                ymd(y, 2, Date::days_in_month(y, 2)),
                ymd(y, 3, 1),
                ymd(y, 12, 31),
            ]
        })
    }

    #[cfg(feature = "chrono")]
    #[test]
    fn chrono_conversions() {
        use chrono::{Datelike, NaiveDate};
        for date in boundary_dates() {
            let c = NaiveDate::from(date);
            assert_eq!(
                (c.year(), c.month(), c.day()),
                (
                    i32::from(date.year()),
                    u32::from(date.month()),
                    u32::from(date.day())
                )
            );
            assert_eq!(Date::try_from(c), Ok(date));
        }
        let c = NaiveDate::from_ymd_opt(2024, 2, 29).expect("chrono date");
        assert_eq!(Date::try_from(c), Ok(ymd(2024, 2, 29)));
        for (y, m, d) in [
            (-1, 12, 31),
            (10000, 1, 1),
            (-262_000, 1, 1),
            (262_000, 1, 1),
        ] {
            let c = NaiveDate::from_ymd_opt(y, m, d).expect("chrono date");
            assert_eq!(
                Date::try_from(c).map_err(|e| e.kind()),
                Err(DateErrorKind::YearOutOfRange)
            );
        }
        // chrono agrees with this calendar on which days exist.
        for y in [0, 1900, 2000, 2023, 2024, 2100, 9999] {
            for m in 0..=13 {
                for d in 0..=32 {
                    assert_eq!(
                        NaiveDate::from_ymd_opt(i32::from(y), u32::from(m), u32::from(d)).is_some(),
                        Date::new(y, m, d).is_some(),
                        "{y}-{m}-{d}"
                    );
                }
            }
        }
    }

    #[cfg(feature = "jiff")]
    #[test]
    fn jiff_conversions() {
        for date in boundary_dates() {
            let j = jiff::civil::Date::from(date);
            assert_eq!(
                (j.year(), j.month(), j.day()),
                (
                    i16::try_from(date.year()).expect("year"),
                    i8::try_from(date.month()).expect("month"),
                    i8::try_from(date.day()).expect("day")
                )
            );
            assert_eq!(Date::try_from(j), Ok(date));
        }
        let j = jiff::civil::Date::new(2024, 2, 29).expect("jiff date");
        assert_eq!(Date::try_from(j), Ok(ymd(2024, 2, 29)));
        for (y, m, d) in [(-1, 12, 31), (-9999, 1, 1)] {
            let j = jiff::civil::Date::new(y, m, d).expect("jiff date");
            assert_eq!(
                Date::try_from(j).map_err(|e| e.kind()),
                Err(DateErrorKind::YearOutOfRange)
            );
        }
        assert_eq!(
            jiff::civil::Date::from(Date::MAX),
            jiff::civil::Date::new(9999, 12, 31).expect("jiff date")
        );
    }

    #[cfg(feature = "time")]
    #[test]
    fn time_conversions() {
        for date in boundary_dates() {
            let t = time::Date::from(date);
            assert_eq!(
                (t.year(), u8::from(t.month()), t.day()),
                (i32::from(date.year()), date.month(), date.day())
            );
            assert_eq!(Date::try_from(t), Ok(date));
        }
        let t = time::Date::from_calendar_date(2024, time::Month::February, 29).expect("time date");
        assert_eq!(Date::try_from(t), Ok(ymd(2024, 2, 29)));
        for (y, m, d) in [
            (-1, time::Month::December, 31),
            (-9999, time::Month::January, 1),
        ] {
            let t = time::Date::from_calendar_date(y, m, d).expect("time date");
            assert_eq!(
                Date::try_from(t).map_err(|e| e.kind()),
                Err(DateErrorKind::YearOutOfRange)
            );
        }
    }
}
