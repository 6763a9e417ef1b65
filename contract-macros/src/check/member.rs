//! A checked field as the checked model holds it: its constraints typed to
//! its kind, and what an absent key, `quarantine` and `evidence` mean for it.
use crate::attr::{Lit, LocatedLit};
use crate::checked::{self, Absent, Bounds, Constraint, Counts, Literal, Number};
use crate::model::Member;
use crate::pattern;
use crate::ty::Ty;

/// The checked member of `f`, once `check_field` has reported its mistakes
/// (with any, nothing is generated from it).
pub(super) fn checked<'c>(f: &'c Member<'c>) -> checked::Member<'c> {
    let a = &f.attrs;
    let kind = f.kind.strip_option();
    let nullable = f.kind.is_option();
    let absent = match (&a.optional, nullable) {
        (None, _) => Absent::Missing,
        (Some(_), true) => Absent::None,
        (Some(_), false) => Absent::Default,
    };
    checked::Member {
        ident: f.ident,
        ty: f.ty,
        kind,
        nullable,
        f32: is_f32(f.ty),
        borrows: f.borrows,
        json_name: &f.json_name,
        doc: f.doc.as_deref(),
        absent,
        quarantine: a.quarantine.is_some(),
        evidence: a.evidence.as_ref().map(syn::Ident::span),
        bound: a.one_of_ctx.as_ref().map(|b| checked::Bound {
            field: &b.value,
            tokens: &b.tokens,
            items: matches!(kind, Ty::Vec(_)),
        }),
        constraints: constraints(f, kind),
    }
}

// The constraints in the order the decoder checks them (a declared range
// first, so a type error can name it).
fn constraints(f: &Member<'_>, kind: &Ty) -> Vec<Constraint> {
    let a = &f.attrs;
    let mut constraints = Vec::new();
    let number = |l: &LocatedLit| number(kind, &l.value);
    let range = Bounds::of(
        a.min.as_ref().and_then(number),
        a.max.as_ref().and_then(number),
    );
    if let Some(bounds) = range {
        constraints.push(Constraint::Range(bounds));
    }
    let length = Bounds::of(
        a.min_len.as_ref().map(|l| l.value),
        a.max_len.as_ref().map(|l| l.value),
    );
    if let Some(bounds) = length {
        let counts = match kind {
            Ty::String => Counts::Characters,
            _ => Counts::Items,
        };
        constraints.push(Constraint::Length { bounds, counts });
    }
    if let Some(eq) = &a.equals {
        constraints.push(Constraint::Equals(literal(kind, &eq.value)));
    }
    if let Some(list) = &a.one_of {
        let values = list.value.iter().map(|l| literal(kind, &l.value)).collect();
        constraints.push(Constraint::OneOf(values));
    }
    if let Some(p) = &a.pattern {
        let written = p.value.value();
        // `check_strings` reported a pattern without an engine form.
        let engine = pattern::engine_form(&written).unwrap_or_else(|_| written.clone());
        constraints.push(Constraint::Pattern(checked::Pattern {
            written,
            engine,
            on_items: pattern_on_items(kind),
        }));
    }
    if let Some(format) = &a.format {
        constraints.push(Constraint::Format(format.value));
    }
    constraints
}

/// Whether `pattern` checks the items of this (non-optional) type: a
/// `Vec<String>`.
pub(super) fn pattern_on_items(ty: &Ty) -> bool {
    matches!(ty, Ty::Vec(item) if matches!(**item, Ty::String))
}

/// A literal of the member's kind: an integer literal on a float member is
/// a float.
pub(super) fn literal(kind: &Ty, lit: &Lit) -> Literal {
    match (kind, lit) {
        (Ty::Float, Lit::Int(i)) => Literal::Float(*i as f64),
        (_, Lit::Int(i)) => Literal::Int(*i),
        (_, Lit::Float(f)) => Literal::Float(*f),
        (_, Lit::Str(s)) => Literal::Str(s.clone()),
        (_, Lit::Bool(b)) => Literal::Bool(*b),
    }
}

// A bound's number (`check_field` reported one that is not a number).
fn number(kind: &Ty, lit: &Lit) -> Option<Number> {
    match literal(kind, lit) {
        Literal::Int(i) => Some(Number::Int(i)),
        Literal::Float(f) => Some(Number::Float(f)),
        Literal::Str(_) | Literal::Bool(_) => None,
    }
}

/// Whether the type is `f32` or `Option<f32>`.
fn is_f32(ty: &syn::Type) -> bool {
    let ty = crate::ty::option_inner(ty).unwrap_or(ty);
    matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("f32"))
}

#[cfg(test)]
mod tests {
    use crate::checked::{self, Absent, Bounds, Constraint, Counts, Literal, Number};
    use crate::ctxt::Ctxt;
    use crate::model::Container;

    // The checked members of a struct that passes every check.
    fn members_of(input: &str, test: impl FnOnce(&[checked::Member<'_>])) {
        let input: syn::DeriveInput = syn::parse_str(input).unwrap();
        let cx = Ctxt::new();
        let raw = Container::from_ast(&cx, &input).unwrap();
        let contract = crate::check::contract(&cx, &raw);
        if let Err(e) = cx.into_result() {
            panic!("the input has errors: {e}");
        }
        let checked::Body::Struct(s) = &contract.body else {
            panic!("not a struct");
        };
        test(&s.members);
    }

    #[test]
    fn an_integer_bound_on_a_float_member_is_a_float() {
        members_of("struct S { #[contract(min = 1, max = 2.5)] x: f64 }", |m| {
            let [Constraint::Range(Bounds::Between(min, max))] = m[0].constraints[..] else {
                panic!("not one range");
            };
            assert_eq!((min, max), (Number::Float(1.0), Number::Float(2.5)));
        });
    }

    #[test]
    fn constraints_come_in_the_order_they_are_checked() {
        members_of(
            r#"struct S { #[contract(format = "email", pattern = "@", max_len = 9, min_len = 3)] x: String }"#,
            |m| {
                let c = &m[0].constraints;
                assert!(matches!(
                    c[..],
                    [
                        Constraint::Length {
                            bounds: Bounds::Between(3, 9),
                            counts: Counts::Characters
                        },
                        Constraint::Pattern(_),
                        Constraint::Format(_),
                    ]
                ));
            },
        );
    }

    #[test]
    fn a_pattern_on_a_vec_of_strings_checks_its_items() {
        members_of(
            r#"struct S { #[contract(pattern = "^a", max_len = 2)] tags: Vec<String>, #[contract(pattern = "^a")] name: String }"#,
            |m| {
                let on_items = |f: &checked::Member<'_>| {
                    f.constraints.iter().find_map(|c| match c {
                        Constraint::Pattern(p) => Some(p.on_items),
                        _ => None,
                    })
                };
                assert_eq!(
                    (on_items(&m[0]), on_items(&m[1])),
                    (Some(true), Some(false))
                );
                assert!(matches!(
                    m[0].constraints[0],
                    Constraint::Length {
                        counts: Counts::Items,
                        ..
                    }
                ));
            },
        );
    }

    #[test]
    fn one_of_literals_are_of_the_member_s_kind() {
        members_of(
            r#"struct S { #[contract(one_of = ["a", "b"])] s: String, #[contract(equals = 3)] n: Option<u8> }"#,
            |m| {
                let Constraint::OneOf(values) = &m[0].constraints[0] else {
                    panic!("not one_of");
                };
                assert_eq!(
                    values,
                    &[Literal::Str("a".into()), Literal::Str("b".into())]
                );
                let Constraint::Equals(value) = &m[1].constraints[0] else {
                    panic!("not equals");
                };
                assert_eq!(value, &Literal::Int(3));
                assert!(m[1].nullable);
            },
        );
    }

    #[test]
    fn an_absent_key_means_what_optional_says() {
        members_of(
            "struct S { a: u8, #[contract(optional)] b: Option<u8>, #[contract(optional, default)] c: u8 }",
            |m| {
                let absent: Vec<Absent> = m.iter().map(|f| f.absent).collect();
                assert!(absent == [Absent::Missing, Absent::None, Absent::Default]);
            },
        );
    }
}
