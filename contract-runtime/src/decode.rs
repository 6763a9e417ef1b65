//! The decoding engine behind `from_json`: one pass over the text with the
//! strict [`Reader`], no `serde_json::Value` built first.
//!
//! Why a purpose-built scanner: a wrong type must not stop the pass (every
//! error of the document is collected), keys must be compared after
//! unescaping, duplicate keys must be caught at any depth, and numbers must
//! keep "written as an integer" apart from "written with a fraction". A pull
//! scanner driven by generated code does all of this in the same pass that
//! builds the value: a field bitset finds missing and duplicate keys, and a
//! value of the wrong type is skipped (still checked strictly) while the
//! error is recorded. It also keeps the engine behind one module: generated
//! code sees only [`Field`], [`Reader`] and [`Cx`].
use std::collections::BTreeMap;

use serde_json::Value;

use crate::error::{Error, MAX_ERRORS, Stage};
use crate::json::{ParseError, Path, Peek, Reader};
use crate::outcome::Violation;
use crate::schema::SchemaGen;
use crate::shape::Shape;

/// What one decode collects: errors (capped), and review reasons from
/// quarantined fields.
#[derive(Debug, Default)]
pub struct Cx {
    errors: Vec<Error>,
    omitted: usize,
    /// Structural errors recorded so far, kept or not (`is_structural`).
    structural: usize,
    reviews: Vec<Violation>,
}

/// A point in a decode ([`Cx::mark`]), to ask what was found after it.
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    errors: usize,
    structural: usize,
}

// A structural error says the document does not have the declared shape: a
// value of the wrong JSON type (the schema's `type`, which also refuses `7.0`
// for an integer), a key that is missing or unknown. Quarantine never absorbs
// one. Every other schema error is a value failure (a bound, a length,
// `equals`, `one_of`, a date, a number the Rust type cannot hold): the value
// has the right type and a wrong content. A duplicate key is a parse error,
// which ends the decode before quarantine is asked.
fn is_structural(stage: Stage, code: &str) -> bool {
    stage == Stage::Schema && matches!(code, "invalid_type" | "missing_key" | "unknown_key")
}

impl Cx {
    /// An empty context.
    pub fn new() -> Self {
        Cx::default()
    }

    /// Records an error at `path`.
    #[cold]
    #[inline(never)]
    pub fn error(
        &mut self,
        stage: Stage,
        path: &Path<'_>,
        code: &'static str,
        message: impl Into<std::borrow::Cow<'static, str>>,
        expected: &'static str,
    ) {
        self.structural += usize::from(is_structural(stage, code));
        if self.errors.len() >= MAX_ERRORS {
            self.omitted += 1;
            return;
        }
        if self.errors.capacity() == 0 {
            // A document with one error usually has a few: grow once.
            self.errors.reserve(8);
        }
        self.errors
            .push(Error::new(stage, path.to_pointer(), code, message).with_expected(expected));
    }

    /// Records a ready-made error.
    #[cold]
    pub fn push(&mut self, error: Error) {
        self.structural += usize::from(is_structural(error.stage, error.code));
        if self.errors.len() >= MAX_ERRORS {
            self.omitted += 1;
        } else {
            self.errors.push(error);
        }
    }

    /// How many errors were found so far (kept or not).
    #[inline]
    pub fn error_count(&self) -> usize {
        self.errors.len() + self.omitted
    }

    /// Whether no error was found.
    #[inline]
    pub fn is_clean(&self) -> bool {
        self.errors.is_empty() && self.omitted == 0
    }

    /// The current point, for [`Cx::failed_since`] and
    /// [`Cx::quarantine_since`].
    #[inline]
    pub fn mark(&self) -> Mark {
        Mark {
            errors: self.error_count(),
            structural: self.structural,
        }
    }

    /// Whether an error was found since `mark`.
    #[inline]
    pub fn failed_since(&self, mark: Mark) -> bool {
        self.error_count() != mark.errors
    }

    /// Turns the errors found since `mark` into review reasons, if every
    /// one of them is a value failure; `true` if it did. A structural error
    /// since `mark` (a wrong JSON type, a missing or unknown key, at any
    /// depth below the field) leaves every error in place: the document
    /// does not have the declared shape, and is rejected.
    pub fn quarantine_since(&mut self, mark: Mark) -> bool {
        if !self.failed_since(mark) || self.structural != mark.structural {
            return false;
        }
        let keep = mark.errors.min(self.errors.len());
        for e in self.errors.drain(keep..) {
            self.reviews.push(Violation::review(
                &e.pointer,
                e.code,
                e.message.into_owned(),
            ));
        }
        self.omitted = mark.errors.saturating_sub(keep);
        true
    }

    /// Adds a review reason.
    pub fn review(&mut self, reason: Violation) {
        self.reviews.push(reason);
    }

    /// The errors and review reasons.
    pub fn finish(self) -> (Vec<Error>, usize, Vec<Violation>) {
        (self.errors, self.omitted, self.reviews)
    }
}

/// A type that can be a field of a contract: how it is decoded, encoded,
/// described in a schema, and navigated by an edit pointer.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a contract type",
    label = "not a supported field type",
    note = "derive `Contract` for it, or use bool, an integer, f32/f64, String, Date, Option, Vec or BTreeMap<String, T>"
)]
pub trait Field: Sized {
    /// The type's shape, for resolving edit pointers at compile time.
    const SHAPE: Shape;

    /// Reads one value at `path`. `Ok(None)` means a schema error was
    /// recorded in `cx` (the value was skipped); `Err` is a parse error,
    /// which ends the decode.
    fn decode(r: &mut Reader<'_>, path: &Path<'_>, cx: &mut Cx)
    -> Result<Option<Self>, ParseError>;

    /// The value as JSON.
    fn encode(&self) -> Value;

    /// The JSON Schema of the type (nested contracts go to `defs`'s `$defs`).
    fn schema(defs: &mut SchemaGen) -> Value;

    /// Runs the cross-field rules of nested contracts.
    #[inline]
    fn rules(&self, _path: &Path<'_>, _cx: &mut Cx) {}
}

/// Wrong-type messages for one expectation, one per JSON type found, fixed
/// at compile time so that recording the error allocates only its pointer.
#[derive(Debug)]
pub struct TypeMessages {
    /// What was expected ("a string").
    pub expected: &'static str,
    /// "expected X, found object", "… array", "… string", "… number",
    /// "… boolean", "… null".
    pub found: [&'static str; 6],
}

impl TypeMessages {
    fn message(&self, found: Peek) -> &'static str {
        let i = match found {
            Peek::Object => 0,
            Peek::Array => 1,
            Peek::String => 2,
            Peek::Number => 3,
            Peek::True | Peek::False => 4,
            Peek::Null => 5,
        };
        self.found[i]
    }
}

/// Builds a [`TypeMessages`] from a literal expectation.
#[macro_export]
#[doc(hidden)]
macro_rules! __type_messages {
    ($expected:literal) => {
        $crate::decode::TypeMessages {
            expected: $expected,
            found: [
                concat!("expected ", $expected, ", found object"),
                concat!("expected ", $expected, ", found array"),
                concat!("expected ", $expected, ", found string"),
                concat!("expected ", $expected, ", found number"),
                concat!("expected ", $expected, ", found boolean"),
                concat!("expected ", $expected, ", found null"),
            ],
        }
    };
}

static OBJECT: TypeMessages = crate::__type_messages!("an object");

// Records a wrong-type error with messages fixed at compile time.
macro_rules! wrong_type {
    ($r:expr, $path:expr, $cx:expr, $expected:literal, $found:expr) => {{
        static MESSAGES: TypeMessages = crate::__type_messages!($expected);
        invalid_type_of($r, $path, $cx, &MESSAGES, $found)
    }};
}

/// Records a wrong-type error and skips the value.
#[cold]
#[inline(never)]
pub fn invalid_type<T>(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
    expected: &'static str,
    found: Peek,
) -> Result<Option<T>, ParseError> {
    if expected == OBJECT.expected {
        return invalid_type_of(r, path, cx, &OBJECT, found);
    }
    // Past the cap the error is only counted: build no message for it.
    let message = if cx.errors.len() >= MAX_ERRORS {
        std::borrow::Cow::Borrowed("")
    } else {
        std::borrow::Cow::Owned(format!("expected {expected}, found {}", found.type_name()))
    };
    cx.error(Stage::Schema, path, "invalid_type", message, expected);
    r.skip_value(path)?;
    Ok(None)
}

/// [`invalid_type`] with messages fixed at compile time.
#[cold]
#[inline(never)]
pub fn invalid_type_of<T>(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Cx,
    messages: &'static TypeMessages,
    found: Peek,
) -> Result<Option<T>, ParseError> {
    cx.error(
        Stage::Schema,
        path,
        "invalid_type",
        messages.message(found),
        messages.expected,
    );
    r.skip_value(path)?;
    Ok(None)
}

#[cold]
#[inline(never)]
fn out_of_range<T>(
    path: &Path<'_>,
    cx: &mut Cx,
    message: &'static str,
    expected: &'static str,
) -> Option<T> {
    cx.error(Stage::Schema, path, "out_of_range", message, expected);
    None
}

#[cold]
#[inline(never)]
fn not_integer<T>(path: &Path<'_>, cx: &mut Cx, expected: &'static str) -> Option<T> {
    cx.error(
        Stage::Schema,
        path,
        "invalid_type",
        "expected an integer, found a number written with a fraction or exponent",
        expected,
    );
    None
}

impl Field for bool {
    const SHAPE: Shape = Shape::Leaf;

    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::True | Peek::False => r.read_bool().map(Some),
            other => wrong_type!(r, path, cx, "a boolean", other),
        }
    }

    fn encode(&self) -> Value {
        Value::Bool(*self)
    }

    fn schema(_gen: &mut SchemaGen) -> Value {
        serde_json::json!({ "type": "boolean" })
    }
}

macro_rules! integer_field {
    ($($t:ty => $expected:literal;)*) => {$(
        impl Field for $t {
            const SHAPE: Shape = Shape::Leaf;

            #[inline]
            fn decode(r: &mut Reader<'_>, path: &Path<'_>, cx: &mut Cx) -> Result<Option<Self>, ParseError> {
                match r.peek()? {
                    Peek::Number => {
                        let n = r.read_number()?;
                        if !n.integer_syntax {
                            return Ok(not_integer(path, cx, $expected));
                        }
                        let v = match n.value {
                            crate::json::NumberValue::U64(v) => <$t>::try_from(v).ok(),
                            crate::json::NumberValue::I64(v) => <$t>::try_from(v).ok(),
                            // An integer beyond 64 bits.
                            crate::json::NumberValue::F64(_) => None,
                        };
                        Ok(match v {
                            Some(v) => Some(v),
                            None => out_of_range(
                                path,
                                cx,
                                concat!("the number does not fit ", $expected),
                                $expected,
                            ),
                        })
                    }
                    other => wrong_type!(r, path, cx, $expected, other),
                }
            }

            fn encode(&self) -> Value {
                Value::from(*self)
            }

            fn schema(_gen: &mut SchemaGen) -> Value {
                // The type's own range, 64-bit types included, as exact
                // integers (`Value` holds any `u64` or `i64` exactly); a
                // field's `min`/`max`, always within it, replaces a bound.
                serde_json::json!({
                    "type": "integer",
                    "minimum": <$t>::MIN,
                    "maximum": <$t>::MAX,
                })
            }
        }
    )*};
}

integer_field! {
    u8 => "an integer from 0 to 255";
    u16 => "an integer from 0 to 65535";
    u32 => "an integer from 0 to 4294967295";
    u64 => "a non-negative 64-bit integer";
    usize => "a non-negative 64-bit integer";
    i8 => "an integer from -128 to 127";
    i16 => "an integer from -32768 to 32767";
    i32 => "an integer from -2147483648 to 2147483647";
    i64 => "a 64-bit integer";
    isize => "a 64-bit integer";
}

impl Field for f64 {
    const SHAPE: Shape = Shape::Leaf;

    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::Number => Ok(Some(r.read_number()?.as_f64())),
            other => wrong_type!(r, path, cx, "a number", other),
        }
    }

    fn encode(&self) -> Value {
        Value::from(*self)
    }

    fn schema(_gen: &mut SchemaGen) -> Value {
        serde_json::json!({ "type": "number" })
    }
}

impl Field for f32 {
    const SHAPE: Shape = Shape::Leaf;

    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Result<Option<Self>, ParseError> {
        Ok(match f64::decode(r, path, cx)? {
            Some(v) => narrow_f32(v, path, cx),
            None => None,
        })
    }

    fn encode(&self) -> Value {
        Value::from(*self)
    }

    fn schema(defs: &mut SchemaGen) -> Value {
        f64::schema(defs)
    }
}

/// Narrows an f64 read from the document to `f32`; a value beyond `f32`'s
/// range is an `out_of_range` error.
#[inline]
pub fn narrow_f32(value: f64, path: &Path<'_>, cx: &mut Cx) -> Option<f32> {
    let narrow = value as f32;
    if narrow.is_finite() {
        Some(narrow)
    } else {
        out_of_range(
            path,
            cx,
            "the number does not fit a 32-bit float",
            "a 32-bit float",
        )
    }
}

impl Field for String {
    const SHAPE: Shape = Shape::Leaf;

    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::String => r.read_string().map(Some),
            other => wrong_type!(r, path, cx, "a string", other),
        }
    }

    fn encode(&self) -> Value {
        Value::String(self.clone())
    }

    fn schema(_gen: &mut SchemaGen) -> Value {
        serde_json::json!({ "type": "string" })
    }
}

impl<T: Field> Field for Option<T> {
    const SHAPE: Shape = T::SHAPE;

    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::Null => r.read_null().map(|()| Some(None)),
            _ => T::decode(r, path, cx).map(|v| v.map(Some)),
        }
    }

    fn encode(&self) -> Value {
        match self {
            Some(v) => v.encode(),
            None => Value::Null,
        }
    }

    fn schema(defs: &mut SchemaGen) -> Value {
        crate::schema::nullable(T::schema(defs))
    }

    #[inline]
    fn rules(&self, path: &Path<'_>, cx: &mut Cx) {
        if let Some(v) = self {
            v.rules(path, cx);
        }
    }
}

impl<T: Field> Field for Vec<T> {
    const SHAPE: Shape = Shape::Array;

    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::Array => {
                let mut items = Vec::new();
                let mut ok = true;
                let mut index = 0;
                let mut more = r.begin_array()?;
                while more {
                    match T::decode(r, &path.index(index), cx)? {
                        Some(v) if ok => items.push(v),
                        Some(_) => {}
                        None => ok = false,
                    }
                    index += 1;
                    more = r.array_more()?;
                }
                Ok(ok.then_some(items))
            }
            other => wrong_type!(r, path, cx, "an array", other),
        }
    }

    fn encode(&self) -> Value {
        Value::Array(self.iter().map(Field::encode).collect())
    }

    fn schema(defs: &mut SchemaGen) -> Value {
        serde_json::json!({ "type": "array", "items": T::schema(defs) })
    }

    fn rules(&self, path: &Path<'_>, cx: &mut Cx) {
        for (i, v) in self.iter().enumerate() {
            v.rules(&path.index(i), cx);
        }
    }
}

impl<T: Field> Field for BTreeMap<String, T> {
    const SHAPE: Shape = Shape::Map;

    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::Object => {
                let mut map = BTreeMap::new();
                // Keys whose value failed, kept for duplicate detection.
                let mut failed = std::collections::BTreeSet::new();
                let mut more = r.begin_object()?;
                while more {
                    let at = r.offset();
                    let key = r.read_key()?.to_owned();
                    if map.contains_key(&key) || failed.contains(&key) {
                        return Err(crate::json::duplicate_key(at, path, &key));
                    }
                    match T::decode(r, &path.key(&key), cx)? {
                        Some(v) => {
                            map.insert(key, v);
                        }
                        None => {
                            failed.insert(key);
                        }
                    }
                    more = r.object_more()?;
                }
                Ok(failed.is_empty().then_some(map))
            }
            other => invalid_type_of(r, path, cx, &OBJECT, other),
        }
    }

    fn encode(&self) -> Value {
        Value::Object(self.iter().map(|(k, v)| (k.clone(), v.encode())).collect())
    }

    fn schema(defs: &mut SchemaGen) -> Value {
        serde_json::json!({ "type": "object", "additionalProperties": T::schema(defs) })
    }

    fn rules(&self, path: &Path<'_>, cx: &mut Cx) {
        for (k, v) in self {
            v.rules(&path.key(k), cx);
        }
    }
}

impl Field for crate::date::Date {
    const SHAPE: Shape = Shape::Leaf;

    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Cx,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::String => match crate::date::Date::parse(r.read_str_ref()?) {
                Ok(d) => Ok(Some(d)),
                Err(e) => {
                    cx.error(
                        Stage::Schema,
                        path,
                        "invalid_date",
                        e.message(),
                        "a date as YYYY-MM-DD",
                    );
                    Ok(None)
                }
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

// The date types users already hold, decoded with the same strict rule as
// `Date` (exactly `YYYY-MM-DD`, calendar-valid) and converted.
macro_rules! foreign_date_field {
    ($feature:literal, $ty:ty) => {
        #[cfg(feature = $feature)]
        impl Field for $ty {
            const SHAPE: Shape = Shape::Leaf;

            #[inline]
            fn decode(
                r: &mut Reader<'_>,
                path: &Path<'_>,
                cx: &mut Cx,
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
        assert!(bad.errors.iter().all(|e| e.code == "invalid_date"));
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
        assert_eq!(bad.errors[0].code, "invalid_date");
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
        assert_eq!(bad.errors[0].code, "invalid_date");
    }
}
