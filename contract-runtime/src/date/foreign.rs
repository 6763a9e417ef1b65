//! Conversions between [`Date`] / [`DateTime`] and the date and date-time
//! types of `chrono`, `jiff` and `time` (cargo features of the same names).
use super::{Date, DateError, DateTime, DateTimeError, DateTimeErrorKind};

/// A valid [`Date`] is always in range of the foreign type; this names the
/// impossible branch of a fallible foreign constructor.
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
#[cfg_attr(docsrs, doc(cfg(feature = "chrono")))]
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
#[cfg_attr(docsrs, doc(cfg(feature = "chrono")))]
impl TryFrom<chrono::NaiveDate> for Date {
    type Error = DateError;

    /// The same day.
    ///
    /// # Errors
    ///
    /// [`DateErrorKind::YearOutOfRange`](super::DateErrorKind::YearOutOfRange) if the year is outside 0000–9999.
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
#[cfg_attr(docsrs, doc(cfg(feature = "jiff")))]
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
#[cfg_attr(docsrs, doc(cfg(feature = "jiff")))]
impl TryFrom<jiff::civil::Date> for Date {
    type Error = DateError;

    /// The same day.
    ///
    /// # Errors
    ///
    /// [`DateErrorKind::YearOutOfRange`](super::DateErrorKind::YearOutOfRange) if the year is negative.
    fn try_from(date: jiff::civil::Date) -> Result<Date, DateError> {
        Date::from_wide(
            i64::from(date.year()),
            i64::from(date.month()),
            i64::from(date.day()),
        )
    }
}

#[cfg(feature = "time")]
#[cfg_attr(docsrs, doc(cfg(feature = "time")))]
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
#[cfg_attr(docsrs, doc(cfg(feature = "time")))]
impl TryFrom<time::Date> for Date {
    type Error = DateError;

    /// The same day.
    ///
    /// # Errors
    ///
    /// [`DateErrorKind::YearOutOfRange`](super::DateErrorKind::YearOutOfRange) if the year is outside 0000–9999.
    fn try_from(date: time::Date) -> Result<Date, DateError> {
        Date::from_wide(
            i64::from(date.year()),
            i64::from(u8::from(date.month())),
            i64::from(date.day()),
        )
    }
}

#[cfg(feature = "chrono")]
impl From<DateTime> for chrono::DateTime<chrono::FixedOffset> {
    /// The same instant in the same offset (`-00:00` becomes `+00:00`).
    fn from(dt: DateTime) -> Self {
        let utc =
            chrono::DateTime::<chrono::Utc>::from_timestamp(dt.unix_seconds(), dt.nanosecond());
        let offset = chrono::FixedOffset::east_opt(i32::from(dt.offset_minutes()) * 60);
        match (utc, offset) {
            (Some(utc), Some(offset)) => utc.with_timezone(&offset),
            _ => unreachable!("every DateTime (years 0000-9999) is a valid chrono date-time"),
        }
    }
}

#[cfg(feature = "chrono")]
impl TryFrom<chrono::DateTime<chrono::FixedOffset>> for DateTime {
    type Error = DateTimeError;

    /// The same instant in the same offset (a whole-minute offset), with the
    /// fewest fraction digits that hold its nanoseconds.
    ///
    /// # Errors
    ///
    /// [`DateTimeErrorKind::YearOutOfRange`] outside years 0000–9999,
    /// [`DateTimeErrorKind::LeapSecond`] for chrono's leap-second
    /// representation, [`DateTimeErrorKind::Offset`] for an offset with
    /// seconds.
    fn try_from(dt: chrono::DateTime<chrono::FixedOffset>) -> Result<DateTime, DateTimeError> {
        let nanos = dt.timestamp_subsec_nanos();
        if nanos >= 1_000_000_000 {
            return Err(DateTimeError::new(DateTimeErrorKind::LeapSecond));
        }
        let secs = dt.offset().local_minus_utc();
        if secs % 60 != 0 {
            return Err(DateTimeError::new(DateTimeErrorKind::Offset));
        }
        let minutes =
            i16::try_from(secs / 60).map_err(|_| DateTimeError::new(DateTimeErrorKind::Offset))?;
        DateTime::from_unix(dt.timestamp(), nanos, minutes)
    }
}

#[cfg(feature = "jiff")]
impl From<DateTime> for jiff::Timestamp {
    /// The same instant (a `Timestamp` has no offset).
    fn from(dt: DateTime) -> jiff::Timestamp {
        match i32::try_from(dt.nanosecond())
            .ok()
            .and_then(|n| jiff::Timestamp::new(dt.unix_seconds(), n).ok())
        {
            Some(ts) => ts,
            None => unreachable!("every DateTime (years 0000-9999) is a valid jiff timestamp"),
        }
    }
}

#[cfg(feature = "jiff")]
impl TryFrom<jiff::Timestamp> for DateTime {
    type Error = DateTimeError;

    /// The same instant, written in UTC (`Z`).
    ///
    /// # Errors
    ///
    /// [`DateTimeErrorKind::YearOutOfRange`] before year 0000.
    fn try_from(ts: jiff::Timestamp) -> Result<DateTime, DateTimeError> {
        let nanos = u32::try_from(ts.subsec_nanosecond())
            .map_err(|_| DateTimeError::new(DateTimeErrorKind::YearOutOfRange))?;
        DateTime::from_unix(ts.as_second(), nanos, 0)
    }
}

#[cfg(feature = "time")]
impl From<DateTime> for time::OffsetDateTime {
    /// The same instant in the same offset (`-00:00` becomes `+00:00`).
    fn from(dt: DateTime) -> time::OffsetDateTime {
        let nanos = i128::from(dt.unix_seconds()) * 1_000_000_000 + i128::from(dt.nanosecond());
        let minutes = dt.offset_minutes();
        let offset = time::UtcOffset::from_hms(
            i8::try_from(minutes / 60).unwrap_or(0),
            i8::try_from(minutes % 60).unwrap_or(0),
            0,
        );
        match (
            time::OffsetDateTime::from_unix_timestamp_nanos(nanos),
            offset,
        ) {
            (Ok(utc), Ok(offset)) => utc.to_offset(offset),
            _ => unreachable!("every DateTime (years 0000-9999) is a valid time date-time"),
        }
    }
}

#[cfg(feature = "time")]
impl TryFrom<time::OffsetDateTime> for DateTime {
    type Error = DateTimeError;

    /// The same instant in the same offset (a whole-minute offset).
    ///
    /// # Errors
    ///
    /// [`DateTimeErrorKind::YearOutOfRange`] outside years 0000–9999,
    /// [`DateTimeErrorKind::Offset`] for an offset with seconds.
    fn try_from(dt: time::OffsetDateTime) -> Result<DateTime, DateTimeError> {
        let offset = dt.offset();
        if offset.seconds_past_minute() != 0 {
            return Err(DateTimeError::new(DateTimeErrorKind::Offset));
        }
        let minutes = i16::from(offset.whole_hours()) * 60 + i16::from(offset.minutes_past_hour());
        DateTime::from_unix(dt.unix_timestamp(), dt.nanosecond(), minutes)
    }
}
