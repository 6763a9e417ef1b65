//! Where the scanner is, as an RFC 6901 pointer; the errors it stops with;
//! and what has arrived, closed into a document (for `partial`).
use super::{Scanner, State, Stop};
use crate::code;
use crate::error::{Error, Stage};

impl Scanner {
    /// The text of the members completed so far and the string being
    /// written, closed into a document (`None` when nothing is complete).
    pub(crate) fn completion(&self, text: &str) -> Option<String> {
        let in_string = self.state == State::InString;
        let (cut, quote) = match self.depth {
            0 if self.state == State::Done => (text.len(), false),
            0 if in_string => (self.string.safe, true),
            0 => return None,
            _ if in_string => (self.string.safe, true),
            depth => (self.frames.get(depth - 1)?.complete, false),
        };
        let mut out = String::with_capacity(cut + self.depth + 1);
        out.push_str(text.get(..cut)?);
        if quote {
            out.push('"');
        }
        for frame in self.frames.iter().take(self.depth).rev() {
            out.push(if frame.object { '}' } else { ']' });
        }
        Some(out)
    }

    /// The text so far with the string value being written closed where
    /// it stands: what the decoder reads to word an early error as `check`
    /// does.
    /// A date cut short after a 2-digit month (`2027-13`, `2027-02-3`) is
    /// completed from `0000-01-01` first, so that the decoder names the
    /// month or the day as the whole date would; cut anywhere else it is
    /// read as it stands (`2027-6` is most likely `2027-6-1`, whose shape
    /// is wrong).
    pub(crate) fn closed_string<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        let Some(cut) = text.get(..self.string.safe) else {
            return text.into();
        };
        if self.state != State::InString {
            return text.into();
        }
        let date = self.plan.node(self.string.expect.node).text.date;
        let after_month = matches!(self.string.chars, 7 | 9) && self.string.safe == text.len();
        let rest = match "0000-01-01".get(self.string.chars..) {
            Some(rest) if date && after_month => rest,
            _ => "",
        };
        format!("{cut}{rest}\"").into()
    }

    // The RFC 6901 pointer through the first `levels` open containers.
    // (`text`: the document, which holds the keys without escapes).
    pub(super) fn pointer(&self, text: &str, levels: usize) -> String {
        let mut out = String::new();
        for frame in self.frames.iter().take(levels) {
            if frame.object {
                crate::pointer::push_escaped(&mut out, frame.key(text));
            } else {
                crate::pointer::push_index(&mut out, frame.count);
            }
        }
        out
    }

    #[cold]
    #[inline(never)]
    pub(super) fn error_at(&self, pointer: String, code: &'static str) -> Stop {
        Stop::Schema(Box::new(Error::new(
            Stage::Schema,
            pointer,
            code,
            message(code),
        )))
    }

    // An error at the value being read.
    #[cold]
    #[inline(never)]
    pub(super) fn schema_error(&self, text: &str, code: &'static str) -> Stop {
        self.error_at(self.pointer(text, self.depth), code)
    }

    // An error at member `key` of the innermost object.
    #[cold]
    #[inline(never)]
    pub(super) fn member_error(&self, text: &str, key: &str, code: &'static str) -> Stop {
        let mut pointer = self.pointer(text, self.depth.saturating_sub(1));
        crate::pointer::push_escaped(&mut pointer, key);
        self.error_at(pointer, code)
    }
}

// The message of an early error the decoder does not reach in the text so
// far (the stream's `reword` gives the others `check`'s words).
pub(super) fn message(code: &'static str) -> &'static str {
    match code {
        code::UNKNOWN_KEY => "this key is not part of the contract",
        code::MISSING_KEY => "missing required key",
        code::INVALID_TYPE => "the value has the wrong JSON type",
        code::UNKNOWN_VARIANT => "this tag names no variant",
        code::UNKNOWN_TOOL => "no tool has this name",
        code::TOO_LONG => "longer than the maximum",
        code::TOO_SHORT => "shorter than the minimum",
        code::NOT_ONE_OF => "not one of the allowed values",
        code::NOT_EQUAL => "not the required constant",
        code::INVALID_DATE => "not a calendar date as YYYY-MM-DD",
        code::OUT_OF_RANGE => "the number does not fit the field's type",
        code::BELOW_MINIMUM => "below the minimum",
        code::ABOVE_MAXIMUM => "above the maximum",
        code::INVALID_DATE_TIME => "not an RFC 3339 date-time with an offset",
        code::INVALID_EMAIL => "not a valid e-mail address",
        code::INVALID_UUID => "not a UUID",
        code::PATTERN_MISMATCH => "does not match the pattern",
        code::REQUIRED => "must not be null under this condition",
        code::FORBIDDEN => "must be null under this condition",
        code::ORDER => "out of order with the field it follows",
        _ => "the value does not have the declared shape",
    }
}
