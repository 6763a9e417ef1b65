//! A run of members in declaration order, for the member loop of
//! `super::members` in optimised builds.
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::keys::plain;
use crate::checked::Member;

/// A run of members in declaration order from field `__contract_index`, as
/// a `switch` with fall-through: each field's read follows the block that
/// the dispatch leaves for it, and after it the next field's key
/// (`,"name":`) is tried as raw bytes, its read reached by falling through.
/// A document in declaration order takes one dispatch for all its members,
/// and each read is written once. The run ends at a key that is not the
/// next field's (its `,` not read), or after the last field. Optimised
/// builds only (see `super::members`).
pub(super) fn run(fields: &[Member<'_>], reads: &[TokenStream]) -> TokenStream {
    // One field: no block to enter, no run to end early.
    if let [read] = reads {
        return quote! {
            __contract_next = 1;
            __contract_ok &= (#read)?;
        };
    }
    if reads.is_empty() {
        return TokenStream::new();
    }
    let labels: Vec<syn::Lifetime> = (0..fields.len())
        .map(|i| syn::Lifetime::new(&format!("'__contract_f{i}"), proc_macro2::Span::call_site()))
        .collect();
    let entries = labels.iter().enumerate().map(|(i, l)| {
        if i + 1 == labels.len() {
            quote!(_ => break #l,)
        } else {
            quote!(#i => break #l,)
        }
    });
    let mut body = quote! {
        match __contract_index {
            #( #entries )*
        }
    };
    for (i, (read, label)) in reads.iter().zip(&labels).enumerate() {
        let next = i + 1;
        let then = match fields.get(next) {
            Some(f) if plain(f.json_name) => {
                let key = Literal::byte_string(format!(",\"{}\":", f.json_name).as_bytes());
                quote! {
                    __contract_at = __contract_r.offset() + 1;
                    if !__contract_r.eat_key(#key) {
                        break '__contract_run;
                    }
                }
            }
            Some(_) => quote!(break '__contract_run;),
            None => TokenStream::new(),
        };
        body = quote! {
            #label: {
                #body
            }
            __contract_next = #next;
            __contract_ok &= (#read)?;
            #then
        };
    }
    quote! {
        '__contract_run: {
            #body
        }
    }
}
