//! The business stage and the outcome: `Contract::__business` (`evidence`,
//! `check`) and `Contract::__outcome`.
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::{private, private_at};
use crate::checked::Struct;
use crate::pointer;

/// `Contract::__outcome`, when the struct names its `outcome` member.
pub fn outcome_fn(s: &Struct<'_>) -> TokenStream {
    let p = private();
    let Some(outcome) = &s.outcome else {
        return TokenStream::new();
    };
    // The one use of the `OutcomeEnum` bound, spanned at `outcome = FIELD`
    // (the attribute's own token for the field), so a type that is not a
    // contract enum is reported there, once.
    let mut name = outcome.member.ident.clone();
    name.set_span(outcome.at);
    let at = private_at(outcome.at);
    let kind = quote_spanned!(outcome.at=> #at::OutcomeEnum::outcome_kind(&self.#name));
    quote! {
        fn __outcome(&self) -> #p::OutcomeKind {
            #kind
        }
    }
}

/// `Contract::__business`, when the struct declares a `context`: its
/// `evidence` members, then its `check` function.
pub fn business_fn(s: &Struct<'_>) -> TokenStream {
    let p = private();
    if s.context.is_none() {
        return TokenStream::new();
    }
    let evidence = s.members.iter().filter_map(|f| {
        let ev = f.attrs.evidence.as_ref()?;
        let (ident, json) = (f.ident, &f.json_name);
        let source = quote_spanned!(ev.span()=> #p::EvidenceSource::source_text(__contract_ctx));
        let quarantine = f.attrs.quarantine.is_some();
        let value = if f.kind.is_option() {
            quote!(#p::Option::as_deref(&self.#ident))
        } else {
            quote!(#p::Some(self.#ident.as_str()))
        };
        let drop_value = if quarantine && f.kind.is_option() {
            quote!(self.#ident = #p::None;)
        } else {
            TokenStream::new()
        };
        Some(quote! {
            if let #p::Some(__contract_quote) = #value {
                if !#p::evidence(__contract_cx, #source, __contract_quote, #json, #quarantine) {
                    #drop_value
                }
            }
        })
    });
    // A review reason the check gives for a quarantined field drops that
    // field's value, as a value failure in decoding or missing evidence does.
    let drops: Vec<TokenStream> = s
        .members
        .iter()
        .filter(|f| f.attrs.quarantine.is_some() && f.kind.is_option())
        .map(|f| {
            let pointer = pointer::member(&f.json_name);
            let ident = f.ident;
            quote!(#pointer => self.#ident = #p::None,)
        })
        .collect();
    let check = s.check_fn.map(|path| {
        let call = quote_spanned!(path.span()=> #path(&*self, __contract_ctx));
        let drop_quarantined = (!drops.is_empty()).then(|| {
            quote! {
                for __contract_v in &__contract_vs.0 {
                    if __contract_v.kind == #p::ViolationKind::Review {
                        match __contract_v.pointer.as_str() {
                            #(#drops)*
                            _ => {}
                        }
                    }
                }
            }
        });
        quote! {
            if let #p::Err(__contract_e) = #call {
                let __contract_vs = #p::Violations::from(__contract_e);
                #drop_quarantined
                #p::violations(__contract_cx, __contract_vs);
            }
        }
    });
    quote! {
        fn __business(&mut self, __contract_ctx: &Self::Context, __contract_cx: &mut #p::Collector) {
            #(#evidence)*
            #check
        }
    }
}
