//! Booleans, integers, floats and strings.
use serde_json::Value;

use super::{Collector, JsonType, not_integer, out_of_range};
use crate::describe::{Float, Int, Type};
use crate::json::{ParseError, Path, Peek, Reader};
use crate::schema::SchemaGen;
use crate::shape::Shape;

impl JsonType for bool {
    const SHAPE: Shape = Shape::Leaf;
    const TYPE: Type = Type::Bool;

    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
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
    ($($t:ty, $kind:expr => $expected:literal;)*) => {$(
        impl JsonType for $t {
            const SHAPE: Shape = Shape::Leaf;
            const TYPE: Type = Type::Int($kind);

            #[inline]
            fn decode(r: &mut Reader<'_>, path: &Path<'_>, cx: &mut Collector) -> Result<Option<Self>, ParseError> {
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
                                concat!("expected ", $expected, ", found a number outside that range"),
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

// `usize` and `isize` as the integer kinds of their width.
const POINTER_WIDE: (Int, Int) = match usize::BITS {
    16 => (Int::U16, Int::I16),
    32 => (Int::U32, Int::I32),
    _ => (Int::U64, Int::I64),
};

integer_field! {
    u8, Int::U8 => "an integer from 0 to 255";
    u16, Int::U16 => "an integer from 0 to 65535";
    u32, Int::U32 => "an integer from 0 to 4294967295";
    u64, Int::U64 => "a non-negative 64-bit integer";
    usize, POINTER_WIDE.0 => "a non-negative 64-bit integer";
    i8, Int::I8 => "an integer from -128 to 127";
    i16, Int::I16 => "an integer from -32768 to 32767";
    i32, Int::I32 => "an integer from -2147483648 to 2147483647";
    i64, Int::I64 => "a 64-bit integer";
    isize, POINTER_WIDE.1 => "a 64-bit integer";
}

impl JsonType for f64 {
    const SHAPE: Shape = Shape::Leaf;
    const TYPE: Type = Type::Float(Float::F64);

    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::Number => r.read_float().map(Some),
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

impl JsonType for f32 {
    const SHAPE: Shape = Shape::Leaf;
    const TYPE: Type = Type::Float(Float::F32);

    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
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
pub fn narrow_f32(value: f64, path: &Path<'_>, cx: &mut Collector) -> Option<f32> {
    let narrow = value as f32;
    if narrow.is_finite() {
        Some(narrow)
    } else {
        out_of_range(
            path,
            cx,
            "expected a 32-bit float, found a number outside its range",
            "a 32-bit float",
        )
    }
}

impl JsonType for String {
    const SHAPE: Shape = Shape::Leaf;
    const TYPE: Type = Type::String;

    // Always inlined in release, as the member functions that call it: a
    // call of its own cost about a tenth of a short string's decode.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
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
