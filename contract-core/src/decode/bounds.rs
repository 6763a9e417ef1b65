//! A field's value checks (`min`, `max`, `min_len`, `max_len`, `equals`,
//! `one_of`, `pattern`, `format`) as a `&'static` table the derive writes
//! once per field, walked here: each field's checks compile to one call
//! instead of each bound's comparison and messages written inline.
//!
//! The table holds the bounds as the derive typed them (integers exactly,
//! floats as the `f64` the field compares with) and the messages it
//! formatted; the checks run in the table's order, which is the order the
//! attributes are documented in, so the errors come in that order.
use crate::code;
use crate::json::Path;
use crate::json_type::Collector;

use super::field_error;
use super::formats::{Format, Pattern, check_format, check_pattern};
use super::length::{LenCheck, Length};

pub use crate::describe::Literal;

/// One check of a field's value, with the messages of its failure.
#[derive(Debug)]
pub enum Check {
    /// The range `min`/`max` declare, in words ("an integer from 1 to
    /// 50"): first in the table, it restates the value's `invalid_type`
    /// and `out_of_range` errors with it (checks nothing itself).
    Range(&'static super::TypeMessages),
    /// `min`: a value below it fails (`below_minimum`); message, expected.
    Min(Literal, &'static str, &'static str),
    /// `max`: a value above it fails (`above_maximum`); message, expected.
    Max(Literal, &'static str, &'static str),
    /// `min_len`/`max_len` (an absent `max_len` is `usize::MAX`): the
    /// messages of `too_short`, then of `too_long` (message, expected).
    Len(usize, usize, [&'static str; 4]),
    /// `equals` (`not_equal`): the value, message, expected.
    Equals(Literal, &'static str, &'static str),
    /// `one_of` (`not_one_of`): the values, message, expected.
    OneOf(&'static [Literal], &'static str, &'static str),
    /// `pattern` on a string: the pattern, message, expected.
    Pattern(&'static Pattern, &'static str, &'static str),
    /// `format` on a string.
    Format(Format),
}

/// A value as its checks see it.
#[derive(Clone, Copy)]
enum Subject<'a> {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(&'a str),
    Items(usize),
}

/// Which of a table's checks apply: all of them to a field's value; to an
/// item of an array field, all but the length, which bounds the array.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    Value,
    Item,
}

/// A field type whose value the table's checks apply to. `Option<T>`
/// checks its value when present.
pub trait Checkable {
    /// Runs `checks` on the value, recording each failure at `path`.
    fn check(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector);

    /// Runs the checks of an array field's `checks` that apply to each of
    /// its items (`pattern` on a `Vec<String>`: every check but the
    /// length), on this item at its own `path`.
    fn check_item(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector);
}

macro_rules! checked_int {
    ($($t:ty)*) => {$(
        impl Checkable for $t {
            #[cfg_attr(debug_assertions, inline)]
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn check(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector) {
                check_subject(Subject::Int(*self as i128), checks, Scope::Value, path, cx);
            }

            #[inline]
            fn check_item(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector) {
                check_subject(Subject::Int(*self as i128), checks, Scope::Item, path, cx);
            }
        }
    )*};
}

checked_int!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize);

impl Checkable for f64 {
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn check(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector) {
        check_subject(Subject::Float(*self), checks, Scope::Value, path, cx);
    }

    #[inline]
    fn check_item(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector) {
        check_subject(Subject::Float(*self), checks, Scope::Item, path, cx);
    }
}

impl Checkable for bool {
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn check(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector) {
        check_subject(Subject::Bool(*self), checks, Scope::Value, path, cx);
    }

    #[inline]
    fn check_item(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector) {
        check_subject(Subject::Bool(*self), checks, Scope::Item, path, cx);
    }
}

// A string's checks, whether the field owns it (`String`) or borrows it
// from the text (`&str`, `Cow<str>`).
macro_rules! checked_str {
    ($($t:ty)*) => {$(
        impl Checkable for $t {
            #[cfg_attr(debug_assertions, inline)]
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn check(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector) {
                check_subject(Subject::Str(self), checks, Scope::Value, path, cx);
            }

            #[inline]
            fn check_item(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector) {
                check_subject(Subject::Str(self), checks, Scope::Item, path, cx);
            }
        }
    )*};
}

checked_str!(String &str std::borrow::Cow<'_, str>);

impl<T> Checkable for Vec<T> {
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn check(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector) {
        check_subject(Subject::Items(self.len()), checks, Scope::Value, path, cx);
    }

    #[inline]
    fn check_item(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector) {
        check_subject(Subject::Items(self.len()), checks, Scope::Item, path, cx);
    }
}

impl<T: Checkable> Checkable for Option<T> {
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn check(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector) {
        if let Some(value) = self {
            value.check(checks, path, cx);
        }
    }

    #[inline]
    fn check_item(&self, checks: &'static [Check], path: &Path<'_>, cx: &mut Collector) {
        if let Some(value) = self {
            value.check_item(checks, path, cx);
        }
    }
}

/// Runs an array field's checks that bound the array itself (its length:
/// `too_short`, `too_long`) on an array of `len` items, whether or not
/// each item was valid.
#[inline]
pub(super) fn check_item_count(
    len: usize,
    checks: &'static [Check],
    path: &Path<'_>,
    cx: &mut Collector,
) {
    check_subject(Subject::Items(len), checks, Scope::Value, path, cx);
}

#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn check_subject(
    value: Subject<'_>,
    checks: &'static [Check],
    scope: Scope,
    path: &Path<'_>,
    cx: &mut Collector,
) {
    for check in checks {
        match *check {
            Check::Range(_) => {}
            Check::Len(..) if scope == Scope::Item => {}
            Check::Min(bound, message, expected) => {
                if below(value, bound) {
                    field_error(cx, path, code::BELOW_MINIMUM, message, expected);
                }
            }
            Check::Max(bound, message, expected) => {
                if below_of(bound, value) {
                    field_error(cx, path, code::ABOVE_MAXIMUM, message, expected);
                }
            }
            Check::Len(min, max, [short, short_expected, long, long_expected]) => {
                let len = match value {
                    Subject::Str(s) => s.check_len(min, max),
                    Subject::Items(n) => LenCheck::of(n, min, max),
                    _ => LenCheck::Within,
                };
                match len {
                    LenCheck::Short => {
                        field_error(cx, path, code::TOO_SHORT, short, short_expected)
                    }
                    LenCheck::Long => field_error(cx, path, code::TOO_LONG, long, long_expected),
                    LenCheck::Within => {}
                }
            }
            Check::Equals(literal, message, expected) => {
                if !equal(value, literal) {
                    field_error(cx, path, code::NOT_EQUAL, message, expected);
                }
            }
            Check::OneOf(literals, message, expected) => {
                if !literals.iter().any(|l| equal(value, *l)) {
                    field_error(cx, path, code::NOT_ONE_OF, message, expected);
                }
            }
            Check::Pattern(pattern, message, expected) => {
                if let Subject::Str(s) = value {
                    check_pattern(cx, path, pattern, s, message, expected);
                }
            }
            Check::Format(format) => {
                if let Subject::Str(s) = value {
                    check_format(cx, path, format, s);
                }
            }
        }
    }
}

// `value < bound`, for a bound of the value's own kind (the derive writes
// no other); a NaN is below nothing, as with `<` on the field's type.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn below(value: Subject<'_>, bound: Literal) -> bool {
    match (value, bound) {
        (Subject::Int(v), Literal::Int(b)) => v < b,
        (Subject::Float(v), Literal::Float(b)) => v < b,
        _ => false,
    }
}

// `bound < value`.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn below_of(bound: Literal, value: Subject<'_>) -> bool {
    match (value, bound) {
        (Subject::Int(v), Literal::Int(b)) => b < v,
        (Subject::Float(v), Literal::Float(b)) => b < v,
        _ => false,
    }
}

#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn equal(value: Subject<'_>, literal: Literal) -> bool {
    match (value, literal) {
        (Subject::Int(v), Literal::Int(l)) => v == l,
        (Subject::Float(v), Literal::Float(l)) => v == l,
        (Subject::Bool(v), Literal::Bool(l)) => v == l,
        (Subject::Str(v), Literal::Str(l)) => v == l,
        // A literal of another kind: the derive refuses it at compile time.
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::{Check, Checkable, Literal};
    use crate::code;
    use crate::json::Path;
    use crate::json_type::Collector;

    fn codes(value: &impl Checkable, checks: &'static [Check]) -> Vec<&'static str> {
        let mut cx = Collector::new();
        value.check(checks, &Path::Root.key("f"), &mut cx);
        let (errors, _, _) = cx.finish();
        assert!(errors.iter().all(|e| e.pointer == "/f"));
        errors.iter().map(|e| e.code).collect()
    }

    #[test]
    fn integer_bounds_are_exact_at_the_ends_of_u64_and_i64() {
        static BELOW_TOP: [Check; 1] = [Check::Max(Literal::Int(u64::MAX as i128 - 1), "m", "e")];
        static TOP: [Check; 1] = [Check::Max(Literal::Int(u64::MAX as i128), "m", "e")];
        static BOTTOM: [Check; 1] = [Check::Min(Literal::Int(i64::MIN as i128), "m", "e")];
        static ABOVE_BOTTOM: [Check; 1] =
            [Check::Min(Literal::Int(i64::MIN as i128 + 1), "m", "e")];
        assert_eq!(codes(&u64::MAX, &BELOW_TOP), [code::ABOVE_MAXIMUM]);
        assert!(codes(&u64::MAX, &TOP).is_empty());
        assert!(codes(&i64::MIN, &BOTTOM).is_empty());
        assert_eq!(codes(&i64::MIN, &ABOVE_BOTTOM), [code::BELOW_MINIMUM]);
    }

    #[test]
    fn a_string_length_counts_characters_and_a_vec_items() {
        static AT_MOST_3: [Check; 1] = [Check::Len(0, 3, ["s", "se", "l", "le"])];
        static AT_LEAST_4: [Check; 1] = [Check::Len(4, usize::MAX, ["s", "se", "l", "le"])];
        let accents = String::from("ééé");
        assert!(codes(&accents, &AT_MOST_3).is_empty());
        assert_eq!(codes(&accents, &AT_LEAST_4), [code::TOO_SHORT]);
        assert_eq!(codes(&vec![0u8; 4], &AT_MOST_3), [code::TOO_LONG]);
        assert!(codes(&vec![0u8; 4], &AT_LEAST_4).is_empty());
    }

    #[test]
    fn failures_come_in_the_tables_order_and_null_is_not_checked() {
        static CHECKS: [Check; 3] = [
            Check::Len(0, 2, ["s", "se", "l", "le"]),
            Check::Equals(Literal::Str("x"), "must equal \"x\"", "e"),
            Check::OneOf(&[Literal::Str("y"), Literal::Str("abcd")], "one of", "e"),
        ];
        let long = String::from("abcd");
        assert_eq!(codes(&long, &CHECKS), [code::TOO_LONG, code::NOT_EQUAL]);
        assert_eq!(
            codes(&Some(String::from("z")), &CHECKS),
            [code::NOT_EQUAL, code::NOT_ONE_OF]
        );
        assert!(codes(&None::<String>, &CHECKS).is_empty());
    }

    #[test]
    fn float_bounds_and_integer_values_compare_as_written() {
        static HALF: [Check; 2] = [
            Check::Min(Literal::Float(0.5), "m", "e"),
            Check::Equals(Literal::Float(0.5), "eq", "e"),
        ];
        static SMALL: [Check; 1] = [Check::OneOf(
            &[Literal::Int(1), Literal::Int(-2)],
            "one of",
            "e",
        )];
        assert_eq!(
            codes(&0.25f64, &HALF),
            [code::BELOW_MINIMUM, code::NOT_EQUAL]
        );
        assert!(codes(&0.5f64, &HALF).is_empty());
        assert!(codes(&-2i8, &SMALL).is_empty());
        assert_eq!(codes(&2usize, &SMALL), [code::NOT_ONE_OF]);
        static TRUE: [Check; 1] = [Check::Equals(Literal::Bool(true), "eq", "e")];
        assert_eq!(codes(&false, &TRUE), [code::NOT_EQUAL]);
    }
}
