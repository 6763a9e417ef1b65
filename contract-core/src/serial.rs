//! `Serialize` for the crate's plain data types, written out rather than
//! derived: `serde`'s derive is a proc-macro crate of its own, and the
//! runtime's clean build is shorter without it (BENCHMARKS.md, "Compile
//! time"). The forms are exactly the derive's: a struct is a
//! `serialize_struct` of its fields in declaration order (a field with a
//! skip test left out when the test holds), a unit enum a
//! `serialize_unit_variant` of its wire name.

/// `impl Serialize` for a struct with named fields:
/// `struct_fields!(Type { field, other if skip_test })`; `skip_test` is a
/// `fn(&FieldType) -> bool` that leaves the field out when it holds.
macro_rules! struct_fields {
    ($ty:ident { $($field:ident $(if $skip:path)?),* $(,)? }) => {
        impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use ::serde::ser::SerializeStruct as _;
                let len = 0 $(+ $crate::serial::kept(&self.$field, $crate::serial::skip!($($skip)?)))*;
                let mut state = serializer.serialize_struct(stringify!($ty), len)?;
                $(
                    if $crate::serial::kept(&self.$field, $crate::serial::skip!($($skip)?)) == 1 {
                        state.serialize_field(stringify!($field), &self.$field)?;
                    } else {
                        state.skip_field(stringify!($field))?;
                    }
                )*
                state.end()
            }
        }
    };
}

/// `impl Serialize` for a `Copy` unit enum without explicit discriminants
/// (a variant's index is its discriminant) whose `as_str` gives each
/// variant's wire name: `unit_variants!(Type)`.
macro_rules! unit_variants {
    ($ty:ident) => {
        impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_unit_variant(stringify!($ty), *self as u32, self.as_str())
            }
        }
    };
}

/// The skip test of a field, or none.
macro_rules! skip {
    () => {
        $crate::serial::never
    };
    ($skip:path) => {
        $skip
    };
}

pub(crate) use {skip, struct_fields, unit_variants};

/// 1 if the field is written, 0 if its skip test leaves it out.
pub(crate) fn kept<T: ?Sized>(value: &T, skip: fn(&T) -> bool) -> usize {
    usize::from(!skip(value))
}

/// The skip test of a field that is always written.
pub(crate) fn never<T: ?Sized>(_: &T) -> bool {
    false
}

/// `skip_serializing_if` for counts.
pub(crate) fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// `skip_serializing_if` for flags.
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

#[cfg(test)]
mod tests {
    use crate::error::{Error, Rejection, Stage};
    use crate::outcome::{OutcomeKind, Violation};

    // What serde's derive writes for the same declarations.
    #[derive(serde::Serialize)]
    struct DerivedError<'a> {
        stage: DerivedStage,
        pointer: &'a str,
        code: &'static str,
        message: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        line: Option<usize>,
        #[serde(skip_serializing_if = "Option::is_none")]
        column: Option<usize>,
    }

    #[derive(serde::Serialize)]
    #[serde(rename_all = "snake_case")]
    #[allow(dead_code)]
    enum DerivedStage {
        Parse,
        Schema,
        Rule,
    }

    #[derive(serde::Serialize)]
    struct DerivedRejection<'a> {
        errors: Vec<DerivedError<'a>>,
        #[serde(skip_serializing_if = "super::is_zero")]
        omitted: usize,
        #[serde(skip_serializing_if = "super::is_false")]
        truncated: bool,
    }

    fn derived(error: &Error) -> DerivedError<'_> {
        DerivedError {
            stage: match error.stage {
                Stage::Parse => DerivedStage::Parse,
                Stage::Schema => DerivedStage::Schema,
                _ => DerivedStage::Rule,
            },
            pointer: &error.pointer,
            code: error.code,
            message: &error.message,
            line: error.line,
            column: error.column,
        }
    }

    #[test]
    fn the_written_out_impls_write_what_the_derive_writes() {
        let mut parse = Error::new(
            Stage::Parse,
            "",
            "trailing_characters",
            "text after the value",
        );
        parse.line = Some(2);
        parse.column = Some(7);
        let schema = Error::new(Stage::Schema, "/a/0", "type_mismatch", "expected a string");
        let rule = Error::new(Stage::Rule, "/end", "rule_order", "end before start");
        for (omitted, truncated) in [(0, false), (3, false), (0, true), (5, true)] {
            let errors = vec![parse.clone(), schema.clone(), rule.clone()];
            let ours = Rejection {
                errors: errors.clone(),
                omitted,
                truncated,
            };
            let theirs = DerivedRejection {
                errors: errors.iter().map(derived).collect(),
                omitted,
                truncated,
            };
            assert_eq!(
                serde_json::to_string(&ours).unwrap(),
                serde_json::to_string(&theirs).unwrap()
            );
        }
        assert_eq!(
            serde_json::to_string(&OutcomeKind::Clarify).unwrap(),
            r#""clarify""#
        );
        assert_eq!(
            serde_json::to_string(&Violation::review("/x", "c", "m")).unwrap(),
            r#"{"kind":"review","pointer":"/x","code":"c","message":"m"}"#
        );
    }
}
