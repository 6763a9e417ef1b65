//! Booleans, integers, floats and strings.
use serde_json::Value;

use super::{Collector, JsonType, not_integer, out_of_range};
use crate::json::{ParseError, Path, Peek, Reader};
use crate::schema::SchemaGen;
use crate::shape::Shape;

impl JsonType for bool {
    const SHAPE: Shape = Shape::Leaf;

    #[inline]
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
    ($($t:ty => $expected:literal, $bounded:literal;)*) => {$(
        impl JsonType for $t {
            const SHAPE: Shape = Shape::Leaf;

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
                            // `-0`; any other float here is an integer too big for 64 bits.
                            crate::json::NumberValue::F64(0.0) => Some(0),
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
                let mut s = serde_json::json!({ "type": "integer" });
                // The type's own range, where it is narrower than 64 bits
                // (unsigned types always say `minimum: 0`).
                if <$t>::MIN != 0 && $bounded {
                    s["minimum"] = Value::from(<$t>::MIN);
                } else if <$t>::MIN == 0 {
                    s["minimum"] = Value::from(0);
                }
                if $bounded {
                    s["maximum"] = Value::from(<$t>::MAX);
                }
                s
            }
        }
    )*};
}

integer_field! {
    u8 => "an integer from 0 to 255", true;
    u16 => "an integer from 0 to 65535", true;
    u32 => "an integer from 0 to 4294967295", true;
    u64 => "a non-negative 64-bit integer", false;
    usize => "a non-negative 64-bit integer", false;
    i8 => "an integer from -128 to 127", true;
    i16 => "an integer from -32768 to 32767", true;
    i32 => "an integer from -2147483648 to 2147483647", true;
    i64 => "a 64-bit integer", false;
    isize => "a 64-bit integer", false;
}

impl JsonType for f64 {
    const SHAPE: Shape = Shape::Leaf;

    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
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

impl JsonType for f32 {
    const SHAPE: Shape = Shape::Leaf;

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
            "the number does not fit a 32-bit float",
            "a 32-bit float",
        )
    }
}

impl JsonType for String {
    const SHAPE: Shape = Shape::Leaf;

    #[inline]
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
