//! The strict `YYYY-MM-DD` rule, calendar validity and conversions.
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

// The decoder's word-at-a-time read agrees with the byte-by-byte parse:
// every year, month and day written (00–99 each, every year that decides
// a leap day), and every byte value at every place of a valid date.
#[test]
fn the_ten_byte_read_agrees_with_parse() {
    let agree = |b: [u8; 10]| {
        assert_eq!(
            Date::from_ten(&b),
            Date::parse_ascii(&b).ok(),
            "{:?}",
            String::from_utf8_lossy(&b)
        );
    };
    for y in (0..=9999u32).filter(|y| y % 4 == 0 || y % 97 == 1 || *y < 30) {
        for m in 0..=99u32 {
            for d in [0, 1, 9, 10, 19, 28, 29, 30, 31, 32, 39, 40, 99] {
                let text = format!("{y:04}-{m:02}-{d:02}");
                let Ok(b) = <[u8; 10]>::try_from(text.as_bytes()) else {
                    panic!("ten bytes: {text}");
                };
                agree(b);
            }
        }
    }
    for at in 0..10 {
        for byte in 0..=255u8 {
            for base in [
                *b"2024-02-29",
                *b"9999-12-31",
                *b"0000-01-01",
                *b"2027-11-30",
            ] {
                let mut b = base;
                b[at] = byte;
                agree(b);
            }
        }
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
