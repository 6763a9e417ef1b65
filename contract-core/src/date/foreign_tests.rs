//! `DateTime` to and from the date-time types of `chrono`, `jiff` and
//! `time`: the instant and offset kept, and no panic on any instant the
//! decoder accepts (the `Date` conversions are in `tests.rs`).
use super::*;
use proptest::prelude::*;

fn dt(s: &str) -> DateTime {
    DateTime::parse(s).expect("valid test date-time")
}

/// The first instant a `DateTime` can write (UTC year -0001).
const FIRST: &str = "0000-01-01T00:00:00+23:59";
/// The last instant a `DateTime` can write (UTC year 10000).
const LAST: &str = "9999-12-31T23:59:59.999999999-23:59";

proptest! {
    /// Any date-time the decoder accepts, from year 0000 to 9999 in any
    /// offset: every conversion returns (a value or an error) and a value
    /// converts back to the same instant.
    #[test]
    #[cfg_attr(not(all(feature = "chrono", feature = "jiff", feature = "time")), allow(unused_variables))]
    fn conversions_of_any_decodable_instant_never_panic(
        y in prop_oneof![0u16..=9999, Just(0u16), Just(9999u16)],
        m in 1u8..=12, d in prop_oneof![1u8..=31, Just(31u8)], h in 0u8..24, mi in 0u8..60, s in 0u8..60,
        nanos in prop_oneof![0u32..1_000_000_000, Just(999_999_999u32)],
        off in prop_oneof![-1439i16..=1439, Just(-1439i16), Just(1439i16)],
    ) {
        let date = Date::new(y, m, d.min(Date::days_in_month(y, m))).expect("valid day");
        let v = DateTime::new(date, (h, mi, s), nanos, 9, off).expect("in range");
        #[cfg(feature = "chrono")]
        {
            let c: chrono::DateTime<chrono::FixedOffset> = v.into();
            prop_assert_eq!(DateTime::try_from(c), Ok(v));
        }
        #[cfg(feature = "jiff")]
        if let Ok(ts) = jiff::Timestamp::try_from(v) {
            // Back in UTC: the same instant, or UTC year -0001.
            match DateTime::try_from(ts) {
                Ok(back) => prop_assert_eq!(back, v),
                Err(e) => prop_assert_eq!(e.kind(), DateTimeErrorKind::YearOutOfRange),
            }
        }
        #[cfg(feature = "time")]
        if let Ok(t) = time::OffsetDateTime::try_from(v) {
            prop_assert_eq!(DateTime::try_from(t), Ok(v));
        }
    }
}

#[cfg(feature = "chrono")]
#[test]
fn chrono_conversions_keep_instant_and_offset() {
    let v = dt("2027-06-01T09:30:00.25+02:00");
    let c: chrono::DateTime<chrono::FixedOffset> = v.into();
    assert_eq!(c.timestamp(), v.unix_seconds());
    assert_eq!(c.offset().local_minus_utc(), 7200);
    let back = DateTime::try_from(c).expect("in range");
    assert_eq!(back.to_string(), "2027-06-01T09:30:00.25+02:00");
}

#[cfg(feature = "chrono")]
#[test]
fn chrono_holds_the_first_and_last_decodable_instants() {
    for text in [FIRST, LAST] {
        let v = dt(text);
        let c: chrono::DateTime<chrono::FixedOffset> = v.into();
        assert_eq!(c.timestamp(), v.unix_seconds(), "{text}");
        assert_eq!(
            DateTime::try_from(c).map(|b| b.to_string()),
            Ok(text.to_owned())
        );
    }
}

#[cfg(feature = "jiff")]
#[test]
fn jiff_conversions_keep_the_instant() {
    let v = dt("2027-06-01T09:30:00.25+02:00");
    let ts = jiff::Timestamp::try_from(v).expect("in range");
    assert_eq!(ts.as_second(), v.unix_seconds());
    let back = DateTime::try_from(ts).expect("in range");
    assert_eq!(
        (back, back.to_string().as_str()),
        (v, "2027-06-01T07:30:00.25Z")
    );
}

#[cfg(feature = "jiff")]
#[test]
fn jiff_conversion_past_jiffs_last_instant_is_instant_out_of_range() {
    for text in [
        "9999-12-31T23:59:59Z",
        "9999-12-30T22:00:01Z",
        "9999-12-30T23:00:00+00:59",
        LAST,
    ] {
        assert_eq!(
            jiff::Timestamp::try_from(dt(text)).map_err(|e| e.kind()),
            Err(DateTimeErrorKind::InstantOutOfRange),
            "{text}"
        );
    }
    let last = dt("9999-12-30T22:00:00.999999999Z");
    assert_eq!(jiff::Timestamp::try_from(last), Ok(jiff::Timestamp::MAX));
    // The first instant is in jiff's range; back in UTC it is year -0001.
    let first = jiff::Timestamp::try_from(dt(FIRST)).expect("in range");
    assert_eq!(
        DateTime::try_from(first).map_err(|e| e.kind()),
        Err(DateTimeErrorKind::YearOutOfRange)
    );
}

#[cfg(feature = "jiff")]
#[test]
fn jiff_timestamp_before_1970_with_a_fraction_converts() {
    // jiff writes -1.5 s as -1 s and -500 000 000 ns.
    let ts = jiff::Timestamp::new(-1, -500_000_000).expect("in range");
    let back = DateTime::try_from(ts).map(|v| v.to_string());
    assert_eq!(back, Ok("1969-12-31T23:59:58.5Z".to_owned()));
    let v = dt("1969-12-31T23:59:58.5Z");
    assert_eq!(jiff::Timestamp::try_from(v), Ok(ts));
}

#[cfg(feature = "time")]
#[test]
fn time_conversions_keep_instant_and_offset() {
    let v = dt("0000-01-01T00:00:00-01:30");
    let t = time::OffsetDateTime::try_from(v).expect("in range");
    assert_eq!(t.unix_timestamp(), v.unix_seconds());
    let back = DateTime::try_from(t).expect("in range");
    assert_eq!(back.to_string(), "0000-01-01T00:00:00-01:30");
}

#[cfg(feature = "time")]
#[test]
fn time_conversion_in_utc_year_10000_is_instant_out_of_range() {
    for text in [
        "9999-12-31T23:59:59-23:59",
        "9999-12-31T23:30:00-00:31",
        LAST,
    ] {
        assert_eq!(
            time::OffsetDateTime::try_from(dt(text)).map_err(|e| e.kind()),
            Err(DateTimeErrorKind::InstantOutOfRange),
            "{text}"
        );
    }
    for text in [
        FIRST,
        "9999-12-31T23:59:59.999999999Z",
        "9999-12-31T23:59:59+23:59",
    ] {
        let t = time::OffsetDateTime::try_from(dt(text)).expect("in range");
        assert_eq!(
            DateTime::try_from(t).map(|b| b.to_string()),
            Ok(text.to_owned())
        );
    }
}
