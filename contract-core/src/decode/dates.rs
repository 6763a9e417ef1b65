//! [`Date`](crate::Date), [`DateTime`](crate::DateTime) and, behind
//! features, the foreign date types decoded with the same strict rule.
use serde_json::Value;

use super::{Collector, JsonType};
use crate::code;
use crate::error::Stage;
use crate::json::{ParseError, Path, Peek, Reader};
use crate::schema::SchemaGen;
use crate::shape::Shape;

// A date string's parse result; a failure is recorded as `code` at `path`.
#[inline]
fn parsed<T>(
    result: Result<T, &'static str>,
    path: &Path<'_>,
    cx: &mut Collector,
    code: &'static str,
    expected: &'static str,
) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(message) => {
            cx.error(Stage::Schema, path, code, message, expected);
            None
        }
    }
}

impl JsonType for crate::date::Date {
    const SHAPE: Shape = Shape::Leaf;
    const TYPE: crate::describe::Type = crate::describe::Type::Date;

    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            // A date as a model writes it: its ten bytes read in place.
            Peek::String => match r.read_fixed(crate::date::Date::from_ten) {
                Some(date) => Ok(Some(date)),
                None => Ok(parsed(
                    crate::date::Date::parse(r.read_str_ref()?).map_err(|e| e.message()),
                    path,
                    cx,
                    code::INVALID_DATE,
                    "a date as YYYY-MM-DD",
                )),
            },
            other => wrong_type!(r, path, cx, "a date string (YYYY-MM-DD)", other),
        }
    }

    fn encode(&self) -> Value {
        Value::String(self.to_string())
    }

    fn schema(_gen: &mut SchemaGen) -> Value {
        serde_json::json!({
            "type": "string",
            "format": "date",
            "pattern": crate::date::Date::PATTERN,
        })
    }
}

impl JsonType for crate::date::DateTime {
    const SHAPE: Shape = Shape::Leaf;
    const TYPE: crate::describe::Type = crate::describe::Type::DateTime;

    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::String => Ok(parsed(
                crate::date::DateTime::parse(r.read_str_ref()?).map_err(|e| e.message()),
                path,
                cx,
                code::INVALID_DATE_TIME,
                "an RFC 3339 date-time with an offset, as YYYY-MM-DDTHH:MM:SSZ",
            )),
            other => wrong_type!(r, path, cx, "a date-time string (RFC 3339)", other),
        }
    }

    fn encode(&self) -> Value {
        Value::String(self.to_string())
    }

    fn schema(_gen: &mut SchemaGen) -> Value {
        serde_json::json!({ "type": "string", "format": "date-time" })
    }
}

// The date types users already hold, decoded with the same strict rule as
// `Date` (exactly `YYYY-MM-DD`, calendar-valid) and converted.
macro_rules! foreign_date_field {
    ($feature:literal, $ty:ty) => {
        #[cfg(feature = $feature)]
        #[cfg_attr(docsrs, doc(cfg(feature = $feature)))]
        impl JsonType for $ty {
            const SHAPE: Shape = Shape::Leaf;
            const TYPE: crate::describe::Type = crate::describe::Type::Date;

            #[inline]
            fn decode(
                r: &mut Reader<'_>,
                path: &Path<'_>,
                cx: &mut Collector,
            ) -> Result<Option<Self>, ParseError> {
                crate::date::Date::decode(r, path, cx).map(|d| d.map(<$ty>::from))
            }

            fn encode(&self) -> Value {
                match crate::date::Date::try_from(*self) {
                    Ok(d) => d.encode(),
                    // Outside 0000–9999: not a value the contract accepts,
                    // written the library's way rather than panicking.
                    Err(_) => Value::String(self.to_string()),
                }
            }

            fn schema(defs: &mut SchemaGen) -> Value {
                crate::date::Date::schema(defs)
            }
        }
    };
}

foreign_date_field!("chrono", chrono::NaiveDate);
foreign_date_field!("jiff", jiff::civil::Date);
foreign_date_field!("time", time::Date);

#[cfg(test)]
mod foreign_date_tests {
    #[cfg(feature = "chrono")]
    #[test]
    fn chrono_dates_decode_strictly_and_order() {
        use crate::Contract;

        #[derive(crate::Contract, Debug)]
        #[contract(order(start <= end))]
        struct Span {
            start: chrono::NaiveDate,
            end: Option<chrono::NaiveDate>,
        }

        let ok = Span::from_json(r#"{"start":"2024-02-29","end":"2024-03-01"}"#).unwrap();
        assert_eq!(
            ok.start,
            chrono::NaiveDate::from_ymd_opt(2024, 2, 29).unwrap()
        );
        let bad = Span::from_json(r#"{"start":"2027-02-29","end":"2027-6-1"}"#).unwrap_err();
        assert_eq!(bad.pointers(), ["/start", "/end"]);
        assert!(
            bad.errors
                .iter()
                .all(|e| e.code == crate::code::INVALID_DATE)
        );
        let order = Span::from_json(r#"{"start":"2024-03-02","end":"2024-03-01"}"#).unwrap_err();
        assert_eq!(order.errors[0].code, "order");
        assert_eq!(ok.to_json()["start"], "2024-02-29");
    }

    #[cfg(feature = "jiff")]
    #[test]
    fn jiff_dates_decode_strictly() {
        use crate::Contract;

        #[derive(crate::Contract, Debug)]
        struct Day {
            day: jiff::civil::Date,
        }

        let ok = Day::from_json(r#"{"day":"2027-06-12"}"#).unwrap();
        assert_eq!(ok.day, jiff::civil::date(2027, 6, 12));
        let bad = Day::from_json(r#"{"day":"2027-06-12T00:00:00"}"#).unwrap_err();
        assert_eq!(bad.errors[0].code, crate::code::INVALID_DATE);
    }

    #[cfg(feature = "time")]
    #[test]
    fn time_dates_decode_strictly() {
        use crate::Contract;

        #[derive(crate::Contract, Debug)]
        struct Day {
            day: time::Date,
        }

        let ok = Day::from_json(r#"{"day":"2027-06-12"}"#).unwrap();
        assert_eq!(ok.day.to_string(), "2027-06-12");
        let bad = Day::from_json(r#"{"day":" 2027-06-12"}"#).unwrap_err();
        assert_eq!(bad.errors[0].code, crate::code::INVALID_DATE);
    }
}
