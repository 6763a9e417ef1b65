//! `Option`, `Box`, `Vec` and `BTreeMap<String, T>`: the value types around
//! other values. `Box`, `Vec` and `BTreeMap` are the indirections a
//! recursive contract needs, so each of them decodes, encodes and checks
//! its content with room on the stack ([`crate::stack`]): a recursive
//! contract of any size fits any stack at any depth `max_depth` allows.
use std::collections::BTreeMap;

use serde_json::Value;

use super::{Collector, JsonType, OBJECT, invalid_type_of};
use crate::describe::Type;
use crate::json::{ParseError, Path, Peek, Reader};
use crate::schema::SchemaGen;
use crate::shape::Shape;
use crate::stack::{with_room, with_room_at};

impl<T: JsonType> JsonType for Option<T> {
    const SHAPE: Shape = T::SHAPE;
    const TYPE: Type = Type::Option(&T::TYPE);

    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
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
    fn rules(&self, path: &Path<'_>, cx: &mut Collector) {
        if let Some(v) = self {
            v.rules(path, cx);
        }
    }
}

// A boxed value is its inner value's JSON. Its shape is opaque (`Boxed`):
// following the inner type's shape would make a recursive type's `SHAPE`
// a cycle, which rustc refuses to evaluate.
impl<T: JsonType> JsonType for Box<T> {
    const SHAPE: Shape = Shape::Boxed;
    const TYPE: Type = Type::Boxed(&T::TYPE);

    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        with_room_at(r.depth(), || {
            T::decode(r, path, cx).map(|v| v.map(Box::new))
        })
    }

    fn encode(&self) -> Value {
        with_room(|| T::encode(self))
    }

    fn schema(defs: &mut SchemaGen) -> Value {
        T::schema(defs)
    }

    #[inline]
    fn rules(&self, path: &Path<'_>, cx: &mut Collector) {
        with_room(|| T::rules(self, path, cx));
    }
}

/// An array as [`read_items`] read it.
pub(crate) struct Items<T> {
    /// Every item, if every item was valid.
    pub(crate) valid: Option<Vec<T>>,
    /// How many items the array had, valid or not.
    pub(crate) len: usize,
}

/// Reads an array of `T`, each item at its own pointer, and hands every
/// valid item to `each` as soon as it is read; `None` if the value is not
/// an array (its `invalid_type` recorded, the value skipped). An item that
/// fails does not end the reading: every item is read and checked, so the
/// array's errors come in the order of the text, and its length is known
/// for the array's own checks.
#[inline]
pub(crate) fn read_items<T: JsonType>(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Collector,
    each: impl FnMut(&T, &Path<'_>, &mut Collector) + Send,
) -> Result<Option<Items<T>>, ParseError> {
    read_items_with(r, path, cx, T::decode, each)
}

/// [`read_items`] with each item read by `decode` (a borrowing decode
/// passes its own).
#[inline]
pub(crate) fn read_items_with<'de, T: Send>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    cx: &mut Collector,
    decode: impl Fn(&mut Reader<'de>, &Path<'_>, &mut Collector) -> Result<Option<T>, ParseError> + Sync,
    mut each: impl FnMut(&T, &Path<'_>, &mut Collector) + Send,
) -> Result<Option<Items<T>>, ParseError> {
    match r.peek()? {
        Peek::Array => with_room_at(r.depth(), || {
            let mut ok = true;
            let mut index = 0;
            let mut more = r.begin_array()?;
            // A first capacity where the first push would grow to it
            // anyway (the standard library's smallest, 4 items, or 1
            // of a large item): the same allocation, without the call
            // that grows from empty. An empty array allocates nothing.
            let mut items = if more {
                Vec::with_capacity(if size_of::<T>() <= 1024 { 4 } else { 1 })
            } else {
                Vec::new()
            };
            while more {
                let at = path.index(index);
                match decode(r, &at, cx)? {
                    Some(v) => {
                        each(&v, &at, cx);
                        if ok {
                            items.push(v);
                        }
                    }
                    None => ok = false,
                }
                index += 1;
                more = r.array_more()?;
            }
            Ok(Some(Items {
                valid: ok.then_some(items),
                len: index,
            }))
        }),
        other => wrong_type!(r, path, cx, "an array", other),
    }
}

impl<T: JsonType> JsonType for Vec<T> {
    const SHAPE: Shape = Shape::Array;
    const TYPE: Type = Type::Array(&T::TYPE);

    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        Ok(
            read_items(r, path, cx, |_: &T, _: &Path<'_>, _: &mut Collector| {})?
                .and_then(|items| items.valid),
        )
    }

    fn encode(&self) -> Value {
        with_room(|| Value::Array(self.iter().map(JsonType::encode).collect()))
    }

    fn schema(defs: &mut SchemaGen) -> Value {
        serde_json::json!({ "type": "array", "items": T::schema(defs) })
    }

    fn rules(&self, path: &Path<'_>, cx: &mut Collector) {
        with_room(|| {
            for (i, v) in self.iter().enumerate() {
                v.rules(&path.index(i), cx);
            }
        });
    }
}

impl<T: JsonType> JsonType for BTreeMap<String, T> {
    const SHAPE: Shape = Shape::Map;
    const TYPE: Type = Type::Map(&T::TYPE);

    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::Object => with_room_at(r.depth(), || {
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
            }),
            other => invalid_type_of(r, path, cx, &OBJECT, other),
        }
    }

    fn encode(&self) -> Value {
        with_room(|| Value::Object(self.iter().map(|(k, v)| (k.clone(), v.encode())).collect()))
    }

    fn schema(defs: &mut SchemaGen) -> Value {
        serde_json::json!({ "type": "object", "additionalProperties": T::schema(defs) })
    }

    fn rules(&self, path: &Path<'_>, cx: &mut Collector) {
        with_room(|| {
            for (k, v) in self {
                v.rules(&path.key(k), cx);
            }
        });
    }
}
