//! String values tried as raw bytes before a string is read: a field's
//! `equals`/`one_of` literals and an enum's variant names.
use proc_macro2::TokenStream;
use quote::quote;

use super::super::private;
use super::expected_names;
use super::keys::{plain, raw_dispatch};
use crate::checked::{Constraint, Literal as CheckedLiteral, Member};
use crate::model::Variant;
use crate::ty::Ty;

// A string field that must equal a literal (`equals = "close_ticket"`) or
// one of a few (`one_of = ["bug", "outro"]`) tries their raw bytes, quotes
// included, before reading a string (picked by the byte after the quote):
// an exact match is the value, with no scan for the closing quote and no
// copy from the text. Anything else (an escape, another value, whitespace
// first) is read and checked as before.
// A field that borrows from the text gets the literal's bytes in the text
// (a borrowed string is always a slice of its input); a field read from any
// text gets the literal itself.
pub(super) fn equal_first(f: &Member<'_>, decode: TokenStream, borrowing: bool) -> TokenStream {
    let p = private();
    let ty = f.ty;
    let mut literals: Vec<&str> = Vec::new();
    for c in &f.constraints {
        match c {
            Constraint::Equals(CheckedLiteral::Str(s)) => literals.push(s),
            Constraint::OneOf(values) => literals.extend(values.iter().filter_map(|v| match v {
                CheckedLiteral::Str(s) => Some(s.as_str()),
                _ => None,
            })),
            _ => {}
        }
    }
    // Only literals written as they are in JSON, each tried once.
    literals.retain(|s| !s.is_empty() && plain(s));
    literals.sort_unstable();
    literals.dedup();
    // A string itself: not an `Option` (whose `null` the literal path would skip).
    if !matches!(f.kind, Ty::String)
        || f.nullable
        || literals.is_empty()
        || (f.borrows && !borrowing)
    {
        return decode;
    }
    // A borrowed value is the slice of the text the literal matched.
    let at = borrowing.then(|| quote!(let __contract_at = __contract_r.offset();));
    let dispatch = raw_dispatch(literals.into_iter().map(|s| {
        let value = if borrowing {
            let len = s.len();
            quote!(__contract_r.input().get(__contract_at + 1..__contract_at + 1 + #len).unwrap_or(#s))
        } else {
            quote!(#s)
        };
        let matched = quote!(return #p::Ok(#p::Some(<#ty as ::core::convert::From<&str>>::from(#value))););
        (format!("\"{s}\""), matched)
    }));
    // A shortcut to the same value: unoptimised builds skip it (less code
    // to compile), as they skip the key dispatch.
    quote! {
        |__contract_r, __contract_p, __contract_cx| {
            #[cfg(not(debug_assertions))]
            {
                #at
                #dispatch
            }
            #decode(__contract_r, __contract_p, __contract_cx)
        }
    }
}

/// An enum reads a string and matches it against its variants' names.
pub fn enum_body(variants: &[Variant<'_>]) -> TokenStream {
    let p = private();
    let idents: Vec<_> = variants.iter().map(|v| v.ident).collect();
    let names: Vec<_> = variants.iter().map(|v| v.json_name.as_str()).collect();
    let expected = expected_names(&names);
    let messages = super::super::lit::type_messages(&expected);
    let not_one_of = format!("expected {expected}");
    // Each name is tried first as its raw bytes, quotes included (picked by
    // the byte after the quote): an exact match needs no scan for the
    // closing quote and no string compare. An escaped name, or any other
    // string, is read and matched as before.
    let dispatch = raw_dispatch(
        idents
            .iter()
            .zip(&names)
            .filter(|(_, name)| !name.is_empty() && plain(name))
            .map(|(ident, name)| {
                (
                    format!("\"{name}\""),
                    quote!(return #p::Ok(#p::Some(Self::#ident));),
                )
            }),
    );
    quote! {
        match __contract_r.peek()? {
            #p::Peek::String => {
                // Optimised builds only, as the key dispatch.
                #[cfg(not(debug_assertions))]
                {
                    #dispatch
                }
                let __contract_v = match __contract_r.read_str_ref()? {
                    #( #names => #p::Some(Self::#idents), )*
                    _ => #p::None,
                };
                if __contract_v.is_none() {
                    #p::not_one_of(__contract_cx, __contract_path, #not_one_of, #expected);
                }
                #p::Ok(__contract_v)
            }
            __contract_other => {
                static __CONTRACT_MESSAGES: #p::TypeMessages = #messages;
                #p::invalid_type_of(
                    __contract_r, __contract_path, __contract_cx, &__CONTRACT_MESSAGES, __contract_other,
                )
            }
        }
    }
}
