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
#[cfg_attr(docsrs, doc(cfg(feature = "chrono")))]
impl From<DateTime> for chrono::DateTime<chrono::FixedOffset> {
    /// The same instant in the same offset (`-00:00` becomes `+00:00`);
    /// always in range (chrono's years are about ±262 000; the instants of
    /// a [`DateTime`] run from UTC year -0001 to 10000).
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
#[cfg_attr(docsrs, doc(cfg(feature = "chrono")))]
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
#[cfg_attr(docsrs, doc(cfg(feature = "jiff")))]
impl TryFrom<DateTime> for jiff::Timestamp {
    type Error = DateTimeError;

    /// The same instant (a `Timestamp` has no offset).
    ///
    /// # Errors
    ///
    /// [`DateTimeErrorKind::InstantOutOfRange`] after jiff's last instant,
    /// `9999-12-30T22:00:00.999999999Z` (`jiff::Timestamp::MAX`): a
    /// [`DateTime`] can name instants up to `10000-01-01T23:58:59.999999999Z`
    /// (`9999-12-31T23:59:59.999999999-23:59`).
    fn try_from(dt: DateTime) -> Result<jiff::Timestamp, DateTimeError> {
        i32::try_from(dt.nanosecond())
            .ok()
            .and_then(|n| jiff::Timestamp::new(dt.unix_seconds(), n).ok())
            .ok_or(DateTimeError::new(DateTimeErrorKind::InstantOutOfRange))
    }
}

#[cfg(feature = "jiff")]
#[cfg_attr(docsrs, doc(cfg(feature = "jiff")))]
impl TryFrom<jiff::Timestamp> for DateTime {
    type Error = DateTimeError;

    /// The same instant, written in UTC (`Z`).
    ///
    /// # Errors
    ///
    /// [`DateTimeErrorKind::YearOutOfRange`] before year 0000.
    fn try_from(ts: jiff::Timestamp) -> Result<DateTime, DateTimeError> {
        // Before 1970 jiff counts the fraction back from the whole second
        // (`-0.5 s` is 0 s and -500 000 000 ns): carry it into the seconds.
        let (mut seconds, mut nanos) = (ts.as_second(), i64::from(ts.subsec_nanosecond()));
        if nanos < 0 {
            seconds -= 1;
            nanos += 1_000_000_000;
        }
        let nanos = u32::try_from(nanos)
            .map_err(|_| DateTimeError::new(DateTimeErrorKind::YearOutOfRange))?;
        DateTime::from_unix(seconds, nanos, 0)
    }
}

#[cfg(feature = "time")]
#[cfg_attr(docsrs, doc(cfg(feature = "time")))]
impl TryFrom<DateTime> for time::OffsetDateTime {
    type Error = DateTimeError;

    /// The same instant in the same offset (`-00:00` becomes `+00:00`).
    ///
    /// # Errors
    ///
    /// [`DateTimeErrorKind::InstantOutOfRange`] when the instant falls in
    /// UTC year 10000 (`9999-12-31T23:59:59-23:59` is
    /// `10000-01-01T23:58:59Z`), past time's last instant
    /// `9999-12-31T23:59:59.999999999Z` (without time's `large-dates`
    /// feature, which holds them).
    fn try_from(dt: DateTime) -> Result<time::OffsetDateTime, DateTimeError> {
        let out_of_range = DateTimeError::new(DateTimeErrorKind::InstantOutOfRange);
        let nanos = i128::from(dt.unix_seconds()) * 1_000_000_000 + i128::from(dt.nanosecond());
        let minutes = dt.offset_minutes();
        // |minutes| <= 23 * 60 + 59: hours and minutes fit an i8, same sign.
        let (Ok(hours), Ok(rest)) = (i8::try_from(minutes / 60), i8::try_from(minutes % 60)) else {
            return Err(DateTimeError::new(DateTimeErrorKind::Offset));
        };
        let offset = time::UtcOffset::from_hms(hours, rest, 0)
            .map_err(|_| DateTimeError::new(DateTimeErrorKind::Offset))?;
        time::OffsetDateTime::from_unix_timestamp_nanos(nanos)
            .ok()
            .and_then(|utc| utc.checked_to_offset(offset))
            .ok_or(out_of_range)
    }
}

#[cfg(feature = "time")]
#[cfg_attr(docsrs, doc(cfg(feature = "time")))]
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
