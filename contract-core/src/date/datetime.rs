//! [`DateTime`]: an instant written as RFC 3339 with a mandatory offset.
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use super::{Date, digit};

/// An instant with the offset it was written in: RFC 3339 `date-time`
/// (`2027-06-01T09:30:00Z`, `2027-06-01T09:30:00.5+02:00`), read strictly.
///
/// # The text form
///
/// Exactly `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`:
///
/// - the offset is mandatory (a local time without one names no instant);
/// - `T` and `Z` may be written `t` and `z` (RFC 3339 §5.6); a space instead
///   of `T` is refused (JSON Schema's `date-time` is the ABNF, not the note);
/// - the fraction has 1 to 9 digits: nanosecond precision is kept exactly,
///   and a tenth digit is refused rather than rounded away;
/// - calendar and clock must be valid: a real day (years 0000–9999, as
///   [`Date`]), hours 00–23, minutes 00–59, seconds 00–59, offsets up to
///   ±23:59;
/// - **leap seconds are refused**: `:60` is [`DateTimeErrorKind::LeapSecond`].
///   An instant here is a count of seconds without leap seconds (as Unix time,
///   `chrono`'s arithmetic, `jiff` and `time`); a model has no reason to
///   write one, and accepting `23:59:60` would make two texts one instant.
///
/// # Equality, order and the written form
///
/// `==`, `<`, [`Hash`] compare **instants**: `09:30:00Z` equals
/// `11:30:00+02:00` and `09:30:00.500Z` equals `09:30:00.5Z` (so
/// `order(a <= b)` between two `DateTime` fields compares instants, whatever
/// offsets they were written in). The written form is kept: [`Display`]
/// (and `to_json`) writes the same offset (`Z`, `+02:00`, and RFC 3339's
/// `-00:00`, "offset unknown", all stay as written) and the same number of
/// fraction digits; only `t`/`z` come back upper case.
///
/// [`Display`]: fmt::Display
///
/// # Example
///
/// ```
/// use contract_runtime::{DateTime, date::DateTimeErrorKind};
///
/// let a: DateTime = "2027-06-01T09:30:00Z".parse()?;
/// let b: DateTime = "2027-06-01T11:30:00.5+02:00".parse()?;
/// assert!(a < b);
/// assert_eq!(a, "2027-06-01T11:30:00+02:00".parse::<DateTime>()?);
/// assert_eq!(b.to_string(), "2027-06-01T11:30:00.5+02:00");
/// assert_eq!((b.offset_minutes(), b.nanosecond()), (120, 500_000_000));
///
/// let kind = |s: &str| DateTime::parse(s).map_err(|e| e.kind());
/// assert_eq!(kind("2027-06-01T09:30:00"), Err(DateTimeErrorKind::Format));
/// assert_eq!(kind("2027-02-29T09:30:00Z"), Err(DateTimeErrorKind::Date));
/// assert_eq!(kind("2027-06-01T24:00:00Z"), Err(DateTimeErrorKind::Time));
/// assert_eq!(kind("2027-06-30T23:59:60Z"), Err(DateTimeErrorKind::LeapSecond));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct DateTime {
    date: Date,
    hour: u8,
    minute: u8,
    second: u8,
    nanos: u32,
    /// Fraction digits as written (0 when there was no fraction).
    digits: u8,
    offset: Offset,
}

/// How the offset was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Offset {
    /// `Z` (or `z`).
    Utc,
    /// `+HH:MM` / `-HH:MM`, in minutes east of UTC (`+00:00` is 0).
    Minutes(i16),
    /// `-00:00`: UTC, the local offset unknown (RFC 3339 §4.3).
    Unknown,
}

impl Offset {
    fn minutes(self) -> i16 {
        match self {
            Offset::Minutes(m) => m,
            Offset::Utc | Offset::Unknown => 0,
        }
    }
}

/// The largest offset RFC 3339 can write: `23:59`.
const MAX_OFFSET_MINUTES: i16 = 23 * 60 + 59;

impl DateTime {
    /// Reads RFC 3339 `date-time` with an offset (see the type's docs).
    ///
    /// # Errors
    ///
    /// A [`DateTimeError`] whose [`kind`](DateTimeError::kind) says whether
    /// the shape, the day, the clock, the offset or a leap second is at
    /// fault.
    pub fn parse(s: &str) -> Result<DateTime, DateTimeError> {
        use DateTimeErrorKind as K;
        let b = s.as_bytes();
        // `YYYY-MM-DDTHH:MM:SS` is 19 bytes; then the fraction and the offset.
        if b.len() < 20 || !matches!(b[10], b'T' | b't') {
            return Err(DateTimeError::new(K::Format));
        }
        let date = match s.get(..10).map(Date::parse) {
            Some(Ok(date)) => date,
            Some(Err(e)) if e.is_nonexistent_date() => return Err(DateTimeError::new(K::Date)),
            _ => return Err(DateTimeError::new(K::Format)),
        };
        if b[13] != b':' || b[16] != b':' {
            return Err(DateTimeError::new(K::Format));
        }
        let (Some(hour), Some(minute), Some(second)) =
            (two_digits(b, 11), two_digits(b, 14), two_digits(b, 17))
        else {
            return Err(DateTimeError::new(K::Format));
        };
        let mut at = 19;
        let (mut nanos, mut digits) = (0u32, 0u8);
        if b[at] == b'.' {
            at += 1;
            while let Some(d) = b.get(at).copied().and_then(digit) {
                if digits == 9 {
                    return Err(DateTimeError::new(K::Precision));
                }
                nanos = nanos * 10 + u32::from(d);
                digits += 1;
                at += 1;
            }
            if digits == 0 {
                return Err(DateTimeError::new(K::Format));
            }
            nanos *= 10u32.pow(9 - u32::from(digits));
        }
        let offset = match &b[at..] {
            [b'Z' | b'z'] => Offset::Utc,
            [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
                let (Some(h), Some(m)) = (two_digits(b, at + 1), two_digits(b, at + 4)) else {
                    return Err(DateTimeError::new(K::Format));
                };
                if h > 23 || m > 59 {
                    return Err(DateTimeError::new(K::Offset));
                }
                let minutes = i16::from(h) * 60 + i16::from(m);
                match (sign, minutes) {
                    (b'-', 0) => Offset::Unknown,
                    (b'-', _) => Offset::Minutes(-minutes),
                    _ => Offset::Minutes(minutes),
                }
            }
            _ => return Err(DateTimeError::new(K::Format)),
        };
        if hour > 23 || minute > 59 {
            return Err(DateTimeError::new(K::Time));
        }
        match second {
            0..=59 => {}
            60 => return Err(DateTimeError::new(K::LeapSecond)),
            _ => return Err(DateTimeError::new(K::Time)),
        }
        Ok(DateTime {
            date,
            hour,
            minute,
            second,
            nanos,
            digits,
            offset,
        })
    }

    /// The instant `date` at `hour:minute:second` and `nanosecond` in the
    /// offset `offset_minutes` east of UTC, written with `fraction_digits`
    /// digits (0–9; the digits must hold `nanosecond` exactly), or `None` if
    /// a part is out of range. An offset of 0 is written `Z`.
    #[must_use]
    pub fn new(
        date: Date,
        (hour, minute, second): (u8, u8, u8),
        nanosecond: u32,
        fraction_digits: u8,
        offset_minutes: i16,
    ) -> Option<DateTime> {
        let exact = fraction_digits <= 9
            && nanosecond < 1_000_000_000
            && nanosecond.is_multiple_of(10u32.pow(9 - u32::from(fraction_digits)));
        if hour > 23
            || minute > 59
            || second > 59
            || !exact
            || offset_minutes.unsigned_abs() > MAX_OFFSET_MINUTES.unsigned_abs()
        {
            return None;
        }
        Some(DateTime {
            date,
            hour,
            minute,
            second,
            nanos: nanosecond,
            digits: fraction_digits,
            offset: match offset_minutes {
                0 => Offset::Utc,
                m => Offset::Minutes(m),
            },
        })
    }

    /// The date as written (in the written offset).
    #[must_use]
    pub const fn date(&self) -> Date {
        self.date
    }

    /// The hour as written, 0–23.
    #[must_use]
    pub const fn hour(&self) -> u8 {
        self.hour
    }

    /// The minute as written, 0–59.
    #[must_use]
    pub const fn minute(&self) -> u8 {
        self.minute
    }

    /// The second, 0–59 (leap seconds are refused).
    #[must_use]
    pub const fn second(&self) -> u8 {
        self.second
    }

    /// The fraction of the second, in nanoseconds.
    #[must_use]
    pub const fn nanosecond(&self) -> u32 {
        self.nanos
    }

    /// How many fraction digits were written (0–9); [`Display`](fmt::Display)
    /// writes as many.
    #[must_use]
    pub const fn fraction_digits(&self) -> u8 {
        self.digits
    }

    /// The offset in minutes east of UTC (`+02:00` is 120; `Z` and `-00:00`
    /// are 0).
    #[must_use]
    pub fn offset_minutes(&self) -> i16 {
        self.offset.minutes()
    }

    /// Seconds since 1970-01-01T00:00:00Z (negative before), leap seconds
    /// not counted; [`nanosecond`](DateTime::nanosecond) is the rest.
    #[must_use]
    pub fn unix_seconds(&self) -> i64 {
        let days = days_from_civil(self.date);
        let local = days * 86_400
            + i64::from(self.hour) * 3600
            + i64::from(self.minute) * 60
            + i64::from(self.second);
        local - i64::from(self.offset.minutes()) * 60
    }

    /// The instant, for comparisons: seconds and nanoseconds.
    fn instant(&self) -> (i64, u32) {
        (self.unix_seconds(), self.nanos)
    }

    /// The instant `seconds`/`nanos` written in the offset `offset_minutes`,
    /// with the fewest fraction digits that hold `nanos` (for the foreign
    /// conversions).
    #[cfg(any(feature = "chrono", feature = "jiff", feature = "time"))]
    pub(super) fn from_unix(
        seconds: i64,
        nanos: u32,
        offset_minutes: i16,
    ) -> Result<DateTime, DateTimeError> {
        let local = seconds + i64::from(offset_minutes) * 60;
        let (days, rest) = (local.div_euclid(86_400), local.rem_euclid(86_400));
        let Some(date) = civil_from_days(days) else {
            return Err(DateTimeError::new(DateTimeErrorKind::YearOutOfRange));
        };
        // The fewest digits that write the nanoseconds exactly.
        let mut digits = 9u8;
        let mut n = nanos;
        if n == 0 {
            digits = 0;
        } else {
            while n.is_multiple_of(10) {
                n /= 10;
                digits -= 1;
            }
        }
        let hms = (
            (rest / 3600) as u8,
            (rest / 60 % 60) as u8,
            (rest % 60) as u8,
        );
        DateTime::new(date, hms, nanos, digits, offset_minutes)
            .ok_or(DateTimeError::new(DateTimeErrorKind::Offset))
    }
}

/// Two ASCII digits at `at`, as a number.
fn two_digits(b: &[u8], at: usize) -> Option<u8> {
    let hi = digit(*b.get(at)?)?;
    let lo = digit(*b.get(at + 1)?)?;
    Some(hi * 10 + lo)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
/// `days_from_civil`).
fn days_from_civil(date: Date) -> i64 {
    let (m, d) = (i64::from(date.month()), i64::from(date.day()));
    let y = i64::from(date.year()) - i64::from(m <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date `days` after 1970-01-01, if its year is 0000–9999.
#[cfg(any(feature = "chrono", feature = "jiff", feature = "time"))]
fn civil_from_days(days: i64) -> Option<Date> {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    Date::new(
        u16::try_from(y).ok()?,
        u8::try_from(m).ok()?,
        u8::try_from(d).ok()?,
    )
}

impl PartialEq for DateTime {
    /// The same instant (offsets and fraction digits aside).
    fn eq(&self, other: &DateTime) -> bool {
        self.instant() == other.instant()
    }
}

impl Eq for DateTime {}

impl Hash for DateTime {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.instant().hash(state);
    }
}

impl PartialOrd for DateTime {
    fn partial_cmp(&self, other: &DateTime) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for DateTime {
    /// Earlier instants first.
    fn cmp(&self, other: &DateTime) -> Ordering {
        self.instant().cmp(&other.instant())
    }
}

impl fmt::Display for DateTime {
    /// Writes RFC 3339 with the offset and fraction digits as read (`T` and
    /// `Z` upper case).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}T{:02}:{:02}:{:02}",
            self.date, self.hour, self.minute, self.second
        )?;
        if self.digits > 0 {
            let scaled = self.nanos / 10u32.pow(9 - u32::from(self.digits));
            write!(f, ".{:0width$}", scaled, width = usize::from(self.digits))?;
        }
        match self.offset {
            Offset::Utc => f.write_str("Z"),
            Offset::Unknown => f.write_str("-00:00"),
            Offset::Minutes(m) => {
                let sign = if m < 0 { '-' } else { '+' };
                let m = m.unsigned_abs();
                write!(f, "{sign}{:02}:{:02}", m / 60, m % 60)
            }
        }
    }
}

impl FromStr for DateTime {
    type Err = DateTimeError;

    /// Same as [`DateTime::parse`].
    fn from_str(s: &str) -> Result<DateTime, DateTimeError> {
        DateTime::parse(s)
    }
}

impl serde::Serialize for DateTime {
    /// Serializes as its RFC 3339 string.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for DateTime {
    /// Deserializes from a string through [`DateTime::parse`] (strict).
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<DateTime, D::Error> {
        deserializer.deserialize_str(DateTimeVisitor)
    }
}

/// Reads a [`DateTime`] from a string.
struct DateTimeVisitor;

impl serde::de::Visitor<'_> for DateTimeVisitor {
    type Value = DateTime;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an RFC 3339 date-time string with an offset")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<DateTime, E> {
        DateTime::parse(v).map_err(E::custom)
    }
}

/// What is wrong with a date-time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DateTimeErrorKind {
    /// Not the shape `YYYY-MM-DDTHH:MM:SS[.f](Z|±HH:MM)` (the offset
    /// missing, a space for `T`, a digit missing, …).
    Format,
    /// The date part names no day of the calendar.
    Date,
    /// The hour is above 23, the minute or second above 59.
    Time,
    /// The second is 60: leap seconds are refused.
    LeapSecond,
    /// The offset's hour is above 23 or its minute above 59.
    Offset,
    /// More than 9 fraction digits (nanoseconds are the precision kept).
    Precision,
    /// Outside years 0000–9999 (only from a conversion).
    YearOutOfRange,
    /// An instant the target type cannot hold (only from a conversion into
    /// `jiff::Timestamp` or `time::OffsetDateTime`, whose last instants come
    /// before the last ones a [`DateTime`] can write).
    InstantOutOfRange,
}

/// Why a string is not a [`DateTime`]. The message never repeats the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DateTimeError {
    kind: DateTimeErrorKind,
}

impl DateTimeError {
    pub(super) const fn new(kind: DateTimeErrorKind) -> DateTimeError {
        DateTimeError { kind }
    }

    /// What is wrong.
    #[must_use]
    pub const fn kind(&self) -> DateTimeErrorKind {
        self.kind
    }

    /// The message, as a static string (what [`Display`](fmt::Display)
    /// writes).
    #[must_use]
    pub const fn message(&self) -> &'static str {
        match self.kind {
            DateTimeErrorKind::Format => {
                "expected an RFC 3339 date-time with an offset, written exactly as \
                 YYYY-MM-DDTHH:MM:SS, an optional fraction of 1 to 9 digits, then Z or +HH:MM or -HH:MM"
            }
            DateTimeErrorKind::Date => {
                "the date does not exist on the calendar (months 01 to 12; \
                 February 29 only in leap years)"
            }
            DateTimeErrorKind::Time => {
                "the time does not exist: hours are 00 to 23, minutes and seconds 00 to 59"
            }
            DateTimeErrorKind::LeapSecond => {
                "leap seconds (second 60) are not accepted: write 59 or the next minute"
            }
            DateTimeErrorKind::Offset => {
                "the offset does not exist: its hours are 00 to 23 and its minutes 00 to 59"
            }
            DateTimeErrorKind::Precision => "at most 9 fraction digits (nanoseconds) are accepted",
            DateTimeErrorKind::YearOutOfRange => "the year must be 0000 to 9999",
            DateTimeErrorKind::InstantOutOfRange => {
                "the instant is outside the range of the target date-time type"
            }
        }
    }
}

impl fmt::Display for DateTimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for DateTimeError {}
