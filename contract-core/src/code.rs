//! The stable error codes, one constant each. Generated code and the runtime
//! both name these constants, so a code is spelled once; [`ALL`] lists every
//! code with its stage, and a test keeps the table in [`crate::error`]'s docs
//! equal to it.
//!
//! These are the codes of [`Error`](crate::Error)s. Two other vocabularies
//! are not codes and stay with their module: the kinds of
//! [`compat::Change`](crate::compat::Change) (differences between two
//! schemas) and the `rule` names of a schema's `x-contract-rules` entries
//! ([`crate::schema`]).
use crate::error::Stage;

macro_rules! codes {
    ($($stage:ident $name:ident = $code:literal: $doc:literal;)*) => {
        $(
            #[doc = $doc]
            pub const $name: &str = $code;
        )*
        /// Every code the runtime and generated code emit, with its stage
        /// (a `check` function's own codes are the application's).
        pub const ALL: &[(Stage, &str)] = &[$((Stage::$stage, $code)),*];
    };
}

codes! {
    Parse TOO_LARGE = "too_large": "The input is longer than `max_bytes` (checked before any parsing).";
    Parse TOO_DEEP = "too_deep": "Arrays/objects nested deeper than `max_depth`.";
    Parse INVALID_UTF8 = "invalid_utf8": "The bytes are not UTF-8.";
    Parse BYTE_ORDER_MARK = "byte_order_mark": "The input starts with U+FEFF.";
    Parse SYNTAX = "syntax": "Anything else that is not JSON (a stray character, NaN, a comment, …).";
    Parse UNEXPECTED_END = "unexpected_end": "The input ends inside a value.";
    Parse TRAILING_DATA = "trailing_data": "Something other than whitespace follows the value.";
    Parse INVALID_NUMBER = "invalid_number": "A number that breaks JSON's grammar (`01`, `[1.]`, `-a`).";
    Parse NUMBER_OVERFLOW = "number_overflow": "A number too large for an f64 (`1e400`).";
    Parse INVALID_ESCAPE = "invalid_escape": "A bad `\\` escape in a string.";
    Parse LONE_SURROGATE = "lone_surrogate": "A `\\uD800`-style escape without its pair.";
    Parse CONTROL_CHARACTER = "control_character": "An unescaped control character inside a string.";
    Parse DUPLICATE_KEY = "duplicate_key": "An object has the same key twice (compared after unescaping).";
    Schema INVALID_TYPE = "invalid_type": "The value has the wrong JSON type.";
    Schema UNKNOWN_KEY = "unknown_key": "A key the contract does not declare (pointer: the member).";
    Schema MISSING_KEY = "missing_key": "A declared key is absent (pointer: the member).";
    Schema OUT_OF_RANGE = "out_of_range": "An integer or float that the field's Rust type cannot hold.";
    Schema BELOW_MINIMUM = "below_minimum": "Below `min`.";
    Schema ABOVE_MAXIMUM = "above_maximum": "Above `max`.";
    Schema TOO_SHORT = "too_short": "Shorter than `min_len` (Unicode scalar values, or items).";
    Schema TOO_LONG = "too_long": "Longer than `max_len` (Unicode scalar values, or items).";
    Schema NOT_EQUAL = "not_equal": "Not the `equals` constant.";
    Schema NOT_ONE_OF = "not_one_of": "Not in `one_of`, or a string that names no variant of an enum.";
    Schema UNKNOWN_VARIANT = "unknown_variant": "A tagged union's tag names no variant (pointer: the tag; the message lists the allowed values).";
    Schema UNKNOWN_TOOL = "unknown_tool": "A tool call names no tool of a tools enum (pointer: `/name`; the message lists the tools).";
    Schema INVALID_DATE = "invalid_date": "Not a strict, calendar-valid `YYYY-MM-DD`.";
    Schema INVALID_DATE_TIME = "invalid_date_time": "Not a strict RFC 3339 date-time with an offset, a valid day and clock (no leap second, at most 9 fraction digits).";
    Schema PATTERN_MISMATCH = "pattern_mismatch": "A string with no match of the field's `pattern` (a search, as JSON Schema's: anchor with `^`/`$`).";
    Schema INVALID_EMAIL = "invalid_email": "Not a valid e-mail address (`format = \"email\"`: WHATWG HTML's production).";
    Schema INVALID_UUID = "invalid_uuid": "Not a UUID written 8-4-4-4-12 in hexadecimal (`format = \"uuid\"`).";
    Schema BORROWED_STRING = "borrowed_string": "A `&str` field's string cannot be borrowed from the text: it has escapes (or the text is a stream's own); declare the field `Cow<'a, str>`.";
    Rule REQUIRED = "required": "A `when(.., require(..))` field is null.";
    Rule FORBIDDEN = "forbidden": "A `when(.., forbid(..))` field is not null.";
    Rule ORDER = "order": "An `order(a <= b)` / `order(a < b)` does not hold (pointer: `b`).";
    Rule DUPLICATE_CALL_ID = "duplicate_call_id": "Two calls of one batch have the same id (pointer: the later call's `/{i}/id`).";
    Rule TOO_MANY_CALLS = "too_many_calls": "A batch holds more calls than `max_calls` (pointer: `\"\"`), or more calls of one tool than its `max_calls` (pointer: the first call past it, `/{i}`).";
    Business EVIDENCE_NOT_FOUND = "evidence_not_found": "An `evidence` string does not occur in the source text.";
    Business NOT_IN_CONTEXT = "not_in_context": "A `one_of = ctx.FIELD` value is none of that context field's values.";
    Edit CHANGE_NOT_ALLOWED = "change_not_allowed": "An edit changed a pointer its policy does not list.";
    Edit INVALID_PATCH = "invalid_patch": "A JSON Patch that is not one: not an array of operations, an unknown `op`, a member its `op` does not take or lacks, a pointer that is not RFC 6901 (pointer: into the patch).";
    Edit PATH_NOT_FOUND = "path_not_found": "A patch operation names no value, or no place to add one (pointer: the operation's `path` or `from`).";
    Edit TEST_FAILED = "test_failed": "A patch's `test` found another value (pointer: the operation's `value`).";
}

#[cfg(test)]
mod tests {
    use super::ALL;

    // The table in `error`'s docs names exactly the codes of `ALL`, each
    // under its stage.
    #[test]
    fn error_docs_table_lists_every_code() {
        let docs = include_str!("error/mod.rs");
        let mut documented = Vec::new();
        for line in docs.lines().filter_map(|l| l.strip_prefix("//! | ")) {
            let cells: Vec<&str> = line.split(" | ").collect();
            if cells.len() < 2 || cells[0] == "stage" || cells[0].starts_with("---") {
                continue;
            }
            for code in cells[1].split(" / ") {
                if let Some(code) = code.strip_prefix('`').and_then(|c| c.strip_suffix('`')) {
                    documented.push((cells[0].to_string(), code.to_string()));
                }
            }
        }
        let expected: Vec<(String, String)> = ALL
            .iter()
            .map(|(stage, code)| (stage.as_str().to_string(), code.to_string()))
            .collect();
        assert_eq!(documented, expected);
    }
}
