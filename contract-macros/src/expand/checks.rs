//! A field's value checks (its `checked::Constraint`s): as a `&'static`
//! table of `contract_runtime`'s `Check`s walked by the runtime's `member`
//! (one call per field), or, for the few fields the table does not cover,
//! written inline. One walk over the constraints gives both, and what else
//! decoding needs of them.
use proc_macro2::TokenStream;
use quote::quote;

use super::lit::{lit_check, lit_text, typed_lit, uint};
use super::private;
use crate::checked::{Bounds, Constraint, Counts, Literal, Member, Number, Pattern, StringFormat};
use crate::ty::Ty;

/// Whether the field's member is read inline rather than by the runtime's
/// `member`: a quarantined field (its failures may be absorbed) and an
/// `f32` with checks (bounds compare the `f64` the document wrote,
/// `equals` the `f32`; written inline, [`Checks::inline`]).
pub fn inline_only(f: &Member<'_>) -> bool {
    f.quarantine || (!f.constraints.is_empty() && f.f32)
}

/// What decoding a member needs of its constraints.
pub struct Checks {
    /// As an expression of type `&'static [Check]`, in the order the inline
    /// checks run; `None` without constraints.
    pub table: Option<TokenStream>,
    /// Written inline on `__contract_x` (skipping `null` for an `Option`
    /// field), for the fields the table does not cover: an `f32`, or a
    /// quarantined field that is not an array. Empty without constraints.
    pub inline: TokenStream,
    /// The range `min`/`max` declare, in words ("an integer from 1 to 50";
    /// a bound left out is the integer type's own): the runtime's
    /// `Check::Range`, which restates the value's type errors with it.
    pub range: Option<String>,
    /// How an array field (`Vec<T>`, `Option<Vec<T>>`) is read: `Some(true)`
    /// if a check also applies to each item (`pattern` on a `Vec<String>`),
    /// `Some(false)` if they bound the array only, `None` for a field that
    /// is not an array. An array's checks run while it is read, by the
    /// runtime's `read_array`: an item that fails hides neither the other
    /// items' errors nor the array's length.
    pub array: Option<bool>,
}

/// The member's checks, from one walk over its constraints.
pub fn of(f: &Member<'_>) -> Checks {
    let p = private();
    let mut table = Vec::new();
    let mut inline = Vec::new();
    let mut statics = TokenStream::new();
    let mut range = None;
    let mut items = false;
    let field_error = |code: TokenStream, msg: &str, exp: &str| quote!(#p::field_error(__contract_cx, &__contract_p, #p::code::#code, #msg, #exp));
    // `equals`/`one_of` compare a string as a `&str` (owned or borrowed).
    let as_str = quote!(::core::ops::Deref::deref(__contract_y));
    let lhs = if matches!(f.kind, Ty::String) {
        as_str.clone()
    } else {
        quote!(*__contract_y)
    };
    for constraint in &f.constraints {
        match constraint {
            Constraint::Range(bounds) => {
                let text = range_text(*bounds, f.kind);
                let messages = super::lit::type_messages(&text);
                table.push(quote!(#p::Check::Range(&#messages)));
                range = Some(text);
                if let Some(min) = bounds.min() {
                    let (v, min) = (typed_lit(&min.into()), Literal::from(min));
                    let (msg, exp) = bound_texts("below the minimum of", "of at least", &min);
                    let check = lit_check(&min);
                    table.push(quote!(#p::Check::Min(#check, #msg, #exp)));
                    let error = field_error(quote!(BELOW_MINIMUM), &msg, &exp);
                    inline.push(quote!(if *__contract_y < #v { #error; }));
                }
                if let Some(max) = bounds.max() {
                    let (v, max) = (typed_lit(&max.into()), Literal::from(max));
                    let (msg, exp) = bound_texts("above the maximum of", "of at most", &max);
                    let check = lit_check(&max);
                    table.push(quote!(#p::Check::Max(#check, #msg, #exp)));
                    let error = field_error(quote!(ABOVE_MAXIMUM), &msg, &exp);
                    inline.push(quote!(if *__contract_y > #v { #error; }));
                }
            }
            Constraint::Length { bounds, counts } => {
                let (min_lit, max_tokens, [short_msg, short_exp, long_msg, long_exp]) =
                    length(*bounds, *counts);
                table.push(quote! {
                    #p::Check::Len(#min_lit, #max_tokens, [#short_msg, #short_exp, #long_msg, #long_exp])
                });
                // One length check for both bounds: a string's characters are
                // counted at most once, and not at all when its byte length decides.
                let short = field_error(quote!(TOO_SHORT), &short_msg, &short_exp);
                let long = field_error(quote!(TOO_LONG), &long_msg, &long_exp);
                inline.push(quote! {
                    match #p::Length::check_len(__contract_y, #min_lit, #max_tokens) {
                        #p::LenCheck::Short => #short,
                        #p::LenCheck::Long => #long,
                        #p::LenCheck::Within => {}
                    }
                });
            }
            Constraint::Equals(value) => {
                let (msg, exp) = equals_texts(value);
                let check = lit_check(value);
                table.push(quote!(#p::Check::Equals(#check, #msg, #exp)));
                let v = typed_lit(value);
                let error = field_error(quote!(NOT_EQUAL), &msg, &exp);
                inline.push(quote!(if #lhs != #v { #error; }));
            }
            Constraint::OneOf(values) => {
                let (msg, exp) = one_of_texts(values);
                let checks = values.iter().map(lit_check);
                table.push(quote!(#p::Check::OneOf(&[#(#checks),*], #msg, #exp)));
                let vs = values.iter().map(typed_lit);
                let error = field_error(quote!(NOT_ONE_OF), &msg, &exp);
                inline.push(quote!(if !matches!(#lhs, #(#vs)|*) { #error; }));
            }
            Constraint::Pattern(pattern) => {
                items |= pattern.on_items;
                let Pattern { engine, .. } = pattern;
                let (msg, exp) = pattern_texts(pattern);
                statics =
                    quote!(static __CONTRACT_PATTERN: #p::Pattern = #p::Pattern::new(#engine););
                table.push(quote!(#p::Check::Pattern(&__CONTRACT_PATTERN, #msg, #exp)));
                inline.push(quote! {{
                    #statics
                    #p::check_pattern(__contract_cx, &__contract_p, &__CONTRACT_PATTERN, #as_str, #msg, #exp);
                }});
            }
            Constraint::Format(format) => {
                let format = format_tokens(*format);
                table.push(quote!(#p::Check::Format(#format)));
                inline.push(
                    quote!(#p::check_format(__contract_cx, &__contract_p, #format, #as_str);),
                );
            }
        }
    }
    let array = matches!(f.kind, Ty::Vec(_)).then_some(items);
    if table.is_empty() {
        return Checks {
            table: None,
            inline: TokenStream::new(),
            range,
            array,
        };
    }
    let n = table.len();
    let table = quote! {{
        #statics
        static __CONTRACT_CHECKS: [#p::Check; #n] = [#(#table),*];
        &__CONTRACT_CHECKS
    }};
    let inline = if f.nullable {
        quote!(if let #p::Some(__contract_y) = &__contract_x { #(#inline)* })
    } else {
        quote!({ let __contract_y = &__contract_x; #(#inline)* })
    };
    Checks {
        table: Some(table),
        inline,
        range,
        array,
    }
}

/// `n` of what a length counts, in words ("1 character", "2 items").
fn count(counts: Counts, n: u64) -> String {
    let word = match (counts, n) {
        (Counts::Characters, 1) => "character",
        (Counts::Characters, _) => "characters",
        (Counts::Items, 1) => "item",
        (Counts::Items, _) => "items",
    };
    format!("{n} {word}")
}

/// The range `min`/`max` declare, in words.
fn range_text(bounds: Bounds<Number>, kind: &Ty) -> String {
    let text = |n: Number| lit_text(&n.into());
    let (min, max) = (bounds.min().map(text), bounds.max().map(text));
    match (kind, min, max) {
        (Ty::Int(int), min, max) => format!(
            "an integer from {} to {}",
            min.unwrap_or_else(|| int.min.to_string()),
            max.unwrap_or_else(|| int.max.to_string())
        ),
        (_, Some(min), Some(max)) => format!("a number from {min} to {max}"),
        (_, Some(min), None) => format!("a number of at least {min}"),
        (_, None, Some(max)) => format!("a number of at most {max}"),
        // `Bounds` holds at least one.
        (_, None, None) => String::new(),
    }
}

/// The message and the expected shape of a `min` or `max` error.
fn bound_texts(message: &str, op: &str, value: &Literal) -> (String, String) {
    let text = lit_text(value);
    (format!("{message} {text}"), format!("a number {op} {text}"))
}

/// A `min_len` / `max_len` pair: its bounds as tokens (no maximum is
/// `usize::MAX`) and its four texts (too short: message, expected; too
/// long: message, expected).
fn length(bounds: Bounds<u64>, counts: Counts) -> (TokenStream, TokenStream, [String; 4]) {
    let min = bounds.min().unwrap_or(0);
    let max = bounds.max();
    let max_tokens = match max.map(uint) {
        Some(m) => quote!(#m),
        None => quote!(usize::MAX),
    };
    let (least, most) = (count(counts, min), count(counts, max.unwrap_or(0)));
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
fn equals_texts(value: &Literal) -> (String, String) {
    let text = lit_text(value);
    (format!("must equal {text}"), format!("exactly {text}"))
}

/// The message and the expectation of a `one_of` error.
fn one_of_texts(values: &[Literal]) -> (String, String) {
    let texts: Vec<_> = values.iter().map(lit_text).collect();
    let list = texts.join(", ");
    (format!("must be one of: {list}"), format!("one of: {list}"))
}

/// The message and the expectation of a `pattern` error.
fn pattern_texts(pattern: &Pattern) -> (String, String) {
    let written = &pattern.written;
    let msg = format!("does not match the pattern {written}");
    let exp = format!("a string in which the pattern {written} finds a match");
    (msg, exp)
}

/// The runtime's name of a `format`.
fn format_tokens(format: StringFormat) -> TokenStream {
    let p = private();
    match format {
        StringFormat::Email => quote!(#p::Format::Email),
        StringFormat::Uuid => quote!(#p::Format::Uuid),
    }
}
