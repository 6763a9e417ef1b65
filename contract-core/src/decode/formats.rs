//! String checks beyond length and value: `pattern` (a regular expression
//! searched in the string, as JSON Schema's `pattern`) and `format`
//! (`email`, `uuid`).
//!
//! # The pattern engine
//!
//! `regex-lite`: linear-time matching (no catastrophic backtracking on a
//! hostile string), a small build and binary, and ASCII `\d`, `\w`, `\b` —
//! the meanings ECMA-262 gives them, which JSON Schema's `pattern` uses
//! (BENCHMARKS.md has the figures against `regex`). The derive has already
//! refused every construct whose meaning differs between the two dialects
//! and rewritten `.` so that, as in ECMA-262, it matches no line terminator;
//! generated code hands this module that rewritten form.
use std::sync::OnceLock;

use crate::code;
use crate::error::Stage;
use crate::json::Path;
use crate::json_type::Collector;

/// Twice the size limit the derive compiles each pattern with (10 MiB,
/// `regex-lite`'s default): the size of a compiled matcher depends on the
/// pointer width, so the margin makes every pattern that compiled on the
/// host that built the contract compile on any target.
const SIZE_LIMIT: usize = 2 * 10 * (1 << 20);

/// A field's `pattern`, compiled on first use and kept for the process.
///
/// Generated code holds one in a `static`. The derive has compiled the same
/// source with the same `regex-lite` (Cargo builds one version of it for
/// both) within half of this size limit, and refused the contract
/// otherwise, so compiling here cannot fail for a derived contract. Were it
/// to fail (a hand-built `Pattern`), every value is reported as a
/// `pattern_mismatch` saying so, never a panic.
#[derive(Debug)]
pub struct Pattern {
    /// The pattern as `regex-lite` reads it.
    source: &'static str,
    compiled: OnceLock<Option<regex_lite::Regex>>,
}

impl Pattern {
    /// A pattern in `regex-lite`'s syntax, not compiled yet: the engine form
    /// of a pattern the derive has compiled.
    #[must_use]
    pub const fn new(source: &'static str) -> Pattern {
        Pattern {
            source,
            compiled: OnceLock::new(),
        }
    }

    /// Whether the pattern matches somewhere in `s` (a search: anchor with
    /// `^` and `$` to match the whole string), or `None` if the pattern does
    /// not compile.
    pub fn is_match(&self, s: &str) -> Option<bool> {
        self.compiled
            .get_or_init(|| {
                regex_lite::RegexBuilder::new(self.source)
                    .size_limit(SIZE_LIMIT)
                    .build()
                    .ok()
            })
            .as_ref()
            .map(|re| re.is_match(s))
    }
}

/// Records `pattern_mismatch` unless `pattern` matches in `value`.
#[inline]
pub fn check_pattern(
    cx: &mut Collector,
    path: &Path<'_>,
    pattern: &Pattern,
    value: &str,
    message: &'static str,
    expected: &'static str,
) {
    match pattern.is_match(value) {
        Some(true) => {}
        Some(false) => cx.error(
            Stage::Schema,
            path,
            code::PATTERN_MISMATCH,
            message,
            expected,
        ),
        None => cx.error(
            Stage::Schema,
            path,
            code::PATTERN_MISMATCH,
            "the contract's pattern could not be compiled, so no value can match it",
            expected,
        ),
    }
}

pub use crate::describe::Format;

/// Records `invalid_email` / `invalid_uuid` unless `value` is of `format`.
#[inline]
pub fn check_format(cx: &mut Collector, path: &Path<'_>, format: Format, value: &str) {
    match format {
        Format::Email if !is_email(value) => cx.error(
            Stage::Schema,
            path,
            code::INVALID_EMAIL,
            "not a valid e-mail address: letters, digits and !#$%&'*+/=?^_`{|}~.- before one @, \
             then dot-separated labels of letters, digits and inner hyphens",
            "an e-mail address such as name@example.com",
        ),
        Format::Uuid if !is_uuid(value) => cx.error(
            Stage::Schema,
            path,
            code::INVALID_UUID,
            "not a UUID: 32 hexadecimal digits grouped 8-4-4-4-12 by hyphens",
            "a UUID such as 123e4567-e89b-12d3-a456-426614174000",
        ),
        _ => {}
    }
}

/// WHATWG HTML's "valid e-mail address":
/// `1*( atext / "." ) "@" label *( "." label )`, a label being 1 to 63
/// ASCII letters, digits and hyphens that neither starts nor ends with a
/// hyphen.
///
/// It is stricter than RFC 5321 (JSON Schema's `email`): no quoted local
/// part, no IP-address literal, no comments, ASCII only; and looser in one
/// way: a domain of one label (`admin@localhost`) is valid, and dots may
/// repeat or lead in the local part (`.a..b@example.com`), as the
/// production says.
///
/// ```
/// use contract_runtime::formats::is_email;
///
/// assert!(is_email("ana.lopez+tickets@example.com"));
/// assert!(is_email("admin@localhost"));
/// assert!(!is_email("ana@-example.com"));
/// assert!(!is_email("\"ana\"@example.com"));
/// ```
#[must_use]
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let atext = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~-.".contains(&b);
    !local.is_empty()
        && local.bytes().all(atext)
        && domain.split('.').all(|label| {
            let b = label.as_bytes();
            (1..=63).contains(&b.len())
                && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
                && b.first() != Some(&b'-')
                && b.last() != Some(&b'-')
        })
}

/// `8-4-4-4-12` hexadecimal digits, upper or lower case (RFC 9562's
/// textual form, which JSON Schema's `uuid` reads case-insensitively). The
/// version and variant digits are not checked: the nil and max UUIDs and
/// every version pass.
///
/// ```
/// use contract_runtime::formats::is_uuid;
///
/// assert!(is_uuid("123e4567-e89b-12d3-a456-426614174000"));
/// assert!(is_uuid("123E4567-E89B-12D3-A456-426614174000"));
/// assert!(!is_uuid("123e4567e89b12d3a456426614174000"));
/// assert!(!is_uuid("{123e4567-e89b-12d3-a456-426614174000}"));
/// ```
#[must_use]
pub fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

#[cfg(test)]
mod tests {
    use super::{Pattern, is_email, is_uuid};

    #[test]
    fn email_follows_the_whatwg_production() {
        for ok in [
            "a@b",
            "first.last@example.com",
            "x+y@sub.example.co",
            "!#$%&'*+/=?^_`{|}~-@example.com",
            ".dots..anywhere.@example.com",
            "a@a-b.c",
            "a@1.2.3.4",
        ] {
            assert!(is_email(ok), "{ok}");
        }
        let long_label = format!("a@{}.com", "x".repeat(64));
        for bad in [
            "",
            "@example.com",
            "a@",
            "a@@b",
            "a@b@c",
            "a b@example.com",
            "\"a\"@example.com",
            "a@example..com",
            "a@.example.com",
            "a@example.com.",
            "a@-example.com",
            "a@example-.com",
            "a@[127.0.0.1]",
            "ä@example.com",
            "a@exämple.com",
            "a@example.com\n",
            long_label.as_str(),
        ] {
            assert!(!is_email(bad), "{bad:?}");
        }
        assert!(is_email(&format!("a@{}.com", "x".repeat(63))));
    }

    #[test]
    fn uuid_is_8_4_4_4_12_hex_in_either_case() {
        for ok in [
            "00000000-0000-0000-0000-000000000000",
            "ffffffff-ffff-ffff-ffff-ffffffffffff",
            "123E4567-e89b-12D3-a456-426614174000",
        ] {
            assert!(is_uuid(ok), "{ok}");
        }
        for bad in [
            "",
            "123e4567-e89b-12d3-a456-42661417400",
            "123e4567-e89b-12d3-a456-4266141740000",
            "123e4567e-89b-12d3-a456-426614174000",
            "123e4567-e89b-12d3-a456-42661417400g",
            "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
            " 123e4567-e89b-12d3-a456-426614174000",
            "123e4567-e89b-12d3-a456-4266141740０",
        ] {
            assert!(!is_uuid(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_pattern_that_does_not_compile_is_none_not_a_panic() {
        assert_eq!(Pattern::new("(").is_match("x"), None);
        assert_eq!(Pattern::new("b").is_match("abc"), Some(true));
        assert_eq!(Pattern::new("^b").is_match("abc"), Some(false));
    }
}
