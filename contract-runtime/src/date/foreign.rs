//! Conversions between [`Date`] and the date types of `chrono`, `jiff` and
//! `time` (cargo features of the same names).
use super::{Date, DateError};

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
