//! An array field's checks (`min_len`/`max_len` on a `Vec`, `pattern` on
//! the items of a `Vec<String>`), run while the array is read rather than
//! on the decoded `Vec`: a `Vec` with one failing item is not decoded, and
//! its other items and its length must still be checked.
//!
//! Every error of the array is reported, in the order of the text: each
//! item's own errors (a wrong type, a nested contract's errors, the
//! item's `pattern`) as the item is read, then the array's own
//! `too_short`/`too_long`, which its `]` decides. A [`Stream`] meets them
//! in the same order.
//!
//! [`Stream`]: crate::stream::Stream
use crate::json::{ParseError, Path, Peek, Reader};
use crate::json_type::{Collector, JsonType};

use super::bounds::{Check, Checkable, check_item_count};
use super::collections::read_items;

/// A field type that holds an array: `Vec<T>` or `Option<Vec<T>>`.
pub trait ArrayField: Sized {
    /// The type of its items.
    type Item: JsonType;

    /// Reads the value, handing each valid item to `each` as it is read,
    /// and runs the length checks of `checks` on the array (even when an
    /// item failed); `None` if the value or an item failed.
    fn read_array(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
        checks: &'static [Check],
        each: impl FnMut(&Self::Item, &Path<'_>, &mut Collector) + Send,
    ) -> Result<Option<Self>, ParseError>;
}

impl<T: JsonType> ArrayField for Vec<T> {
    type Item = T;

    #[inline]
    fn read_array(
        r: &mut Reader<'_>,
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

impl<T: JsonType> ArrayField for Option<Vec<T>> {
    type Item = T;

    #[inline]
    fn read_array(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
        checks: &'static [Check],
        each: impl FnMut(&T, &Path<'_>, &mut Collector) + Send,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::Null => r.read_null().map(|()| Some(None)),
            _ => Vec::read_array(r, path, cx, checks, each).map(|v| v.map(Some)),
        }
    }
}

/// Reads an array field's value and runs its length checks: the items'
/// own errors come as each item is read, the array's after them.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn read_array<A: ArrayField>(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Collector,
    checks: &'static [Check],
) -> Result<Option<A>, ParseError> {
    A::read_array(r, path, cx, checks, |_, _, _| {})
}

/// [`read_array`], and the checks that apply to each item (`pattern` on a
/// `Vec<String>`) on every item that has the right type, at its own
/// pointer, as it is read: an item of the wrong type hides no other
/// item's error.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn read_array_items<A: ArrayField>(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Collector,
    checks: &'static [Check],
) -> Result<Option<A>, ParseError>
where
    A::Item: Checkable,
{
    A::read_array(r, path, cx, checks, |item, at, cx| {
        item.check_item(checks, at, cx);
    })
}

#[cfg(test)]
mod tests {
    use super::{read_array, read_array_items};
    use crate::decode::{Check, Pattern};
    use crate::json::{Path, Reader};
    use crate::json_type::Collector;

    static STARTS_WITH_A: Pattern = Pattern::new("^a");
    // At most one item; each item must start with `a`.
    static CHECKS: [Check; 2] = [
        Check::Len(0, 1, ["s", "se", "l", "le"]),
        Check::Pattern(&STARTS_WITH_A, "m", "e"),
    ];

    fn errors<T>(
        read: fn(&mut Reader<'_>, &Path<'_>, &mut Collector, &'static [Check]) -> T,
        text: &str,
    ) -> Vec<(String, &'static str)> {
        let mut r = Reader::new(text, 8);
        let mut cx = Collector::new();
        let _ = read(&mut r, &Path::Root, &mut cx, &CHECKS);
        let (errors, _, _) = cx.finish();
        errors
            .into_iter()
            .map(|e| (e.pointer.into(), e.code))
            .collect()
    }

    #[test]
    fn the_length_bounds_the_array_and_the_other_checks_each_item() {
        let found = errors(read_array_items::<Vec<String>>, r#"["abc", "xyz", 1]"#);
        let expected = [
            ("/1".to_owned(), "pattern_mismatch"),
            ("/2".to_owned(), "invalid_type"),
            (String::new(), "too_long"),
        ];
        assert_eq!(found, expected);
    }

    #[test]
    fn items_are_not_checked_unless_asked() {
        let found = errors(read_array::<Vec<String>>, r#"["xyz", 1]"#);
        let expected = [
            ("/1".to_owned(), "invalid_type"),
            (String::new(), "too_long"),
        ];
        assert_eq!(found, expected);
    }

    #[test]
    fn null_is_an_absent_optional_array_and_is_not_checked() {
        assert!(errors(read_array_items::<Option<Vec<String>>>, "null").is_empty());
        let found = errors(read_array_items::<Option<Vec<String>>>, r#"["x"]"#);
        assert_eq!(found, [("/0".to_owned(), "pattern_mismatch")]);
    }
}
