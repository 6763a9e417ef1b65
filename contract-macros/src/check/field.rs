//! Field attributes against the field's type.
use quote::ToTokens;

use crate::attr::{Lit, LocatedLit};
use crate::ctxt::Ctxt;
use crate::model::Member;
use crate::ty::Ty;

// Field attributes must fit the field's type: numeric bounds on numbers
// (and within the type's range), lengths on strings and `Vec`s, literals of
// the field's own type, `optional`/`default` together, `evidence` on strings
// with a context, `quarantine` on an `Option`; `pattern`/`format` as
// `strings.rs` says.
pub(super) fn check_field(cx: &Ctxt, has_context: bool, f: &Member<'_>) {
    if let Ty::Unsupported(why) = &f.kind {
        cx.error_spanned_by(f.ty, format!("unsupported field type: {why}"));
        return;
    }
    super::strings::check_strings(cx, f);
    let a = &f.attrs;
    let inner = f.kind.strip_option();
    let numeric = matches!(inner, Ty::Int(_) | Ty::Float);

    // `min`/`max` are numeric bounds the field's type must be able to hold.
    for bound in [&a.min, &a.max].into_iter().flatten() {
        if !numeric {
            let instead = match inner {
                Ty::String | Ty::Vec(_) => "; to bound its length, use `min_len`/`max_len`",
                _ => "; remove it",
            };
            cx.error_spanned_by(
                bound.attr(),
                format!(
                    "`min`/`max` bound numbers, and `{}` is {}{instead}",
                    f.ident,
                    f.kind.describe()
                ),
            );
            continue;
        }
        check_number_fits(cx, f, bound);
    }
    if let (Some(min), Some(max)) = (&a.min, &a.max)
        && numeric
        && lit_number(&min.value) > lit_number(&max.value)
    {
        cx.error_spanned_by(
            max.attr(),
            format!(
                "`max` is below `min` on `{}`: no value could pass; swap them",
                f.ident
            ),
        );
    }

    // `min_len`/`max_len` count characters of strings or items of arrays.
    for bound in [&a.min_len, &a.max_len].into_iter().flatten() {
        if !matches!(inner, Ty::String | Ty::Vec(_)) {
            cx.error_spanned_by(
                bound.attr(),
                format!(
                    "`min_len`/`max_len` bound the length of a string or a `Vec`, and `{}` is {}{}",
                    f.ident,
                    f.kind.describe(),
                    if numeric {
                        "; to bound its value, use `min`/`max`"
                    } else {
                        "; remove it"
                    }
                ),
            );
        }
    }
    if let (Some(min), Some(max)) = (&a.min_len, &a.max_len)
        && min.value > max.value
    {
        cx.error_spanned_by(
            max.attr(),
            format!(
                "`max_len` is below `min_len` on `{}`: no value could pass; swap them",
                f.ident
            ),
        );
    }

    // `equals` and `one_of` take literals of the field's own type.
    if let Some(eq) = &a.equals {
        check_literal_type(cx, f, eq, "equals");
    }
    if let Some(list) = &a.one_of {
        if !matches!(inner, Ty::String | Ty::Int(_)) {
            cx.error_spanned_by(
                list.attr(),
                format!(
                    "`one_of` lists allowed strings or integers, and `{}` is {}{}",
                    f.ident,
                    f.kind.describe(),
                    if matches!(inner, Ty::Contract) {
                        "; a contract enum already lists its values: remove it"
                    } else {
                        "; remove it"
                    }
                ),
            );
        } else if list.value.is_empty() {
            cx.error_spanned_by(
                list.attr(),
                format!(
                    "`one_of` is empty, so no value of `{}` could pass: list the allowed values (`one_of = [{}]`), or remove it",
                    f.ident,
                    if matches!(inner, Ty::String) { "\"a\", \"b\"" } else { "1, 2" }
                ),
            );
        } else {
            let mut seen = Vec::new();
            for lit in &list.value {
                check_literal_type(cx, f, lit, "one_of");
                if seen.contains(&&lit.value) {
                    cx.error_spanned_by(lit, "this value is already listed in `one_of`: remove it");
                }
                seen.push(&lit.value);
            }
        }
    }

    // `one_of = ctx.FIELD` binds a string, an integer or a contract enum
    // (or the items of a `Vec` of them) to values of the context.
    if let Some(bound) = &a.one_of_ctx {
        let item = match inner {
            Ty::Vec(item) => item.strip_option(),
            other => other,
        };
        if a.one_of.is_some() {
            cx.error_spanned_by(
                bound.attr(),
                "`one_of` is written twice: keep either the list of literals or `ctx.FIELD`",
            );
        } else if !matches!(item, Ty::String | Ty::Int(_) | Ty::Contract) {
            cx.error_spanned_by(
                bound.attr(),
                format!(
                    "`one_of = ctx.{}` binds a string, an integer or a contract enum (or the items of a `Vec` of them), and `{}` is {}; remove it",
                    bound.value,
                    f.ident,
                    f.kind.describe()
                ),
            );
        } else if !has_context {
            cx.error_spanned_by(
                bound.attr(),
                format!(
                    "`one_of = ctx.{}` reads the trusted context, and the contract declares none: add `#[contract(context = YourContext)]` to it, whose field `{}` lists the allowed values",
                    bound.value, bound.value
                ),
            );
        }
    }

    // `optional` lets the key be absent: an `Option` becomes `None`, any
    // other type needs `default` to have a value.
    if let Some(opt) = &a.optional
        && !f.kind.is_option()
        && a.default.is_none()
    {
        cx.error_spanned_by(opt, format!(
                "`optional` on `{}`, which is not an `Option`, needs a value for an absent key: write `#[contract(optional, default)]` (absent means `Default::default()`), or make the field `Option<..>`",
                f.ident
            ));
    }
    if let Some(d) = &a.default {
        if a.optional.is_none() {
            cx.error_spanned_by(d, "`default` fills in an absent key, and the key is required: write `#[contract(optional, default)]`, or remove `default`");
        } else if f.kind.is_option() {
            cx.error_spanned_by(
                d,
                "an `optional` `Option` is already `None` when absent: remove `default`",
            );
        }
    }

    // `evidence` quotes the source text, so it needs a string and a context.
    if let Some(ev) = &a.evidence {
        if !matches!(inner, Ty::String) {
            cx.error_spanned_by(ev, format!(
                "`evidence` checks that a string occurs in the source text, and `{}` is {}: make it `String` or `Option<String>`, or remove `evidence`",
                f.ident, f.kind.describe()
            ));
        } else if !has_context {
            cx.error_spanned_by(ev, "`evidence` needs the source text from a trusted context: add `#[contract(context = YourContext)]` to the contract and implement `contract_runtime::EvidenceSource` for it");
        }
    }

    // `quarantine` drops a failing value to `None`, so the field must be an `Option`.
    if let Some(q) = &a.quarantine
        && !f.kind.is_option()
    {
        cx.error_spanned_by(q, format!(
                "`quarantine` drops a failing value to `None`, and `{}` is not an `Option`: make it `Option<..>`, or remove `quarantine`",
                f.ident
            ));
    }
}

fn lit_number(lit: &Lit) -> f64 {
    match lit {
        Lit::Int(i) => *i as f64,
        Lit::Float(f) => *f,
        _ => 0.0,
    }
}

// A numeric literal must be of the field's kind and within its type's range.
pub(super) fn check_number_fits(cx: &Ctxt, f: &Member<'_>, lit: &LocatedLit) {
    match (f.kind.strip_option(), &lit.value) {
        (Ty::Int(t), Lit::Int(v)) if (*v < t.min || *v > t.max) => {
            cx.error_spanned_by(
                lit,
                format!(
                    "`{}` cannot hold {v}: its values run from {} to {}; write a value in that range, or use {}",
                    type_name(f),
                    t.min,
                    t.max,
                    if *v < 0 && t.min == 0 { "a signed type" } else { "a wider type" }
                ),
            );
        }
        (Ty::Int(_), Lit::Int(_)) => {}
        (Ty::Int(_), other) => {
            cx.error_spanned_by(
                lit,
                format!(
                    "`{}` is an integer field, and this is {}: write an integer",
                    f.ident,
                    other.kind()
                ),
            );
        }
        (Ty::Float, Lit::Float(v)) if type_name(f) == "f32" && v.abs() > f64::from(f32::MAX) => {
            cx.error_spanned_by(
                lit,
                "`f32` cannot hold this number: write a smaller one, or use `f64`",
            );
        }
        (Ty::Float, Lit::Int(_) | Lit::Float(_)) => {}
        (Ty::Float, other) => {
            cx.error_spanned_by(
                lit,
                format!(
                    "`{}` is a float field, and this is {}: write a number",
                    f.ident,
                    other.kind()
                ),
            );
        }
        _ => {}
    }
}

pub(super) fn type_name(f: &Member<'_>) -> String {
    let ty = match crate::ty::option_inner(f.ty) {
        Some(inner) => inner,
        None => f.ty,
    };
    // Without spaces, but a lifetime keeps the one after it (`&'a str`).
    let text = ty.to_token_stream().to_string();
    let mut out = String::with_capacity(text.len());
    let mut in_lifetime = false;
    for (i, c) in text.char_indices() {
        if c == '\'' {
            in_lifetime = true;
        } else if c == ' ' {
            let next_is_word = text[i + 1..].starts_with(|n: char| n.is_alphanumeric() || n == '_');
            if in_lifetime && next_is_word {
                out.push(' ');
            }
            in_lifetime = false;
            continue;
        } else if !(c.is_alphanumeric() || c == '_') {
            in_lifetime = false;
        }
        out.push(c);
    }
    out
}

// `equals`/`one_of` literals must be of the field's type.
fn check_literal_type(cx: &Ctxt, f: &Member<'_>, lit: &LocatedLit, attr: &str) {
    let ok = match (f.kind.strip_option(), &lit.value) {
        (Ty::String, Lit::Str(_)) | (Ty::Bool, Lit::Bool(_)) => true,
        (Ty::Int(_) | Ty::Float, Lit::Int(_)) | (Ty::Float, Lit::Float(_)) => {
            check_number_fits(cx, f, lit);
            true
        }
        _ => false,
    };
    if ok {
        return;
    }
    let example = match f.kind.strip_option() {
        Ty::String => "a string literal (`\"..\"`)",
        Ty::Int(_) => "an integer literal",
        Ty::Float => "a number literal",
        Ty::Bool => "`true` or `false`",
        _ => {
            cx.error_spanned_by(
                lit,
                format!(
                    "`{attr}` compares strings, numbers and booleans, and `{}` is {}: remove it",
                    f.ident,
                    f.kind.describe()
                ),
            );
            return;
        }
    };
    cx.error_spanned_by(
        lit,
        format!(
            "`{attr}` on `{}` takes {example}, and this is {}",
            f.ident,
            lit.value.kind()
        ),
    );
}
