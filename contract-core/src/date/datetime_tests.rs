//! RFC 3339 date-times: the accepted shape, calendar and clock, leap
//! seconds, instants, and the written form kept.
use super::*;
use proptest::prelude::*;

fn kind(s: &str) -> Result<DateTime, DateTimeErrorKind> {
    DateTime::parse(s).map_err(|e| e.kind())
}

fn dt(s: &str) -> DateTime {
    DateTime::parse(s).expect("valid test date-time")
}

#[test]
fn accepts_rfc3339_with_an_offset() {
    for s in [
        "2027-06-01T09:30:00Z",
        "2027-06-01T09:30:00.5+02:00",
        "2027-06-01T09:30:00.123456789-05:30",
        "0000-01-01T00:00:00+23:59",
        "9999-12-31T23:59:59.999999999-23:59",
        "2024-02-29T12:00:00+00:00",
        "2027-06-01T09:30:00-00:00",
    ] {
        assert_eq!(dt(s).to_string(), s, "{s}");
    }
}

#[test]
fn lower_case_t_and_z_are_accepted_and_written_upper_case() {
    assert_eq!(
        dt("2027-06-01t09:30:00z").to_string(),
        "2027-06-01T09:30:00Z"
    );
}

#[test]
fn rejects_other_shapes() {
    for s in [
        "2027-06-01T09:30:00",
        "2027-06-01 09:30:00Z",
        "2027-06-01T09:30Z",
        "2027-06-01T9:30:00Z",
        "2027-06-01T09:30:00.Z",
        "2027-06-01T09:30:00,5Z",
        "2027-06-01T09:30:00+0200",
        "2027-06-01T09:30:00+02",
        "2027-06-01T09:30:00+2:00",
        "2027-06-01T09:30:00UTC",
        "2027-06-01T09:30:00Z ",
        " 2027-06-01T09:30:00Z",
        "2027-6-01T09:30:00Z",
        "2027-06-01",
        "2027-06-01T09:30:00\u{ff3a}",
        "2027-06-01T09:30:0\u{0661}Z",
        "",
    ] {
        assert_eq!(kind(s), Err(DateTimeErrorKind::Format), "{s:?}");
    }
}

#[test]
fn rejects_nonexistent_days_clocks_and_offsets() {
    for (s, k) in [
        ("2027-02-29T00:00:00Z", DateTimeErrorKind::Date),
        ("2027-13-01T00:00:00Z", DateTimeErrorKind::Date),
        ("2027-06-01T24:00:00Z", DateTimeErrorKind::Time),
        ("2027-06-01T23:60:00Z", DateTimeErrorKind::Time),
        ("2027-06-01T23:59:61Z", DateTimeErrorKind::Time),
        ("2027-06-01T00:00:00+24:00", DateTimeErrorKind::Offset),
        ("2027-06-01T00:00:00+01:60", DateTimeErrorKind::Offset),
        (
            "2027-06-01T00:00:00.0123456789Z",
            DateTimeErrorKind::Precision,
        ),
    ] {
        assert_eq!(kind(s), Err(k), "{s}");
    }
}

#[test]
fn leap_seconds_are_refused_even_at_the_end_of_a_utc_day() {
    assert_eq!(
        kind("2016-12-31T23:59:60Z"),
        Err(DateTimeErrorKind::LeapSecond)
    );
    assert_eq!(
        kind("2016-12-31T18:59:60-05:00"),
        Err(DateTimeErrorKind::LeapSecond)
    );
}

#[test]
fn equality_and_order_compare_instants() {
    assert_eq!(dt("2027-06-01T09:30:00Z"), dt("2027-06-01T11:30:00+02:00"));
    assert_eq!(dt("2027-06-01T09:30:00.500Z"), dt("2027-06-01T09:30:00.5Z"));
    assert_eq!(dt("2027-06-01T00:00:00-00:00"), dt("2027-06-01T00:00:00Z"));
    // Written earlier on the clock, yet later as an instant.
    assert!(dt("2027-06-01T08:00:00-05:00") > dt("2027-06-01T12:00:00Z"));
    assert!(dt("2027-06-01T09:30:00.000000001Z") > dt("2027-06-01T09:30:00Z"));
    assert_eq!(dt("1970-01-01T00:00:00Z").unix_seconds(), 0);
    assert_eq!(dt("1970-01-01T01:00:00+01:00").unix_seconds(), 0);
    assert_eq!(dt("2000-03-01T00:00:00Z").unix_seconds(), 951_868_800);
}

#[test]
fn messages_do_not_repeat_the_input() {
    let e = DateTime::parse("2027-06-01T99:99:99Z").expect_err("invalid");
    assert!(!e.to_string().contains("99"));
}

#[test]
fn serde_reads_strictly_and_writes_as_read() {
    let v: DateTime = serde_json::from_str(r#""2027-06-01T09:30:00.50+02:00""#).expect("valid");
    assert_eq!(
        serde_json::to_string(&v).expect("serializes"),
        r#""2027-06-01T09:30:00.50+02:00""#
    );
    assert!(serde_json::from_str::<DateTime>(r#""2027-06-01T09:30:00""#).is_err());
}

/// Seconds since 1970 by counting days year by year: written differently
/// from the code under test.
fn reference_unix(y: u16, m: u8, d: u8, h: u8, mi: u8, s: u8, off: i16) -> i64 {
    let mut days: i64 = 0;
    let leap = |y: i64| y % 400 == 0 || (y % 4 == 0 && y % 100 != 0);
    let y = i64::from(y);
    if y >= 1970 {
        for yy in 1970..y {
            days += if leap(yy) { 366 } else { 365 };
        }
    } else {
        for yy in y..1970 {
            days -= if leap(yy) { 366 } else { 365 };
        }
    }
    let lens = [
        31,
        if leap(y) { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    days += lens[..usize::from(m - 1)].iter().sum::<i64>() + i64::from(d) - 1;
    days * 86_400 + i64::from(h) * 3600 + i64::from(mi) * 60 + i64::from(s) - i64::from(off) * 60
}

proptest! {
    #[test]
    fn written_form_round_trips_and_instants_match_a_reference(
        y in 0u16..=9999, m in 1u8..=12, d in 1u8..=28, h in 0u8..24, mi in 0u8..60, s in 0u8..60,
        digits in 0u8..=9, frac in 0u32..1_000_000_000, off in -1439i16..=1439,
    ) {
        let nanos = if digits == 0 { 0 } else { frac / 10u32.pow(9 - u32::from(digits)) * 10u32.pow(9 - u32::from(digits)) };
        let date = Date::new(y, m, d).expect("valid day");
        let v = DateTime::new(date, (h, mi, s), nanos, digits, off).expect("in range");
        let text = v.to_string();
        let back = DateTime::parse(&text).expect("own output parses");
        prop_assert_eq!(back.to_string(), text);
        prop_assert_eq!(back, v);
        prop_assert_eq!(back.nanosecond(), nanos);
        prop_assert_eq!(back.offset_minutes(), off);
        prop_assert_eq!(v.unix_seconds(), reference_unix(y, m, d, h, mi, s, off));
    }

    #[test]
    fn parse_never_panics(s in "\\PC{0,40}") {
        let _ = DateTime::parse(&s);
    }
}
