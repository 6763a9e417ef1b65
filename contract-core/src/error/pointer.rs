//! [`PointerString`], an error's pointer held inline up to 23 bytes.
use std::borrow::Cow;
use std::fmt;
use std::num::NonZeroU8;

use serde::Serialize;

/// An [`Error`](super::Error)'s pointer: the RFC 6901 string form, held inline (no heap
/// allocation) when it is at most [`PointerString::INLINE`] bytes long,
/// which almost every pointer of a document is.
///
/// It reads as a `&str` (it derefs to one), compares equal to `str`,
/// `&str` and `String`, displays and serializes as the plain string, and
/// converts from and into `String`:
///
/// ```
/// use contract_runtime::error::PointerString;
///
/// let pointer = PointerString::from("/items/3/qty");
/// assert_eq!(pointer, "/items/3/qty");
/// assert!(pointer.starts_with("/items"));
/// assert_eq!(&pointer[..6], "/items");
/// assert_eq!(pointer.to_string(), String::from("/items/3/qty"));
/// assert_eq!(serde_json::to_string(&pointer)?, r#""/items/3/qty""#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone)]
pub struct PointerString(Repr);

#[derive(Clone)]
enum Repr {
    // The bytes from `start` to the end are the pointer, UTF-8 (every
    // constructor copies whole `str`s): written from its end, a pointer
    // needs no walk of its path for its length first.
    // `start` is held plus one: its zero is the niche that tells the two
    // forms apart, so the whole is 24 bytes.
    Inline {
        start: NonZeroU8,
        bytes: [u8; PointerString::INLINE],
    },
    // A boxed `str`, not a `String`: 16 bytes, so that the whole pointer
    // is 24 and an `Error` fits in 128 (copied inline, not by `memcpy`).
    Heap(Box<str>),
}

impl PointerString {
    /// The longest pointer held without a heap allocation, in bytes.
    pub const INLINE: usize = 23;

    /// The root pointer, `""`.
    pub const fn new() -> Self {
        PointerString(Repr::Inline {
            start: match NonZeroU8::new(PointerString::INLINE as u8 + 1) {
                Some(start) => start,
                None => NonZeroU8::MAX,
            },
            bytes: [0; PointerString::INLINE],
        })
    }

    /// The pointer as a string slice.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Always UTF-8: the bytes were copied from a `str`.
            Repr::Inline { .. } => std::str::from_utf8(self.bytes()).unwrap_or_default(),
            Repr::Heap(s) => s,
        }
    }

    // The pointer's bytes, without the UTF-8 check of `as_str`.
    #[inline]
    fn bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline { start, bytes } => bytes
                .get(usize::from(start.get()) - 1..)
                .unwrap_or_default(),
            Repr::Heap(s) => s.as_bytes(),
        }
    }

    /// The pointer as a `String`.
    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Inline { .. } => self.as_str().to_owned(),
            Repr::Heap(s) => s.into_string(),
        }
    }

    /// Appends `s`.
    pub fn push_str(&mut self, s: &str) {
        self.insert_str(self.len(), s);
    }

    /// Inserts `s` at byte `index` (a `char` boundary, as
    /// [`String::insert_str`]; the pointer is unchanged if it is not).
    pub fn insert_str(&mut self, index: usize, s: &str) {
        if let Repr::Heap(boxed) = &mut self.0 {
            if boxed.is_char_boundary(index) {
                let mut string = std::mem::take(boxed).into_string();
                string.insert_str(index, s);
                *boxed = string.into_boxed_str();
            }
            return;
        }
        let text = self.as_str();
        let (Some(head), Some(tail)) = (text.get(..index), text.get(index..)) else {
            return;
        };
        let mut out = PointerString::builder(text.len() + s.len());
        out.push(head);
        out.push(s);
        out.push(tail);
        *self = out.finish();
    }

    // A pointer of `len` bytes to be written front to back with
    // `Builder::push`.
    fn builder(len: usize) -> Builder {
        if let Some(start) = PointerString::INLINE.checked_sub(len) {
            Builder::Inline {
                start,
                at: start,
                bytes: [0; PointerString::INLINE],
            }
        } else {
            Builder::Heap(String::with_capacity(len))
        }
    }

    /// The pointer of the bytes of `bytes` from `start` to the end,
    /// written back to front by [`Path::pointer`](crate::json::Path::pointer)
    /// from whole `str`s and ASCII bytes (so UTF-8; [`PointerString::as_str`]
    /// checks it all the same). The root when `start` is past the end.
    #[inline]
    pub(crate) fn inline(bytes: [u8; PointerString::INLINE], start: usize) -> Self {
        match u8::try_from(start.saturating_add(1))
            .ok()
            .and_then(NonZeroU8::new)
        {
            Some(start) if usize::from(start.get()) <= PointerString::INLINE + 1 => {
                PointerString(Repr::Inline { start, bytes })
            }
            _ => PointerString::new(),
        }
    }
}

enum Builder {
    // The pointer starts at `start`; the next `push` writes at `at`.
    Inline {
        start: usize,
        at: usize,
        bytes: [u8; PointerString::INLINE],
    },
    Heap(String),
}

impl Builder {
    fn push(&mut self, s: &str) {
        match self {
            Builder::Inline { at, bytes, .. } => {
                let end = *at + s.len();
                if let Some(to) = bytes.get_mut(*at..end) {
                    to.copy_from_slice(s.as_bytes());
                    *at = end;
                }
            }
            Builder::Heap(string) => string.push_str(s),
        }
    }

    fn finish(self) -> PointerString {
        match self {
            Builder::Inline { start, bytes, .. } => PointerString::inline(bytes, start),
            Builder::Heap(s) => PointerString(Repr::Heap(s.into_boxed_str())),
        }
    }
}

impl Default for PointerString {
    fn default() -> Self {
        PointerString::new()
    }
}

impl std::ops::Deref for PointerString {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for PointerString {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for PointerString {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for PointerString {
    fn from(s: &str) -> Self {
        let mut out = PointerString::builder(s.len());
        out.push(s);
        out.finish()
    }
}

impl From<&mut str> for PointerString {
    fn from(s: &mut str) -> Self {
        PointerString::from(&*s)
    }
}

impl From<&String> for PointerString {
    fn from(s: &String) -> Self {
        PointerString::from(s.as_str())
    }
}

impl From<String> for PointerString {
    /// Keeps the string's allocation when it has one (shrunk to the
    /// string's length, which may move it when it had room to spare).
    fn from(s: String) -> Self {
        if s.capacity() == 0 {
            PointerString::new()
        } else {
            PointerString(Repr::Heap(s.into_boxed_str()))
        }
    }
}

impl From<Box<str>> for PointerString {
    fn from(s: Box<str>) -> Self {
        if s.is_empty() {
            PointerString::new()
        } else {
            PointerString(Repr::Heap(s))
        }
    }
}

impl From<Cow<'_, str>> for PointerString {
    fn from(s: Cow<'_, str>) -> Self {
        match s {
            Cow::Borrowed(s) => PointerString::from(s),
            Cow::Owned(s) => PointerString::from(s),
        }
    }
}

impl From<char> for PointerString {
    fn from(c: char) -> Self {
        PointerString::from(c.encode_utf8(&mut [0; 4]) as &str)
    }
}

impl From<PointerString> for String {
    fn from(p: PointerString) -> Self {
        p.into_string()
    }
}

impl std::str::FromStr for PointerString {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(PointerString::from(s))
    }
}

impl PartialEq for PointerString {
    fn eq(&self, other: &Self) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for PointerString {}

impl PartialOrd for PointerString {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PointerString {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.bytes().cmp(other.bytes())
    }
}

impl std::hash::Hash for PointerString {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

macro_rules! eq_str {
    ($($other:ty),*) => {$(
        impl PartialEq<$other> for PointerString {
            fn eq(&self, other: &$other) -> bool {
                self.bytes() == AsRef::<str>::as_ref(other).as_bytes()
            }
        }

        impl PartialEq<PointerString> for $other {
            fn eq(&self, other: &PointerString) -> bool {
                AsRef::<str>::as_ref(self).as_bytes() == other.bytes()
            }
        }
    )*};
}

eq_str!(str, &str, String, Cow<'_, str>);

impl fmt::Display for PointerString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for PointerString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for PointerString {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for PointerString {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;

        impl serde::de::Visitor<'_> for Visit {
            type Value = PointerString;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON Pointer string")
            }

            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<PointerString, E> {
                Ok(PointerString::from(s))
            }

            fn visit_string<E: serde::de::Error>(self, s: String) -> Result<PointerString, E> {
                Ok(PointerString::from(s))
            }
        }

        deserializer.deserialize_string(Visit)
    }
}

#[cfg(test)]
mod tests {
    use super::PointerString;

    // 24 bytes, so that an `Error` is at most 128 and its moves are a few
    // inline stores rather than a call of `memcpy`.
    #[test]
    fn a_pointer_is_three_words_and_an_error_two_cache_lines() {
        assert_eq!(size_of::<PointerString>(), 24);
        assert!(
            size_of::<crate::Error>() <= 128,
            "{}",
            size_of::<crate::Error>()
        );
    }

    // Inline up to `INLINE` bytes, on the heap past it, equal either way;
    // edits keep the text.
    #[test]
    fn short_and_long_pointers_compare_and_edit_alike() {
        for n in [
            0,
            1,
            PointerString::INLINE - 1,
            PointerString::INLINE,
            31,
            100,
        ] {
            let text = "x".repeat(n);
            let from_str = PointerString::from(text.as_str());
            let from_string = PointerString::from(text.clone());
            assert_eq!(from_str, from_string);
            assert_eq!(from_str, text);
            assert_eq!(from_str.len(), n);
            let mut edited = from_str.clone();
            edited.insert_str(0, "/p");
            edited.push_str("/é");
            assert_eq!(edited, format!("/p{text}/é"));
            let mut not_a_boundary = PointerString::from("é");
            not_a_boundary.insert_str(1, "x");
            assert_eq!(not_a_boundary, "é");
        }
        assert_eq!(PointerString::new(), "");
        assert_eq!(PointerString::default(), PointerString::from(String::new()));
    }
}
