//! The string form's escaping: `~` as `~0`, `/` as `~1`; building pointers
//! one segment at a time.
use std::borrow::Cow;

use super::PointerError;

/// Escapes one segment for the string form: `~` becomes `~0`, `/` becomes `~1`.
///
/// Borrows when there is nothing to escape.
///
/// ```
/// use contract_runtime::pointer::escape;
///
/// assert_eq!(escape("a/~b"), "a~1~0b");
/// assert!(matches!(escape("plain"), std::borrow::Cow::Borrowed("plain")));
/// ```
pub fn escape(segment: &str) -> Cow<'_, str> {
    if !needs_escape(segment) {
        return Cow::Borrowed(segment);
    }
    let mut out = String::with_capacity(segment.len() + 2);
    write_escaped(&mut out, segment);
    Cow::Owned(out)
}

/// Appends `/` and the escaped `segment` to `buf`.
///
/// Allocates only when `buf` has to grow; the hot path of building pointers
/// (push a segment, use the pointer, truncate back) reuses one buffer.
///
/// ```
/// use contract_runtime::pointer::push_escaped;
///
/// let mut buf = String::new();
/// push_escaped(&mut buf, "a/b");
/// push_escaped(&mut buf, "m~n");
/// assert_eq!(buf, "/a~1b/m~0n");
/// ```
pub fn push_escaped(buf: &mut String, segment: &str) {
    buf.push('/');
    write_escaped(buf, segment);
}

/// The pointer of `segment` below `parent` (a pointer, or a `#` fragment),
/// the segment escaped.
///
/// ```
/// use contract_runtime::pointer::child;
///
/// assert_eq!(child("/properties", "a/b"), "/properties/a~1b");
/// assert_eq!(child("#/$defs", "Name"), "#/$defs/Name");
/// ```
pub fn child(parent: &str, segment: &str) -> String {
    let mut out = String::with_capacity(parent.len() + segment.len() + 2);
    out.push_str(parent);
    push_escaped(&mut out, segment);
    out
}

/// Appends `/` and the array index `index` to `buf` (an index needs no
/// escaping).
///
/// ```
/// use contract_runtime::pointer::push_index;
///
/// let mut buf = String::from("/items");
/// push_index(&mut buf, 12);
/// assert_eq!(buf, "/items/12");
/// ```
pub fn push_index(buf: &mut String, index: usize) {
    buf.push('/');
    // In decimal without going through `core::fmt`.
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = index;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        buf.push(char::from(d));
    }
}

/// Unescapes one segment of the string form: `~1` becomes `/`, then `~0`
/// becomes `~` (so `~01` decodes to `~1`).
///
/// Borrows when there is nothing to unescape. A `~` followed by anything but
/// `0` or `1`, or ending the segment, is an error whose offset is relative to
/// the segment.
///
/// ```
/// use contract_runtime::pointer::{unescape, PointerError};
///
/// assert_eq!(unescape("a~1b")?, "a/b");
/// assert_eq!(unescape("~01")?, "~1");
/// assert_eq!(unescape("x~"), Err(PointerError::InvalidEscape { offset: 1 }));
/// # Ok::<(), PointerError>(())
/// ```
pub fn unescape(segment: &str) -> Result<Cow<'_, str>, PointerError> {
    unescape_at(segment, 0)
}

pub(crate) fn needs_escape(segment: &str) -> bool {
    has_tilde_or_slash(segment.as_bytes())
}

// Whether `bytes` holds `~` or `/`, eight bytes at a time: most segments
// are short member names with neither, and a pointer is built for every
// error a document has.
fn has_tilde_or_slash(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // A byte of `w` is zero exactly where a byte of the input equals the
    // splatted byte; the classic "has a zero byte" test finds it.
    fn has_zero(w: u64) -> bool {
        w.wrapping_sub(ONES) & !w & HIGHS != 0
    }
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        if has_zero(w ^ (ONES * u64::from(b'~'))) || has_zero(w ^ (ONES * u64::from(b'/'))) {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| b == b'~' || b == b'/')
}

// `~` and `/` are ASCII, so slicing around them stays on char boundaries.
fn write_escaped(buf: &mut String, segment: &str) {
    if !needs_escape(segment) {
        buf.push_str(segment);
        return;
    }
    // A byte search: `~` and `/` are ASCII, so they never occur inside a
    // multi-byte character.
    let bytes = segment.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape = match b {
            b'~' => "~0",
            b'/' => "~1",
            _ => continue,
        };
        buf.push_str(segment.get(start..i).unwrap_or_default());
        buf.push_str(escape);
        start = i + 1;
    }
    buf.push_str(segment.get(start..).unwrap_or_default());
}

// Unescapes one segment; `base` is the segment's offset in the whole pointer,
// so errors point into the string the caller gave.
pub(crate) fn unescape_at(segment: &str, base: usize) -> Result<Cow<'_, str>, PointerError> {
    let Some(first) = segment.find('~') else {
        return Ok(Cow::Borrowed(segment));
    };
    let mut out = String::with_capacity(segment.len());
    out.push_str(&segment[..first]);
    let mut rest = &segment[first..];
    let mut offset = base + first;
    // Invariant: `rest` starts with `~`, at byte `offset` of the pointer.
    loop {
        match rest.as_bytes().get(1) {
            Some(b'0') => out.push('~'),
            Some(b'1') => out.push('/'),
            _ => return Err(PointerError::InvalidEscape { offset }),
        }
        rest = &rest[2..];
        offset += 2;
        match rest.find('~') {
            Some(at) => {
                out.push_str(&rest[..at]);
                rest = &rest[at..];
                offset += at;
            }
            None => {
                out.push_str(rest);
                return Ok(Cow::Owned(out));
            }
        }
    }
}
