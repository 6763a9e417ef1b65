//! Calendar dates, decoded strictly from the `YYYY-MM-DD` text a model wrote,
//! and instants ([`DateTime`]) from RFC 3339 `date-time` text with an offset.
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
//!   [`DateTime`] converts into `chrono::DateTime<FixedOffset>` with `From`
//!   (always possible), and into `jiff::Timestamp` (the instant; a timestamp
//!   has no offset) and `time::OffsetDateTime` with `TryFrom`: the decoder
//!   reads every RFC 3339 instant of years 0000–9999, and with an offset the
//!   instant can fall in UTC year 10000 (`9999-12-31T23:59:59-23:59`) or
//!   after jiff's last instant (`9999-12-31T23:59:59Z` is past
//!   `9999-12-30T22:00:00.999999999Z`), which is
//!   [`DateTimeErrorKind::InstantOutOfRange`], never a panic. All convert
//!   back with `TryFrom`.
//! - [`DateTime`]'s rules (offset mandatory, `t`/`z` accepted, at most 9
//!   fraction digits, leap seconds refused, equality and order by instant,
//!   the written offset and precision kept) are in its docs.

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
        Date::parse_ascii(s.as_bytes())
    }

    /// [`Date::parse`] of the bytes of a text.
    pub(crate) const fn parse_ascii(b: &[u8]) -> Result<Date, DateError> {
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

    /// [`Date::parse_ascii`] of exactly ten bytes, when they are a day:
    /// the decoder's path for a date as a model writes it, which needs no
    /// error kind (a `None` is parsed again for its error). The shape is
    /// tested on two words (eight bytes, then two) instead of byte by byte.
    #[inline]
    pub(crate) fn from_ten(b: &[u8; 10]) -> Option<Date> {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        // Each byte's value above 9 sets its high bit (no carry leaves a
        // byte: at most 0x7F + 0x76).
        const ABOVE_NINE: u64 = 0x7676_7676_7676_7676;
        let [a0, a1, a2, a3, a4, a5, a6, a7, d0, d1] = *b;
        // `YYYY-MM-` with the digits' `0` and the dashes taken away: a
        // digit becomes its value, a dash 0, any other byte something else
        // (XOR maps 0x30..=0x39 exactly onto 0..=9).
        let x = u64::from_le_bytes([a0, a1, a2, a3, a4, a5, a6, a7]) ^ 0x2D30_302D_3030_3030;
        let dashes = x & 0xFF00_00FF_0000_0000;
        let wide = (x | ((x & LOW7) + ABOVE_NINE)) & HIGH;
        let (d0, d1) = (d0 ^ b'0', d1 ^ b'0');
        if dashes | wide != 0 || d0 > 9 || d1 > 9 {
            return None;
        }
        // Byte i of `pairs` is 10 × digit i + digit i + 1 (at most 99: no
        // carry between bytes).
        let pairs = x * 10 + (x >> 8);
        let century = (pairs & 0xFF) as u16;
        let year = century * 100 + ((pairs >> 16) & 0xFF) as u16;
        let month = ((pairs >> 40) & 0xFF) as u8;
        Date::checked(year, month, d0 * 10 + d1).ok()
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

mod datetime;
#[cfg(any(feature = "chrono", feature = "jiff", feature = "time"))]
mod foreign;

pub use datetime::{DateTime, DateTimeError, DateTimeErrorKind};

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod datetime_tests;

#[cfg(test)]
#[cfg(any(feature = "chrono", feature = "jiff", feature = "time"))]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod foreign_tests;
