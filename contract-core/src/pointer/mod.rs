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
use std::fmt;

mod escape;
mod parsed;

pub(crate) use escape::needs_escape;
pub(crate) use escape::unescape_at;
pub use escape::{child, escape, push_escaped, push_index, unescape};
pub use parsed::Pointer;

/// Why a string is not a JSON Pointer.
///
/// ```
/// use contract_runtime::pointer::{Pointer, PointerError};
///
/// assert_eq!(Pointer::parse("a"), Err(PointerError::MissingLeadingSlash));
/// assert_eq!(Pointer::parse("/a~2"), Err(PointerError::InvalidEscape { offset: 2 }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;
