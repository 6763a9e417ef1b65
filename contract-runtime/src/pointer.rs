//! RFC 6901 JSON Pointer: parsing (string and URI-fragment forms), escaping,
//! display and resolution against a [`serde_json::Value`].
//!
//! A pointer is a sequence of reference tokens (segments). In its string form
//! every segment is preceded by `/`, and `~` and `/` inside a segment are
//! written `~0` and `~1`; the empty string is the root.
//!
//! ```
//! use contract_runtime::pointer::Pointer;
//! use serde_json::json;
//!
//! let doc = json!({"a/b": {"items": [10, 20]}});
//! let pointer = Pointer::parse("/a~1b/items/1")?;
//! assert_eq!(pointer.segments(), ["a/b", "items", "1"]);
//! assert_eq!(pointer.resolve(&doc), Some(&json!(20)));
//! assert_eq!(pointer.to_string(), "/a~1b/items/1");
//! # Ok::<(), contract_runtime::pointer::PointerError>(())
//! ```
//!
//! Decisions not fixed by the RFC:
//!
//! - error offsets are byte offsets into the string given to the parser (for
//!   the fragment form, into the fragment including its `#`);
//! - the fragment form is strict RFC 3986: a character that a URI fragment may
//!   not contain (a space, `"`, `%` not starting an escape, `^`, `|`, `\`, any
//!   non-ASCII character, …) must be percent-encoded, and the decoded bytes
//!   must be UTF-8;
//! - an array index is `0` or a decimal number without leading zeros that fits
//!   a `usize`; `-` (the element after the last) never resolves.
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use serde_json::Value;

/// Why a string is not a JSON Pointer.
///
/// ```
/// use contract_runtime::pointer::{Pointer, PointerError};
///
/// assert_eq!(Pointer::parse("a"), Err(PointerError::MissingLeadingSlash));
/// assert_eq!(Pointer::parse("/a~2"), Err(PointerError::InvalidEscape { offset: 2 }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PointerError {
    /// A non-empty pointer does not start with `/`.
    MissingLeadingSlash,
    /// A `~` is not followed by `0` or `1` (or ends the pointer).
    InvalidEscape {
        /// Byte offset of the `~`.
        offset: usize,
    },
    /// The URI-fragment form does not start with `#`.
    MissingHash,
    /// In the URI-fragment form, a `%` is not followed by two hex digits, or
    /// the decoded bytes are not UTF-8.
    InvalidPercentEscape {
        /// Byte offset of the `%` (or of the first character whose decoded
        /// bytes are not UTF-8).
        offset: usize,
    },
    /// In the URI-fragment form, a character that a URI fragment may not
    /// contain appears without percent-encoding.
    UnencodedCharacter {
        /// Byte offset of the character.
        offset: usize,
    },
}

impl fmt::Display for PointerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PointerError::MissingLeadingSlash => {
                f.write_str("a JSON Pointer must be empty or start with `/`")
            }
            PointerError::InvalidEscape { offset } => write!(
                f,
                "`~` at byte {offset} must be followed by `0` (for `~`) or `1` (for `/`)"
            ),
            PointerError::MissingHash => {
                f.write_str("a JSON Pointer in URI-fragment form must start with `#`")
            }
            PointerError::InvalidPercentEscape { offset } => write!(
                f,
                "invalid percent-escape at byte {offset}: expected `%` and two hex digits, \
                 decoding to UTF-8"
            ),
            PointerError::UnencodedCharacter { offset } => write!(
                f,
                "the character at byte {offset} must be percent-encoded in a URI fragment"
            ),
        }
    }
}

impl std::error::Error for PointerError {}

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

/// A parsed RFC 6901 JSON Pointer: the list of its unescaped segments.
///
/// The empty list is the root (`""`). Pointers order and compare by their
/// segments.
///
/// ```
/// use contract_runtime::pointer::Pointer;
/// use serde_json::json;
///
/// let doc = json!({"foo": ["bar", "baz"], "m~n": 8});
/// assert_eq!(Pointer::parse("")?.resolve(&doc), Some(&doc));
/// assert_eq!(Pointer::parse("/foo/0")?.resolve(&doc), Some(&json!("bar")));
/// assert_eq!(Pointer::parse_fragment("#/m~0n")?.resolve(&doc), Some(&json!(8)));
/// assert_eq!(Pointer::parse("/foo/2")?.resolve(&doc), None);
///
/// let mut pointer = Pointer::root();
/// pointer.push("a/b");
/// pointer.push("0");
/// assert_eq!(pointer.to_string(), "/a~1b/0");
/// # Ok::<(), contract_runtime::pointer::PointerError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pointer {
    segments: Vec<String>,
}

impl Pointer {
    /// The root pointer, `""`: the whole document.
    pub const fn root() -> Pointer {
        Pointer {
            segments: Vec::new(),
        }
    }

    /// Parses the string form: `""` (the root) or `/`-prefixed segments with
    /// `~0` / `~1` escapes.
    ///
    /// ```
    /// use contract_runtime::pointer::{Pointer, PointerError};
    ///
    /// assert_eq!(Pointer::parse("/a~1b/")?.segments(), ["a/b", ""]);
    /// assert_eq!(Pointer::parse("/~"), Err(PointerError::InvalidEscape { offset: 1 }));
    /// # Ok::<(), PointerError>(())
    /// ```
    pub fn parse(s: &str) -> Result<Pointer, PointerError> {
        if s.is_empty() {
            return Ok(Pointer::root());
        }
        let Some(rest) = s.strip_prefix('/') else {
            return Err(PointerError::MissingLeadingSlash);
        };
        let mut segments = Vec::new();
        // Offset of the current segment within `s` (after its `/`).
        let mut offset = 1;
        for segment in rest.split('/') {
            segments.push(unescape_at(segment, offset)?.into_owned());
            offset += segment.len() + 1;
        }
        Ok(Pointer { segments })
    }

    /// Parses the URI-fragment form (RFC 6901 section 6): `#` followed by the
    /// string form, percent-encoded as RFC 3986 requires.
    ///
    /// ```
    /// use contract_runtime::pointer::Pointer;
    ///
    /// assert_eq!(Pointer::parse_fragment("#")?, Pointer::root());
    /// assert_eq!(Pointer::parse_fragment("#/c%25d")?.segments(), ["c%d"]);
    /// assert_eq!(Pointer::parse_fragment("#/k%22l")?.segments(), ["k\"l"]);
    /// assert_eq!(Pointer::parse_fragment("#/%20")?.segments(), [" "]);
    /// # Ok::<(), contract_runtime::pointer::PointerError>(())
    /// ```
    pub fn parse_fragment(s: &str) -> Result<Pointer, PointerError> {
        let Some(fragment) = s.strip_prefix('#') else {
            return Err(PointerError::MissingHash);
        };
        let decoded = percent_decode(fragment)?;
        Pointer::parse(&decoded).map_err(|error| match error {
            PointerError::InvalidEscape { offset } => PointerError::InvalidEscape {
                offset: 1 + source_offset(fragment, offset),
            },
            other => other,
        })
    }

    /// Builds a pointer from unescaped segments.
    ///
    /// ```
    /// use contract_runtime::pointer::Pointer;
    ///
    /// let pointer = Pointer::from_segments(["notifications", "e/mail"]);
    /// assert_eq!(pointer.to_string(), "/notifications/e~1mail");
    /// ```
    pub fn from_segments<I, S>(iter: I) -> Pointer
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Pointer {
            segments: iter.into_iter().map(Into::into).collect(),
        }
    }

    /// The unescaped segments, outermost first.
    pub fn segments(&self) -> &[String] {
        &self.segments
    }

    /// Whether this is the root pointer `""`.
    pub fn is_root(&self) -> bool {
        self.segments.is_empty()
    }

    /// Appends an (unescaped) segment.
    pub fn push(&mut self, segment: impl Into<String>) {
        self.segments.push(segment.into());
    }

    /// Removes and returns the last segment; `None` at the root.
    pub fn pop(&mut self) -> Option<String> {
        self.segments.pop()
    }

    /// The value this pointer designates in `value`, if any.
    ///
    /// An object segment is a member name; an array segment must be `0` or a
    /// decimal index without leading zeros, within bounds. `-` resolves to
    /// nothing.
    ///
    /// ```
    /// use contract_runtime::pointer::Pointer;
    /// use serde_json::json;
    ///
    /// let doc = json!({"list": [1, 2]});
    /// assert_eq!(Pointer::parse("/list/1")?.resolve(&doc), Some(&json!(2)));
    /// assert_eq!(Pointer::parse("/list/01")?.resolve(&doc), None);
    /// assert_eq!(Pointer::parse("/list/-")?.resolve(&doc), None);
    /// # Ok::<(), contract_runtime::pointer::PointerError>(())
    /// ```
    pub fn resolve<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        self.segments
            .iter()
            .try_fold(value, |current, segment| match current {
                Value::Object(map) => map.get(segment.as_str()),
                Value::Array(items) => array_index(segment).and_then(|i| items.get(i)),
                _ => None,
            })
    }
}

impl fmt::Display for Pointer {
    /// The escaped string form (`""` for the root).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for segment in &self.segments {
            f.write_str("/")?;
            let mut rest = segment.as_str();
            while let Some(at) = rest.find(['~', '/']) {
                f.write_str(&rest[..at])?;
                f.write_str(if rest.as_bytes()[at] == b'~' {
                    "~0"
                } else {
                    "~1"
                })?;
                rest = &rest[at + 1..];
            }
            f.write_str(rest)?;
        }
        Ok(())
    }
}

impl FromStr for Pointer {
    type Err = PointerError;

    /// Same as [`Pointer::parse`].
    fn from_str(s: &str) -> Result<Pointer, PointerError> {
        Pointer::parse(s)
    }
}

impl<S: Into<String>> FromIterator<S> for Pointer {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Pointer {
        Pointer::from_segments(iter)
    }
}

fn needs_escape(segment: &str) -> bool {
    segment.bytes().any(|b| b == b'~' || b == b'/')
}

// `~` and `/` are ASCII, so slicing around them stays on char boundaries.
fn write_escaped(buf: &mut String, segment: &str) {
    // A byte search: `~` and `/` are ASCII, so they never occur inside a
    // multi-byte character, and most segments have neither.
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
fn unescape_at(segment: &str, base: usize) -> Result<Cow<'_, str>, PointerError> {
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

// RFC 3986: fragment = *( pchar / "/" / "?" ),
// pchar = unreserved / pct-encoded / sub-delims / ":" / "@".
fn is_fragment_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&b)
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

// Decodes the fragment (without its `#`); error offsets count the `#`.
fn percent_decode(fragment: &str) -> Result<Cow<'_, str>, PointerError> {
    let bytes = fragment.as_bytes();
    if let Some(at) = bytes
        .iter()
        .position(|&b| !is_fragment_byte(b) && b != b'%')
    {
        return Err(PointerError::UnencodedCharacter { offset: 1 + at });
    }
    if !bytes.contains(&b'%') {
        return Ok(Cow::Borrowed(fragment));
    }
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let high = bytes.get(i + 1).copied().and_then(hex_value);
            let low = bytes.get(i + 2).copied().and_then(hex_value);
            let (Some(high), Some(low)) = (high, low) else {
                return Err(PointerError::InvalidPercentEscape { offset: 1 + i });
            };
            decoded.push(high << 4 | low);
            i += 3;
        } else {
            decoded.push(b);
            i += 1;
        }
    }
    String::from_utf8(decoded)
        .map(Cow::Owned)
        .map_err(|error| PointerError::InvalidPercentEscape {
            offset: 1 + source_offset(fragment, error.utf8_error().valid_up_to()),
        })
}

// Maps a byte offset in the decoded fragment back to the fragment itself
// (only called on errors, so a rescan is fine). The fragment is known to be
// well-formed here: every `%` is followed by two hex digits.
fn source_offset(fragment: &str, decoded_offset: usize) -> usize {
    let bytes = fragment.as_bytes();
    let mut source = 0;
    let mut decoded = 0;
    while decoded < decoded_offset && source < bytes.len() {
        source += if bytes[source] == b'%' { 3 } else { 1 };
        decoded += 1;
    }
    source
}

// `0`, or a decimal number without leading zeros that fits a usize.
fn array_index(segment: &str) -> Option<usize> {
    let bytes = segment.as_bytes();
    match bytes {
        [b'0'] => Some(0),
        [b'1'..=b'9', rest @ ..] if rest.iter().all(u8::is_ascii_digit) => segment.parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rfc_document() -> Value {
        json!({
            "foo": ["bar", "baz"],
            "": 0,
            "a/b": 1,
            "c%d": 2,
            "e^f": 3,
            "g|h": 4,
            "i\\j": 5,
            "k\"l": 6,
            " ": 7,
            "m~n": 8
        })
    }

    // RFC 6901 section 5 (string form) and section 6 (URI fragment form),
    // each with the value the RFC says it resolves to.
    fn rfc_cases() -> Vec<(&'static str, &'static str, Value)> {
        let doc = rfc_document();
        vec![
            ("", "#", doc),
            ("/foo", "#/foo", json!(["bar", "baz"])),
            ("/foo/0", "#/foo/0", json!("bar")),
            ("/", "#/", json!(0)),
            ("/a~1b", "#/a~1b", json!(1)),
            ("/c%d", "#/c%25d", json!(2)),
            ("/e^f", "#/e%5Ef", json!(3)),
            ("/g|h", "#/g%7Ch", json!(4)),
            ("/i\\j", "#/i%5Cj", json!(5)),
            ("/k\"l", "#/k%22l", json!(6)),
            ("/ ", "#/%20", json!(7)),
            ("/m~0n", "#/m~0n", json!(8)),
        ]
    }

    #[test]
    fn rfc_string_form_pointers_resolve_to_the_rfc_values() {
        let doc = rfc_document();
        let cases = rfc_cases();
        assert_eq!(cases.len(), 12);
        for (pointer, _, expected) in cases {
            let parsed = Pointer::parse(pointer).unwrap();
            assert_eq!(parsed.resolve(&doc), Some(&expected), "{pointer:?}");
        }
    }

    #[test]
    fn rfc_fragment_form_pointers_resolve_to_the_rfc_values() {
        let doc = rfc_document();
        for (_, fragment, expected) in rfc_cases() {
            let parsed = Pointer::parse_fragment(fragment).unwrap();
            assert_eq!(parsed.resolve(&doc), Some(&expected), "{fragment:?}");
        }
    }

    #[test]
    fn rfc_string_and_fragment_forms_parse_to_the_same_pointer() {
        for (pointer, fragment, _) in rfc_cases() {
            assert_eq!(
                Pointer::parse(pointer).unwrap(),
                Pointer::parse_fragment(fragment).unwrap()
            );
        }
    }

    #[test]
    fn display_round_trips_the_rfc_string_form() {
        for (pointer, _, _) in rfc_cases() {
            assert_eq!(Pointer::parse(pointer).unwrap().to_string(), pointer);
        }
    }

    #[test]
    fn empty_string_is_the_root() {
        let root = Pointer::parse("").unwrap();
        assert!(root.is_root());
        assert_eq!(root, Pointer::root());
        assert_eq!(root.to_string(), "");
    }

    #[test]
    fn missing_leading_slash_is_rejected() {
        assert_eq!(
            Pointer::parse("foo"),
            Err(PointerError::MissingLeadingSlash)
        );
        assert_eq!(
            Pointer::parse("#/foo"),
            Err(PointerError::MissingLeadingSlash)
        );
        assert_eq!(
            Pointer::parse_fragment("#foo"),
            Err(PointerError::MissingLeadingSlash)
        );
    }

    #[test]
    fn fragment_without_hash_is_rejected() {
        assert_eq!(
            Pointer::parse_fragment("/foo"),
            Err(PointerError::MissingHash)
        );
        assert_eq!(Pointer::parse_fragment(""), Err(PointerError::MissingHash));
    }

    #[test]
    fn tilde_followed_by_other_than_0_or_1_is_rejected() {
        assert_eq!(
            Pointer::parse("/~2"),
            Err(PointerError::InvalidEscape { offset: 1 })
        );
        assert_eq!(
            Pointer::parse("/ok/a~2"),
            Err(PointerError::InvalidEscape { offset: 5 })
        );
        assert_eq!(
            unescape("~2"),
            Err(PointerError::InvalidEscape { offset: 0 })
        );
    }

    #[test]
    fn tilde_at_the_end_is_rejected() {
        assert_eq!(
            Pointer::parse("/~"),
            Err(PointerError::InvalidEscape { offset: 1 })
        );
        assert_eq!(
            Pointer::parse("/a~"),
            Err(PointerError::InvalidEscape { offset: 2 })
        );
        assert_eq!(
            Pointer::parse("/a~/b"),
            Err(PointerError::InvalidEscape { offset: 2 })
        );
        assert_eq!(
            unescape("~"),
            Err(PointerError::InvalidEscape { offset: 0 })
        );
    }

    #[test]
    fn tilde_0_1_decodes_to_tilde_1_not_slash() {
        assert_eq!(unescape("~01").unwrap(), "~1");
        assert_eq!(Pointer::parse("/~01").unwrap().segments(), ["~1"]);
        assert_eq!(unescape("~10").unwrap(), "/0");
    }

    #[test]
    fn escape_and_unescape_round_trip() {
        for segment in ["", "plain", "~", "/", "~1", "~0", "a/~b", "//~~", "é~/ü"] {
            let escaped = escape(segment);
            assert!(!escaped.contains('/'), "{escaped:?}");
            assert_eq!(unescape(&escaped).unwrap(), segment);
        }
        assert_eq!(escape("a/~b"), "a~1~0b");
    }

    #[test]
    fn escape_and_unescape_borrow_when_nothing_changes() {
        assert!(matches!(escape("abc"), Cow::Borrowed("abc")));
        assert!(matches!(unescape("abc"), Ok(Cow::Borrowed("abc"))));
    }

    #[test]
    fn push_escaped_appends_slash_and_escaped_segment() {
        let mut buf = String::from("/x");
        push_escaped(&mut buf, "a/~b");
        push_escaped(&mut buf, "");
        assert_eq!(buf, "/x/a~1~0b/");
        assert_eq!(Pointer::parse(&buf).unwrap().segments(), ["x", "a/~b", ""]);
    }

    #[test]
    fn from_segments_push_and_display_escape_segments() {
        let mut pointer = Pointer::from_segments(["a/b", "m~n"]);
        pointer.push(String::from(""));
        assert_eq!(pointer.to_string(), "/a~1b/m~0n/");
        assert_eq!(pointer.pop().as_deref(), Some(""));
        assert_eq!("/a~1b/m~0n".parse::<Pointer>().unwrap(), pointer);
    }

    #[test]
    fn array_index_must_be_canonical_decimal() {
        let doc = json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
        let at = |p: &str| Pointer::parse(p).unwrap().resolve(&doc).cloned();
        assert_eq!(at("/0"), Some(json!(0)));
        assert_eq!(at("/11"), Some(json!(11)));
        assert_eq!(at("/12"), None);
        assert_eq!(at("/01"), None);
        assert_eq!(at("/00"), None);
        assert_eq!(at("/-"), None);
        assert_eq!(at("/+1"), None);
        assert_eq!(at("/1e0"), None);
        assert_eq!(at("/ 1"), None);
        assert_eq!(at("/"), None);
        assert_eq!(at("/99999999999999999999999999"), None);
    }

    #[test]
    fn resolve_through_a_scalar_finds_nothing() {
        let doc = json!({"a": 1, "s": "text"});
        assert_eq!(Pointer::parse("/a/0").unwrap().resolve(&doc), None);
        assert_eq!(Pointer::parse("/s/0").unwrap().resolve(&doc), None);
        assert_eq!(Pointer::parse("/missing").unwrap().resolve(&doc), None);
    }

    #[test]
    fn fragment_percent_decoding_handles_utf8_and_escaped_tilde() {
        let parsed = Pointer::parse_fragment("#/%C3%A9/%7E1").unwrap();
        assert_eq!(parsed.segments(), ["é", "/"]);
    }

    #[test]
    fn fragment_with_bad_percent_escape_is_rejected() {
        assert_eq!(
            Pointer::parse_fragment("#/a%2"),
            Err(PointerError::InvalidPercentEscape { offset: 3 })
        );
        assert_eq!(
            Pointer::parse_fragment("#/a%zz"),
            Err(PointerError::InvalidPercentEscape { offset: 3 })
        );
        // A lone continuation byte is not UTF-8.
        assert_eq!(
            Pointer::parse_fragment("#/ab%80"),
            Err(PointerError::InvalidPercentEscape { offset: 4 })
        );
    }

    #[test]
    fn fragment_with_unencoded_character_is_rejected() {
        for (fragment, offset) in [("#/ ", 2), ("#/k\"l", 3), ("#/é", 2), ("#/a#b", 3)] {
            assert_eq!(
                Pointer::parse_fragment(fragment),
                Err(PointerError::UnencodedCharacter { offset }),
                "{fragment:?}"
            );
        }
    }

    #[test]
    fn fragment_bad_tilde_escape_offset_points_into_the_fragment() {
        assert_eq!(
            Pointer::parse_fragment("#/%20%20~2"),
            Err(PointerError::InvalidEscape { offset: 8 })
        );
        assert_eq!(
            Pointer::parse_fragment("#/%7E"),
            Err(PointerError::InvalidEscape { offset: 2 })
        );
    }

    #[test]
    fn errors_display_a_message() {
        let error = Pointer::parse("/~2").unwrap_err();
        assert_eq!(
            error.to_string(),
            "`~` at byte 1 must be followed by `0` (for `~`) or `1` (for `/`)"
        );
        let _: &dyn std::error::Error = &error;
    }
}
