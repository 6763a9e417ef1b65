//! Errors as data: every failure is an [`Error`] with a [`Stage`], an RFC 6901
//! pointer, a stable snake_case code and a message; a [`Rejection`] holds all of
//! them (capped at [`MAX_ERRORS`]).
//!
//! # Stable codes
//!
//! | stage | code | when |
//! |---|---|---|
//! | parse | `too_large` | the input is longer than `max_bytes` (checked before any parsing) |
//! | parse | `too_deep` | arrays/objects nested deeper than `max_depth` |
//! | parse | `invalid_utf8` | the bytes are not UTF-8 |
//! | parse | `byte_order_mark` | the input starts with U+FEFF |
//! | parse | `syntax` | anything else that is not JSON (a stray character, NaN, a comment, …) |
//! | parse | `unexpected_end` | the input ends inside a value |
//! | parse | `trailing_data` | something other than whitespace follows the value |
//! | parse | `invalid_number` | a number that breaks JSON's grammar (`01`, `[1.]`, `-a`) |
//! | parse | `number_overflow` | a number too large for an f64 (`1e400`) |
//! | parse | `invalid_escape` | a bad `\` escape in a string |
//! | parse | `lone_surrogate` | a `\uD800`-style escape without its pair |
//! | parse | `control_character` | an unescaped control character inside a string |
//! | parse | `duplicate_key` | an object has the same key twice (compared after unescaping) |
//! | schema | `invalid_type` | the value has the wrong JSON type (`"7"` for an integer, `7.0` for an integer, a non-object root) |
//! | schema | `unknown_key` | a key the contract does not declare (pointer: the member) |
//! | schema | `missing_key` | a declared key is absent (pointer: the member) |
//! | schema | `out_of_range` | an integer or float that the field's Rust type cannot hold |
//! | schema | `below_minimum` / `above_maximum` | `min` / `max` |
//! | schema | `too_short` / `too_long` | `min_len` / `max_len` (Unicode scalar values, or items) |
//! | schema | `not_equal` | `equals` |
//! | schema | `not_one_of` | `one_of`, or a string that names no variant of an enum |
//! | schema | `unknown_variant` | a tagged union's tag names no variant (pointer: the tag; the message lists the allowed values) |
//! | schema | `unknown_tool` | a tool call names no tool of a tools enum (pointer: `/name`; the message lists the tools) |
//! | schema | `invalid_date` | not a strict, calendar-valid `YYYY-MM-DD` |
//! | schema | `invalid_date_time` | not a strict RFC 3339 date-time with an offset (`DateTime`): a valid day and clock, no leap second, at most 9 fraction digits |
//! | schema | `pattern_mismatch` | a string in which the field's `pattern` finds no match |
//! | schema | `invalid_email` | not a valid e-mail address (`format = "email"`) |
//! | schema | `invalid_uuid` | not a UUID `8-4-4-4-12` in hexadecimal (`format = "uuid"`) |
//! | schema | `borrowed_string` | a `&'a str` field's string cannot be borrowed from the text: it has escapes, or the text is a stream's own (declare the field `Cow<'a, str>`) |
//! | rule | `required` | a `when(.., require(..))` field is null |
//! | rule | `forbidden` | a `when(.., forbid(..))` field is not null |
//! | rule | `order` | an `order(a <= b)` / `order(a < b)` does not hold (pointer: `b`) |
//! | rule | `duplicate_call_id` | two calls of one batch have the same id (pointer: the later call's `/{i}/id`) |
//! | rule | `too_many_calls` | a batch holds more calls than `max_calls` (pointer: `""`), or more calls of one tool than its `max_calls` (pointer: the first call past it, `/{i}`) |
//! | business | `evidence_not_found` | an `evidence` string does not occur in the source text, or is empty or only whitespace |
//! | business | `not_in_context` | a `one_of = ctx.FIELD` value (or item) is none of the values of that field of the context (unless the `check` function gave a reason at the same pointer) |
//! | business | (yours) | whatever a `check` function returns |
//! | edit | `change_not_allowed` | an edit changed a pointer its policy does not list |
//! | edit | `invalid_patch` | a JSON Patch that is not one: not an array of operations, an unknown `op`, a member its `op` does not take or lacks, a pointer that is not RFC 6901 (pointer: into the patch) |
//! | edit | `path_not_found` | a patch operation names no value (`remove`, `replace`, `test`, a `from`) or no place to add (pointer: the operation's `path` or `from`) |
//! | edit | `test_failed` | a patch's `test` found another value (pointer: the operation's `value`) |
use std::borrow::Cow;
use std::fmt;

mod pointer;

pub use pointer::PointerString;

/// At most this many errors are kept in one [`Rejection`]; the rest are counted
/// in [`Rejection::omitted`].
pub const MAX_ERRORS: usize = 64;

/// The check that found an error, in the order the checks run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Stage {
    /// The bytes are not JSON under the strict policy.
    Parse,
    /// The JSON does not have the declared shape.
    Schema,
    /// A cross-field rule (`when`, `order`) does not hold.
    Rule,
    /// A check against trusted context (`check`, `evidence`) failed.
    Business,
    /// An edit changed a pointer that its policy does not allow.
    Edit,
}

impl Stage {
    /// Every stage, in the order the checks run.
    pub const ALL: [Stage; 5] = [
        Stage::Parse,
        Stage::Schema,
        Stage::Rule,
        Stage::Business,
        Stage::Edit,
    ];

    /// The stage's name as serialized: `"parse"`, `"schema"`, ….
    pub const fn as_str(self) -> &'static str {
        match self {
            Stage::Parse => "parse",
            Stage::Schema => "schema",
            Stage::Rule => "rule",
            Stage::Business => "business",
            Stage::Edit => "edit",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One thing wrong with a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Which check found it.
    pub stage: Stage,
    /// RFC 6901 pointer: the member for unknown, missing and duplicate keys,
    /// the value for type and range errors, the field a rule names; `""` is
    /// the whole document.
    pub pointer: PointerString,
    /// A stable snake_case code (see the table in this module's docs).
    pub code: &'static str,
    /// A human-readable explanation. It may quote the offending value: send
    /// [`Rejection::feedback`] to a model, never this. Borrowed when the
    /// message is fixed text, so most errors cost no allocation for it.
    pub message: Cow<'static, str>,
    /// 1-based line of a parse error.
    pub line: Option<usize>,
    /// 1-based column (in characters) of a parse error.
    pub column: Option<usize>,
    /// What was expected, in words safe to show a model (no input values).
    pub expected: Cow<'static, str>,
}

impl Error {
    /// An error of `stage` at `pointer`.
    pub fn new(
        stage: Stage,
        pointer: impl Into<PointerString>,
        code: &'static str,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        Error {
            stage,
            pointer: pointer.into(),
            code,
            message: message.into(),
            line: None,
            column: None,
            expected: Cow::Borrowed(""),
        }
    }

    /// Sets what was expected (shown in model feedback; must not quote input).
    pub fn with_expected(mut self, expected: impl Into<Cow<'static, str>>) -> Self {
        self.expected = expected.into();
        self
    }

    /// Sets the position of a parse error.
    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() {
            "(root)"
        } else {
            self.pointer.as_str()
        };
        write!(
            f,
            "{} error at {pointer}: {} ({})",
            self.stage, self.message, self.code
        )?;
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, " at line {line}, column {column}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// Why a document was refused: every error found, in document order within a
/// stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// The errors (at most [`MAX_ERRORS`]).
    pub errors: Vec<Error>,
    /// How many further errors were found but not kept.
    pub omitted: usize,
    /// Whether reading stopped once the errors asked for were found
    /// ([`Contract::from_json_first`](crate::Contract::from_json_first)):
    /// the rest of the document was not read, so it may hold more errors
    /// than `errors.len() + omitted`. Always `false` from the other entry
    /// points, which read every document to its end.
    pub truncated: bool,
}

impl Rejection {
    /// A rejection holding one error.
    pub fn single(error: Error) -> Self {
        Rejection {
            errors: vec![error],
            omitted: 0,
            truncated: false,
        }
    }

    /// A rejection from a list of errors (capped at [`MAX_ERRORS`]).
    pub fn from_errors(mut errors: Vec<Error>) -> Self {
        let omitted = errors.len().saturating_sub(MAX_ERRORS);
        errors.truncate(MAX_ERRORS);
        Rejection {
            errors,
            omitted,
            truncated: false,
        }
    }

    /// The earliest stage that failed (parse before schema before rule …).
    pub fn stage(&self) -> Option<Stage> {
        self.errors.iter().map(|e| e.stage).min()
    }

    /// Whether any error has this code.
    pub fn has_code(&self, code: &str) -> bool {
        self.errors.iter().any(|e| e.code == code)
    }

    /// The pointers of the errors, in order.
    pub fn pointers(&self) -> Vec<&str> {
        self.errors.iter().map(|e| e.pointer.as_str()).collect()
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.errors.len() + self.omitted;
        write!(
            f,
            "rejected with {n} error{}",
            if n == 1 { "" } else { "s" }
        )?;
        for e in &self.errors {
            write!(f, "\n  {e}")?;
        }
        if self.omitted > 0 {
            write!(f, "\n  … and {} more", self.omitted)?;
        }
        if self.truncated {
            write!(f, "\n  … reading stopped here; the rest was not checked")?;
        }
        Ok(())
    }
}

impl std::error::Error for Rejection {}

crate::serial::unit_variants!(Stage);
crate::serial::struct_fields!(Error {
    stage,
    pointer,
    code,
    message,
    line if Option::is_none,
    column if Option::is_none,
});
crate::serial::struct_fields!(Rejection {
    errors,
    omitted if crate::serial::is_zero,
    truncated if crate::serial::is_false,
});

#[cfg(test)]
mod tests {
    use super::{Error, PointerString, Rejection, Stage};

    fn error_at(pointer: &str) -> Error {
        Error::new(Stage::Schema, pointer, "invalid_type", "expected a string")
    }

    // What code outside the crate does with `Error::pointer`, as it did with
    // a `String`.
    #[test]
    fn the_pointer_reads_as_a_string() {
        let e = error_at("/a/0");
        assert_eq!(e.pointer, "/a/0");
        assert_eq!(e.pointer, *"/a/0");
        assert_eq!(e.pointer, String::from("/a/0"));
        assert_eq!("/a/0", e.pointer);
        assert_eq!(String::from("/a/0"), e.pointer);
        assert_eq!(e.pointer.as_str(), "/a/0");
        assert_eq!(&e.pointer[..], "/a/0");
        assert!(e.pointer.starts_with("/a"));
        assert_eq!(format!("{}", e.pointer), "/a/0");
        assert_eq!(format!("{:?}", e.pointer), format!("{:?}", "/a/0"));
        assert_eq!(e.pointer.clone(), "/a/0");
        assert_eq!(String::from(e.pointer.clone()), "/a/0");
        assert_eq!(e.pointer.to_string(), "/a/0");
        let owned = Error::new(Stage::Schema, String::from("/b"), "x", "y");
        assert_eq!(owned.pointer, "/b");
    }

    // A rejection serializes as it did with `String` pointers.
    #[test]
    fn a_rejection_serializes_the_pointer_as_a_plain_string() {
        let rejection = Rejection::single(error_at("/a~1b/0"));
        assert_eq!(
            serde_json::to_string(&rejection).unwrap(),
            r#"{"errors":[{"stage":"schema","pointer":"/a~1b/0","code":"invalid_type","message":"expected a string"}]}"#
        );
        let back: PointerString = serde_json::from_str(r#""/a~1b/0""#).unwrap();
        assert_eq!(back, "/a~1b/0");
    }
}
