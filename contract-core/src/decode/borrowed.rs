//! Borrowed strings: `&'de str` and `Cow<'de, str>` fields, read from the
//! text they borrow from by [`BorrowDecode`], the decoder of a contract
//! with a lifetime (`struct Invoice<'a>`).
//!
//! The reader gives a string without escapes as a slice of the input
//! (`Reader::read_str`): a `Cow` field borrows it, and owns only a string
//! with escapes; a `&str` field cannot hold such a string, which is a
//! `borrowed_string` error at the value (a value failure, as a length is:
//! `quarantine` absorbs it), telling the declaration to use `Cow<'a, str>`
//! (serde's "invalid type: string, expected a borrowed string").
//!
//! Through [`JsonType`] (a text the value does not borrow: a stream's own,
//! the contract's `'static` form), a `Cow` is always
//! [`Cow::Owned`], and a `&str` field's string is that same error.
//! Encoding, schema and shape are a `String`'s; a `&str`'s description is
//! `Type::Any` (a stream decides nothing early about it).
use std::borrow::Cow;

use serde_json::Value;

use super::bounds::{Check, Checkable, check_item_count};
use super::collections::{Items, read_items_with};
use super::member::{Slot, read_member};
use super::{Collector, JsonType, field_error};
use crate::code;
use crate::describe::Type;
use crate::json::{ParseError, Path, Peek, Reader};
use crate::json_type::{ObjectMembers, TagSeen};
use crate::schema::SchemaGen;
use crate::shape::Shape;
use crate::stack::with_room_at;

/// A field type read from a text of lifetime `'de` that it may borrow
/// from: `&'de str`, `Cow<'de, str>`, `Option`, `Vec` and `Box` of such
/// types, and contracts with a lifetime (the derive implements it for
/// them). A borrowed contract's other fields are read through [`JsonType`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read borrowing from the text",
    label = "not a borrowed field type",
    note = "a field that borrows is `&'a str`, `Cow<'a, str>`, a contract with a lifetime, or an `Option`, `Vec` or `Box` of one (a `BTreeMap` owns its values: use `String` there)"
)]
pub trait BorrowDecode<'de>: JsonType {
    /// Reads one value at `path`, borrowing from the text; as
    /// [`JsonType::decode`] otherwise.
    fn decode_borrowed(
        r: &mut Reader<'de>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError>;
}

/// A contract struct with a lifetime, whose members sit beside a tagged
/// union's tag in a newtype variant: [`ObjectMembers::decode_members`]
/// borrowing from the text.
pub trait BorrowMembers<'de>: ObjectMembers {
    /// [`ObjectMembers::decode_members`], borrowing from the text.
    fn decode_members_borrowed(
        r: &mut Reader<'de>,
        path: &Path<'_>,
        cx: &mut Collector,
        more: bool,
        tag: Option<&str>,
        tag_seen: &mut TagSeen,
    ) -> Result<Option<Self>, ParseError>;
}

const BORROWED_EXPECTED: &str = "a string without escapes";

// A string a `&str` field cannot borrow, its value already read.
#[cold]
#[inline(never)]
fn not_borrowed(path: &Path<'_>, cx: &mut Collector, message: &'static str) {
    field_error(cx, path, code::BORROWED_STRING, message, BORROWED_EXPECTED);
}

impl JsonType for &str {
    const SHAPE: Shape = Shape::Leaf;
    // A stream (what reads through `JsonType`) decides nothing early about
    // a `&str` field's value: its `finish` refuses every string there as
    // `borrowed_string`, which no early verdict of a bound or pattern may
    // stand for.
    const TYPE: Type = Type::Any;

    /// A text the value does not borrow from (a stream's own): every
    /// string is a `borrowed_string` error.
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::String => {
                r.read_str_ref()?;
                not_borrowed(
                    path,
                    cx,
                    "a `&str` field cannot borrow from this text (only `from_json`, `check` and `check_with` of a contract with a lifetime lend theirs): declare the field `Cow<'a, str>`",
                );
                Ok(None)
            }
            other => wrong_type!(r, path, cx, "a string", other),
        }
    }

    fn encode(&self) -> Value {
        Value::String((*self).to_owned())
    }

    fn schema(defs: &mut SchemaGen) -> Value {
        String::schema(defs)
    }
}

impl<'de> BorrowDecode<'de> for &'de str {
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn decode_borrowed(
        r: &mut Reader<'de>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::String => match r.read_borrowed_str()? {
                Some(s) => Ok(Some(s)),
                None => {
                    not_borrowed(
                        path,
                        cx,
                        "invalid type: a string with escapes, expected a borrowed string (a `&str` field borrows only a string without escapes: declare it `Cow<'a, str>`)",
                    );
                    Ok(None)
                }
            },
            other => wrong_type!(r, path, cx, "a string", other),
        }
    }
}

impl JsonType for Cow<'_, str> {
    const SHAPE: Shape = Shape::Leaf;
    const TYPE: Type = Type::String;

    /// A text the value does not borrow from: the string is owned.
    #[inline]
    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::String => r.read_string().map(|s| Some(Cow::Owned(s))),
            other => wrong_type!(r, path, cx, "a string", other),
        }
    }

    fn encode(&self) -> Value {
        Value::String(self.as_ref().to_owned())
    }

    fn schema(defs: &mut SchemaGen) -> Value {
        String::schema(defs)
    }
}

impl<'de> BorrowDecode<'de> for Cow<'de, str> {
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn decode_borrowed(
        r: &mut Reader<'de>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::String => r.read_str().map(Some),
            other => wrong_type!(r, path, cx, "a string", other),
        }
    }
}

impl<'de, T: BorrowDecode<'de>> BorrowDecode<'de> for Option<T> {
    #[inline]
    fn decode_borrowed(
        r: &mut Reader<'de>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::Null => r.read_null().map(|()| Some(None)),
            _ => T::decode_borrowed(r, path, cx).map(|v| v.map(Some)),
        }
    }
}

impl<'de, T: BorrowDecode<'de>> BorrowDecode<'de> for Box<T> {
    #[inline]
    fn decode_borrowed(
        r: &mut Reader<'de>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        with_room_at(r.depth(), || {
            T::decode_borrowed(r, path, cx).map(|v| v.map(Box::new))
        })
    }
}

impl<'de, T: BorrowDecode<'de>> BorrowDecode<'de> for Vec<T> {
    fn decode_borrowed(
        r: &mut Reader<'de>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        let items = read_items(r, path, cx, |_: &T, _: &Path<'_>, _: &mut Collector| {})?;
        Ok(items.and_then(|items| items.valid))
    }
}

// An array of `T` borrowing from the text: `collections.rs`'s reading, with
// each item read by `T::decode_borrowed`.
#[inline]
fn read_items<'de, T: BorrowDecode<'de>>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    cx: &mut Collector,
    each: impl FnMut(&T, &Path<'_>, &mut Collector) + Send,
) -> Result<Option<Items<T>>, ParseError> {
    read_items_with(r, path, cx, T::decode_borrowed, each)
}

/// An array field that borrows (`Vec<T>`, `Option<Vec<T>>` of a
/// [`BorrowDecode`] item), read with its checks as
/// [`ArrayField`](super::ArrayField) reads an owned one.
pub trait BorrowArray<'de>: Sized {
    /// The type of its items.
    type Item: BorrowDecode<'de>;

    /// Reads the value, handing each valid item to `each`, and runs the
    /// length checks of `checks` on the array (even when an item failed).
    fn read_borrowed_array(
        r: &mut Reader<'de>,
        path: &Path<'_>,
        cx: &mut Collector,
        checks: &'static [Check],
        each: impl FnMut(&Self::Item, &Path<'_>, &mut Collector) + Send,
    ) -> Result<Option<Self>, ParseError>;
}

impl<'de, T: BorrowDecode<'de>> BorrowArray<'de> for Vec<T> {
    type Item = T;

    #[inline]
    fn read_borrowed_array(
        r: &mut Reader<'de>,
        path: &Path<'_>,
        cx: &mut Collector,
        checks: &'static [Check],
        each: impl FnMut(&T, &Path<'_>, &mut Collector) + Send,
    ) -> Result<Option<Self>, ParseError> {
        let Some(items) = read_items(r, path, cx, each)? else {
            return Ok(None);
        };
        check_item_count(items.len, checks, path, cx);
        Ok(items.valid)
    }
}

impl<'de, T: BorrowDecode<'de>> BorrowArray<'de> for Option<Vec<T>> {
    type Item = T;

    #[inline]
    fn read_borrowed_array(
        r: &mut Reader<'de>,
        path: &Path<'_>,
        cx: &mut Collector,
        checks: &'static [Check],
        each: impl FnMut(&T, &Path<'_>, &mut Collector) + Send,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::Null => r.read_null().map(|()| Some(None)),
            _ => Vec::read_borrowed_array(r, path, cx, checks, each).map(|v| v.map(Some)),
        }
    }
}

/// [`read_array`](super::read_array) of an array field that borrows.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn read_borrowed_array<'de, A: BorrowArray<'de>>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    cx: &mut Collector,
    checks: &'static [Check],
) -> Result<Option<A>, ParseError> {
    A::read_borrowed_array(r, path, cx, checks, |_, _, _| {})
}

/// [`read_array_items`](super::read_array_items) of an array field that
/// borrows: the checks that apply to each item run on every item.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn read_borrowed_array_items<'de, A: BorrowArray<'de>>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    cx: &mut Collector,
    checks: &'static [Check],
) -> Result<Option<A>, ParseError>
where
    A::Item: Checkable,
{
    A::read_borrowed_array(r, path, cx, checks, |item, at, cx| {
        item.check_item(checks, at, cx);
    })
}

/// [`member_array`](super::member_array) of an array field that borrows.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn member_borrowed_array<'de, A: BorrowArray<'de>>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    cx: &mut Collector,
    at: usize,
    name: &'static str,
    slot: &mut Slot<A>,
    checks: &'static [Check],
) -> Result<bool, ParseError> {
    read_member(r, path, cx, at, name, slot, |r, member, cx| {
        read_borrowed_array(r, member, cx, checks)
    })
}

/// [`member_array_items`](super::member_array_items) of an array field
/// that borrows.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn member_borrowed_array_items<'de, A: BorrowArray<'de>>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    cx: &mut Collector,
    at: usize,
    name: &'static str,
    slot: &mut Slot<A>,
    checks: &'static [Check],
) -> Result<bool, ParseError>
where
    A::Item: Checkable,
{
    read_member(r, path, cx, at, name, slot, |r, member, cx| {
        read_borrowed_array_items(r, member, cx, checks)
    })
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::BorrowDecode;
    use crate::code;
    use crate::json::{Path, Reader};
    use crate::json_type::{Collector, JsonType};

    fn borrowed<'de, T: BorrowDecode<'de>>(text: &'de str) -> (Option<T>, Vec<&'static str>) {
        let mut r = Reader::new(text, 8);
        let mut cx = Collector::new();
        let value = T::decode_borrowed(&mut r, &Path::Root, &mut cx)
            .ok()
            .flatten();
        let (errors, _, _) = cx.finish();
        (value, errors.iter().map(|e| e.code).collect())
    }

    #[test]
    fn a_plain_string_is_borrowed_and_an_escaped_one_owned() {
        let (plain, _) = borrowed::<Cow<'_, str>>(r#""abc""#);
        assert!(matches!(plain, Some(Cow::Borrowed("abc"))));
        let (escaped, _) = borrowed::<Cow<'_, str>>(r#""a\nb""#);
        assert!(matches!(escaped, Some(Cow::Owned(s)) if s == "a\nb"));
    }

    #[test]
    fn a_str_field_refuses_an_escaped_string() {
        assert_eq!(borrowed::<&str>(r#""abc""#), (Some("abc"), vec![]));
        assert_eq!(
            borrowed::<&str>(r#""a\u0041""#),
            (None, vec![code::BORROWED_STRING])
        );
        assert_eq!(borrowed::<&str>("7"), (None, vec![code::INVALID_TYPE]));
    }

    #[test]
    fn without_a_borrowed_text_a_cow_is_owned_and_a_str_refused() {
        let mut r = Reader::new(r#"["abc", "abc"]"#, 8);
        let mut cx = Collector::new();
        let cows = <Vec<Cow<'static, str>>>::decode(&mut r, &Path::Root, &mut cx);
        assert!(matches!(cows, Ok(Some(v)) if matches!(v[0], Cow::Owned(_))));
        let mut r = Reader::new(r#""abc""#, 8);
        assert!(matches!(
            <&str>::decode(&mut r, &Path::Root, &mut cx),
            Ok(None)
        ));
        let (errors, _, _) = cx.finish();
        assert_eq!(errors[0].code, code::BORROWED_STRING);
    }
}
