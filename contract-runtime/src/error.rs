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

/// An [`Error`]'s pointer: the RFC 6901 string form, held inline (no heap
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
    // The first `len` bytes are UTF-8 (every constructor copies a `str`).
    Inline {
        len: u8,
        bytes: [u8; PointerString::INLINE],
    },
    Heap(String),
}

impl PointerString {
    /// The longest pointer held without a heap allocation, in bytes.
    pub const INLINE: usize = 30;

    /// The root pointer, `""`.
    pub const fn new() -> Self {
        PointerString(Repr::Inline {
            len: 0,
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
            Repr::Inline { len, bytes } => bytes.get(..usize::from(*len)).unwrap_or_default(),
            Repr::Heap(s) => s.as_bytes(),
        }
    }

    /// The pointer as a `String`.
    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Inline { .. } => self.as_str().to_owned(),
            Repr::Heap(s) => s,
        }
    }

    /// Appends `s`.
    pub fn push_str(&mut self, s: &str) {
        self.insert_str(self.len(), s);
    }

    /// Inserts `s` at byte `index` (a `char` boundary, as
    /// [`String::insert_str`]; the pointer is unchanged if it is not).
    pub fn insert_str(&mut self, index: usize, s: &str) {
        if let Repr::Heap(string) = &mut self.0 {
            if string.is_char_boundary(index) {
                string.insert_str(index, s);
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
        if len <= PointerString::INLINE {
            Builder::Inline {
                len: 0,
                bytes: [0; PointerString::INLINE],
            }
        } else {
            Builder::Heap(String::with_capacity(len))
        }
    }

    /// The pointer of the first `len` bytes of `bytes`, written by
    /// [`Path::pointer`](crate::json::Path::pointer) from whole `str`s and
    /// ASCII bytes (so UTF-8; [`PointerString::as_str`] checks it all the
    /// same). The root past [`PointerString::INLINE`] bytes.
    #[inline]
    pub(crate) fn inline(bytes: [u8; PointerString::INLINE], len: usize) -> Self {
        match u8::try_from(len) {
            Ok(len) if usize::from(len) <= PointerString::INLINE => {
                PointerString(Repr::Inline { len, bytes })
            }
            _ => PointerString::new(),
        }
    }
}

enum Builder {
    Inline {
        len: usize,
        bytes: [u8; PointerString::INLINE],
    },
    Heap(String),
}

impl Builder {
    fn push(&mut self, s: &str) {
        match self {
            Builder::Inline { len, bytes } => {
                let end = *len + s.len();
                if let Some(to) = bytes.get_mut(*len..end) {
                    to.copy_from_slice(s.as_bytes());
                    *len = end;
                }
            }
            Builder::Heap(string) => string.push_str(s),
        }
    }

    fn finish(self) -> PointerString {
        match self {
            // `len` never passes `INLINE`, which fits a `u8`.
            Builder::Inline { len, bytes } => PointerString(Repr::Inline {
                len: u8::try_from(len).unwrap_or(0),
                bytes,
            }),
            Builder::Heap(s) => PointerString(Repr::Heap(s)),
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
    /// Keeps the string's allocation when it has one: nothing is copied.
    fn from(s: String) -> Self {
        if s.capacity() == 0 {
            PointerString::new()
        } else {
            PointerString(Repr::Heap(s))
        }
    }
}

impl From<Box<str>> for PointerString {
    fn from(s: Box<str>) -> Self {
        PointerString::from(String::from(s))
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

impl serde::Serialize for PointerString {
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
