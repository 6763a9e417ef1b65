//! One declared member of an object, read by a struct's member loop: the
//! duplicate-key test, the value at the member's pointer, the field's
//! checks ([`Check`] table) and the bookkeeping of whether it failed, in
//! one generic function the derive calls once per field, shared by every
//! field of the same type.
//!
//! Unoptimised, each call is a frame of its own, so the loop's frame does
//! not hold every member's temporaries (a recursive contract pays its loop
//! frame at each level). Without debug assertions (release), it and the
//! checks are always inlined: each call site then reads one field, with its
//! check table a constant the optimiser folds into plain comparisons, as
//! code written per field would be.
use crate::json::{ParseError, Path, Reader, duplicate_key};
use crate::json_type::{Collector, Mark};

use super::arrays::{ArrayField, read_array, read_array_items};
use super::bounds::{Check, Checkable};
use super::{Absent, declared_range, missing_key};

/// A field's state while its object is read: whether its key was met, and
/// its value if that was valid.
#[derive(Debug)]
pub struct Slot<T> {
    /// The value, once read and valid.
    pub value: Option<T>,
    /// Whether the key was met (a second time is a duplicate key).
    pub seen: bool,
}

impl<T> Slot<T> {
    /// Not met yet, as a constant: generated code starts its slots from it
    /// (no call per member in an unoptimised build).
    pub const NEW: Slot<T> = Slot::new();

    /// Not met yet.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub const fn new() -> Slot<T> {
        Slot {
            value: None,
            seen: false,
        }
    }
}

/// The index of `key` in `names` (a struct's members' JSON names, in
/// their order), `usize::MAX` for none: what a generated decoder's `match`
/// on a key read in full finds, for the unoptimised builds that search.
pub fn member_index(key: &str, names: &[&str]) -> usize {
    names.iter().position(|n| *n == key).unwrap_or(usize::MAX)
}

/// What an unoptimised build's generated decoder tries before reading a
/// key that is not the one predicted: nothing (`usize::MAX`). Optimised,
/// it tries each member's key as raw bytes, picked by the byte after the
/// quote; the key read in full finds the same member.
#[inline]
pub fn no_lookup(_: &mut Reader<'_>) -> usize {
    usize::MAX
}

/// Whether the key of every required member was met: `seen[i]` for the
/// member named `required[i].0`. Records `missing_key` for each one that
/// was not, in order (its message says what `required[i].1` is). One call
/// per object for all its required members: generated code passes their
/// slots' `seen` flags rather than a call per member.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn present_all(
    cx: &mut Collector,
    path: &Path<'_>,
    seen: &[bool],
    required: &'static [(&'static str, Absent)],
) -> bool {
    if seen.iter().all(|&s| s) {
        return true;
    }
    missing_keys(cx, path, seen, required);
    false
}

// `present_all`'s errors, once a required key is known to be missing.
#[cold]
#[inline(never)]
fn missing_keys(
    cx: &mut Collector,
    path: &Path<'_>,
    seen: &[bool],
    required: &'static [(&'static str, Absent)],
) {
    for (&seen, &(name, absent)) in seen.iter().zip(required) {
        if !seen {
            missing_key(cx, path, name, absent);
        }
    }
}

impl<T> Default for Slot<T> {
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn default() -> Slot<T> {
        Slot::new()
    }
}

/// How a member's value is read from a text of lifetime `'de`:
/// `<T as JsonType>::decode` (any text), or a borrowed field's
/// `<T as BorrowDecode<'de>>::decode_borrowed`, named by the generated code
/// at the field's type (so that a type that is not a contract is reported
/// there, once).
pub type Decode<'de, T> =
    fn(&mut Reader<'de>, &Path<'_>, &mut Collector) -> Result<Option<T>, ParseError>;

/// Reads the value of member `name` (its key at offset `at`) with `decode`
/// into `slot` and runs its `checks`; `Ok(false)` if an error was recorded
/// meanwhile. A key met twice is a duplicate (a parse error); stopping at
/// the caller's error budget is [`Collector::check_stop`]'s.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
#[allow(clippy::too_many_arguments)]
pub fn member<'de, T: Checkable>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    cx: &mut Collector,
    at: usize,
    name: &'static str,
    slot: &mut Slot<T>,
    decode: Decode<'de, T>,
    checks: &'static [Check],
) -> Result<bool, ParseError> {
    if slot.seen {
        return Err(duplicate_key(at, path, name));
    }
    slot.seen = true;
    let member = path.key(name);
    let mark = cx.mark();
    match decode(r, &member, cx) {
        Ok(Some(value)) => {
            value.check(checks, &member, cx);
            fill(slot, value);
        }
        Ok(None) => {}
        Err(e) => {
            // The text may end right after a wrong type (a stream's
            // prefix): the error recorded still names the declared range.
            restate_range(cx, mark, &member, checks);
            return Err(e);
        }
    }
    if cx.failed_since(mark) {
        restate_range(cx, mark, &member, checks);
        cx.check_stop()?;
        return Ok(false);
    }
    Ok(true)
}

// Puts the value of a member met for the first time into its slot. The
// slot is empty (a second key is a duplicate, refused before its value is
// read), so the `None` it held is forgotten rather than dropped: the drop's
// test of a value that is never there is not made.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn fill<T>(slot: &mut Slot<T>, value: T) {
    debug_assert!(slot.value.is_none(), "a slot is filled once");
    std::mem::forget(slot.value.replace(value));
}

// The value's type errors since `mark` in the words of the declared range,
// when the table starts with one.
#[cold]
fn restate_range(cx: &mut Collector, mark: Mark, path: &Path<'_>, checks: &'static [Check]) {
    if let Some(Check::Range(expected)) = checks.first() {
        declared_range(cx, mark, path, expected);
    }
}

/// [`member`] for a field without checks, of any type (a nested contract,
/// a map, a date...).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn member_unchecked<'de, T>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    cx: &mut Collector,
    at: usize,
    name: &'static str,
    slot: &mut Slot<T>,
    decode: Decode<'de, T>,
) -> Result<bool, ParseError> {
    read_member(r, path, cx, at, name, slot, decode)
}

/// [`member`] for an array field (`Vec<T>`, `Option<Vec<T>>`) with
/// checks: [`read_array`], or [`read_array_items`] when `items` (its
/// `checks` also apply to each item: `pattern` on a `Vec<String>`).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn member_array<A: ArrayField>(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    cx: &mut Collector,
    at: usize,
    name: &'static str,
    slot: &mut Slot<A>,
    checks: &'static [Check],
) -> Result<bool, ParseError> {
    read_member(r, path, cx, at, name, slot, |r, member, cx| {
        read_array(r, member, cx, checks)
    })
}

/// [`member_array`] with the checks that apply to each item run on every
/// item ([`read_array_items`]).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn member_array_items<A: ArrayField>(
    r: &mut Reader<'_>,
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
        read_array_items(r, member, cx, checks)
    })
}

// What every member does around reading its value with `read`: the
// duplicate-key test, the value at the member's pointer into `slot`, and
// whether an error was recorded meanwhile.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn read_member<'de, T>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    cx: &mut Collector,
    at: usize,
    name: &'static str,
    slot: &mut Slot<T>,
    read: impl FnOnce(&mut Reader<'de>, &Path<'_>, &mut Collector) -> Result<Option<T>, ParseError>,
) -> Result<bool, ParseError> {
    if slot.seen {
        return Err(duplicate_key(at, path, name));
    }
    slot.seen = true;
    let member = path.key(name);
    let mark = cx.mark();
    if let Some(value) = read(r, &member, cx)? {
        fill(slot, value);
    }
    if cx.failed_since(mark) {
        cx.check_stop()?;
        return Ok(false);
    }
    Ok(true)
}
