//! [`Pointer`]: a pointer parsed into its segments, from the string or the
//! URI-fragment form, and resolved against a value.
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use super::{PointerError, unescape_at};

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
