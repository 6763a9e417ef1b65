//! A field's value checks (`min`, `max`, `min_len`, `max_len`, `equals`,
//! `one_of`, `pattern`, `format`): as a `&'static` table of
//! `contract_runtime`'s `Check`s walked by the runtime's `member` (one call
//! per field), or, for the few fields the table does not cover, written
//! inline.
use proc_macro2::TokenStream;
use quote::quote;

use super::lit::{lit_text, typed_lit, uint};
use super::private;
use crate::attr::{FieldAttrs, Lit, LocatedLit, StringFormat};
use crate::model::Member;
use crate::ty::Ty;

/// Whether the field's member is read inline rather than by the runtime's
/// `member`: a quarantined field (its failures may be absorbed) and an
/// `f32` with checks (bounds compare the `f64` the document wrote,
/// `equals` the `f32`; written inline, [`inline`]).
pub fn inline_only(f: &Member<'_>) -> bool {
    let a = &f.attrs;
    let has_checks = a.min.is_some()
        || a.max.is_some()
        || a.min_len.is_some()
        || a.max_len.is_some()
        || a.equals.is_some()
        || a.one_of.is_some()
        || a.pattern.is_some()
        || a.format.is_some();
    a.quarantine.is_some() || (has_checks && is_f32(f.ty))
}

/// How an array field (`Vec<T>`, `Option<Vec<T>>`) with checks is read:
/// `Some(true)` if its checks also apply to each item (`pattern` on a
/// `Vec<String>`), `Some(false)` if they bound the array only, `None` for
/// a field that is not an array. An array's checks run while it is read,
/// by the runtime's `read_array`: an item that fails hides neither the
/// other items' errors nor the array's length.
pub fn array(f: &Member<'_>) -> Option<bool> {
    let kind = f.kind.strip_option();
    matches!(kind, Ty::Vec(_)).then(|| crate::check::pattern_on_items(kind))
}

/// Whether the type is `f32` or `Option<f32>`.
pub fn is_f32(ty: &syn::Type) -> bool {
    let ty = crate::ty::option_inner(ty).unwrap_or(ty);
    matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("f32"))
}

/// The field's checks as an expression of type `&'static [Check]`, in the
/// order the inline checks run; `None` without checks.
pub fn table(f: &Member<'_>) -> Option<TokenStream> {
    let p = private();
    let a = &f.attrs;
    let kind = f.kind.strip_option();
    let mut checks = Vec::new();
    let mut statics = TokenStream::new();
    let unit = unit(kind);
    if let Some(range) = range_text(a, kind) {
        checks.push(quote!(#p::Check::Range(&#p::type_messages!(#range))));
    }
    if let Some(min) = &a.min {
        let v = literal(kind, &min.value);
        let (msg, exp) = bound_texts("below the minimum of", "of at least", &min.value);
        checks.push(quote!(#p::Check::Min(#v, #msg, #exp)));
    }
    if let Some(max) = &a.max {
        let v = literal(kind, &max.value);
        let (msg, exp) = bound_texts("above the maximum of", "of at most", &max.value);
        checks.push(quote!(#p::Check::Max(#v, #msg, #exp)));
    }
    if a.min_len.is_some() || a.max_len.is_some() {
        let (min_lit, max_tokens, [short_msg, short_exp, long_msg, long_exp]) = length(a, unit);
        checks.push(quote! {
            #p::Check::Len(#min_lit, #max_tokens, [#short_msg, #short_exp, #long_msg, #long_exp])
        });
    }
    if let Some(eq) = &a.equals {
        let v = literal(kind, &eq.value);
        let (msg, exp) = equals_texts(&eq.value);
        checks.push(quote!(#p::Check::Equals(#v, #msg, #exp)));
    }
    if let Some(list) = &a.one_of {
        let vs = list.value.iter().map(|l| literal(kind, &l.value));
        let (msg, exp) = one_of_texts(&list.value);
        checks.push(quote!(#p::Check::OneOf(&[#(#vs),*], #msg, #exp)));
    }
    if let Some(pattern) = &a.pattern {
        let (engine, msg, exp) = pattern_texts(&pattern.value);
        statics = quote!(static __CONTRACT_PATTERN: #p::Pattern = #p::Pattern::new(#engine););
        checks.push(quote!(#p::Check::Pattern(&__CONTRACT_PATTERN, #msg, #exp)));
    }
    if let Some(format) = &a.format {
        let format = format_tokens(format.value);
        checks.push(quote!(#p::Check::Format(#format)));
    }
    if checks.is_empty() {
        return None;
    }
    let n = checks.len();
    Some(quote! {{
        #statics
        static __CONTRACT_CHECKS: [#p::Check; #n] = [#(#checks),*];
        &__CONTRACT_CHECKS
    }})
}

/// A literal of a check, typed as the field compares it.
fn literal(kind: &Ty, lit: &Lit) -> TokenStream {
    let p = private();
    match (kind, lit) {
        (_, Lit::Str(s)) => quote!(#p::Literal::Str(#s)),
        (_, Lit::Bool(b)) => quote!(#p::Literal::Bool(#b)),
        (Ty::Float, _) | (_, Lit::Float(_)) => {
            let v = typed_lit(&Ty::Float, lit);
            quote!(#p::Literal::Float(#v))
        }
        (_, Lit::Int(_)) => {
            let v = typed_lit(kind, lit);
            quote!(#p::Literal::Int(#v))
        }
    }
}

/// The checks written inline on `__contract_x` (skipping `null` for an
/// `Option` field), for the fields [`table`] does not cover: an `f32`, or
/// a quarantined field that is not an array.
pub fn inline(f: &Member<'_>) -> TokenStream {
    let p = private();
    let a = &f.attrs;
    let kind = f.kind.strip_option();
    let mut checks = Vec::new();
    let is_str = matches!(kind, Ty::String);
    let unit = unit(kind);
    if let Some(min) = &a.min {
        let v = typed_lit(kind, &min.value);
        let (msg, exp) = bound_texts("below the minimum of", "of at least", &min.value);
        checks.push(quote!(if *__contract_y < #v { #p::field_error(__contract_cx, &__contract_p, #p::code::BELOW_MINIMUM, #msg, #exp); }));
    }
    if let Some(max) = &a.max {
        let v = typed_lit(kind, &max.value);
        let (msg, exp) = bound_texts("above the maximum of", "of at most", &max.value);
        checks.push(quote!(if *__contract_y > #v { #p::field_error(__contract_cx, &__contract_p, #p::code::ABOVE_MAXIMUM, #msg, #exp); }));
    }
    if a.min_len.is_some() || a.max_len.is_some() {
        // One length check for both bounds: a string's characters are
        // counted at most once, and not at all when its byte length decides.
        let (min_lit, max_tokens, [short_msg, short_exp, long_msg, long_exp]) = length(a, unit);
        checks.push(quote! {
            match #p::Length::check_len(__contract_y, #min_lit, #max_tokens) {
                #p::LenCheck::Short => #p::field_error(__contract_cx, &__contract_p, #p::code::TOO_SHORT, #short_msg, #short_exp),
                #p::LenCheck::Long => #p::field_error(__contract_cx, &__contract_p, #p::code::TOO_LONG, #long_msg, #long_exp),
                #p::LenCheck::Within => {}
            }
        });
    }
    if let Some(eq) = &a.equals {
        let v = typed_lit(kind, &eq.value);
        let (msg, exp) = equals_texts(&eq.value);
        let lhs = if is_str {
            quote!(__contract_y.as_str())
        } else {
            quote!(*__contract_y)
        };
        checks.push(quote!(if #lhs != #v { #p::field_error(__contract_cx, &__contract_p, #p::code::NOT_EQUAL, #msg, #exp); }));
    }
    if let Some(list) = &a.one_of {
        let vs: Vec<_> = list
            .value
            .iter()
            .map(|l| typed_lit(kind, &l.value))
            .collect();
        let (msg, exp) = one_of_texts(&list.value);
        let lhs = if is_str {
            quote!(__contract_y.as_str())
        } else {
            quote!(*__contract_y)
        };
        checks.push(quote!(if !matches!(#lhs, #(#vs)|*) { #p::field_error(__contract_cx, &__contract_p, #p::code::NOT_ONE_OF, #msg, #exp); }));
    }
    if let Some(pattern) = &a.pattern {
        let (engine, msg, exp) = pattern_texts(&pattern.value);
        checks.push(quote! {{
            static __CONTRACT_PATTERN: #p::Pattern = #p::Pattern::new(#engine);
            #p::check_pattern(__contract_cx, &__contract_p, &__CONTRACT_PATTERN, __contract_y.as_str(), #msg, #exp);
        }});
    }
    if let Some(format) = &a.format {
        let format = format_tokens(format.value);
        checks.push(
            quote!(#p::check_format(__contract_cx, &__contract_p, #format, __contract_y.as_str());),
        );
    }
    if checks.is_empty() {
        return TokenStream::new();
    }
    if f.kind.is_option() {
        quote!(if let #p::Some(__contract_y) = &__contract_x { #(#checks)* })
    } else {
        quote!({ let __contract_y = &__contract_x; #(#checks)* })
    }
}

/// What a length counts: a string's characters, a `Vec`'s items.
fn unit(kind: &Ty) -> Unit {
    if matches!(kind, Ty::String) {
        Unit::Characters
    } else {
        Unit::Items
    }
}

#[derive(Clone, Copy)]
enum Unit {
    Characters,
    Items,
}

impl Unit {
    /// `n` of them, in words ("1 character", "2 items").
    fn count(self, n: u64) -> String {
        let word = match (self, n) {
            (Unit::Characters, 1) => "character",
            (Unit::Characters, _) => "characters",
            (Unit::Items, 1) => "item",
            (Unit::Items, _) => "items",
        };
        format!("{n} {word}")
    }
}

/// The range a number field's `min`/`max` declare, in words ("an integer
/// from 1 to 50"; a bound left out is the integer type's own), or `None`
/// without either: the runtime's `Check::Range`, which restates the value's
/// type errors with it.
pub fn range_text(a: &FieldAttrs, kind: &Ty) -> Option<String> {
    let min = a.min.as_ref().map(|m| lit_text(&m.value));
    let max = a.max.as_ref().map(|m| lit_text(&m.value));
    if min.is_none() && max.is_none() {
        return None;
    }
    Some(match kind {
        Ty::Int(int) => format!(
            "an integer from {} to {}",
            min.unwrap_or_else(|| int.min.to_string()),
            max.unwrap_or_else(|| int.max.to_string())
        ),
        _ => match (min, max) {
            (Some(min), Some(max)) => format!("a number from {min} to {max}"),
            (Some(min), None) => format!("a number of at least {min}"),
            (None, Some(max)) => format!("a number of at most {max}"),
            (None, None) => return None,
        },
    })
}

/// The message and the expected shape of a `min` or `max` error.
fn bound_texts(message: &str, op: &str, value: &Lit) -> (String, String) {
    let text = lit_text(value);
    (format!("{message} {text}"), format!("a number {op} {text}"))
}

/// A `min_len` / `max_len` pair: its bounds as tokens (no maximum is
/// `usize::MAX`) and its four texts (too short: message, expected; too
/// long: message, expected).
fn length(a: &FieldAttrs, unit: Unit) -> (TokenStream, TokenStream, [String; 4]) {
    let min = a.min_len.as_ref().map_or(0, |m| m.value);
    let max = a.max_len.as_ref().map(|m| m.value);
    let max_tokens = match max.map(uint) {
        Some(m) => quote!(#m),
        None => quote!(usize::MAX),
    };
    let (least, most) = (unit.count(min), unit.count(max.unwrap_or(0)));
    let texts = [
        format!("shorter than the minimum of {least}"),
        format!("at least {least}"),
        format!("longer than the maximum of {most}"),
        format!("at most {most}"),
    ];
    let min = uint(min);
    (quote!(#min), max_tokens, texts)
}

/// The message and the expectation of an `equals` error.
fn equals_texts(value: &Lit) -> (String, String) {
    let text = lit_text(value);
    (format!("must equal {text}"), format!("exactly {text}"))
}

/// The message and the expectation of a `one_of` error.
fn one_of_texts(values: &[LocatedLit]) -> (String, String) {
    let texts: Vec<_> = values.iter().map(|l| lit_text(&l.value)).collect();
    let list = texts.join(", ");
    (format!("must be one of: {list}"), format!("one of: {list}"))
}

/// A `pattern`'s engine form, then the message and the expectation of its
/// error.
fn pattern_texts(pattern: &syn::LitStr) -> (String, String, String) {
    let written = pattern.value();
    // The check has accepted the pattern, so it has an engine form.
    let engine = crate::pattern::engine_form(&written).unwrap_or_else(|_| written.clone());
    let msg = format!("does not match the pattern {written}");
    let exp = format!("a string in which the pattern {written} finds a match");
    (engine, msg, exp)
}

/// The runtime's name of a `format`.
fn format_tokens(format: StringFormat) -> TokenStream {
    let p = private();
    match format {
        StringFormat::Email => quote!(#p::Format::Email),
        StringFormat::Uuid => quote!(#p::Format::Uuid),
    }
}
