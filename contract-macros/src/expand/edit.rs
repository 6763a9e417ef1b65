//! Edit policies: one associated const per policy, the list for
//! `edit_policy(name)`, and `const` assertions that each pointer resolves
//! through the nested contract types.
use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};

use super::private;
use crate::checked::{Policy, PolicyPointer};
use crate::pointer;

/// What the edit policies add to a struct's expansion.
pub struct Policies {
    /// The inherent impl with one const per policy.
    pub consts: TokenStream,
    /// The consts, for `Contract::__POLICIES`.
    pub list: TokenStream,
    /// The `const` assertions of pointers into nested types.
    pub assertions: TokenStream,
}

pub fn policies(ident: &syn::Ident, policies: &[Policy<'_>]) -> Policies {
    let p = private();
    let mut consts = Vec::new();
    let mut list = Vec::new();
    let mut assertions = Vec::new();
    for policy in policies {
        let name = &policy.name;
        let const_ident = &policy.const_ident;
        let pointers: Vec<&str> = policy.pointers.iter().map(|pt| pt.text.as_str()).collect();
        let doc = format!(
            "Edit policy `{name}`: may change {}.",
            pointers
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        consts.push(quote! {
            #[doc = #doc]
            pub const #const_ident: #p::EditPolicy<#ident> = #p::EditPolicy::__new(#name, &[#(#pointers),*]);
        });
        list.push(quote!(#ident::#const_ident));
        // The first segment is checked by the derive itself.
        for pt in policy.pointers.iter().filter(|pt| pt.segments.len() > 1) {
            assertions.push(assertion(ident, name, pt));
        }
    }
    let consts = if consts.is_empty() {
        TokenStream::new()
    } else {
        quote! {
            #[automatically_derived]
            impl #ident {
                #(#consts)*
            }
        }
    };
    Policies {
        consts,
        list: quote!(#(#list),*),
        assertions: quote!(#(#assertions)*),
    }
}

// A pointer deeper than the first segment resolves through the nested
// types' `SHAPE`, at compile time; every token is spanned at the pointer
// literal, so a failing assertion is reported there.
fn assertion(ident: &syn::Ident, name: &str, pt: &PolicyPointer<'_>) -> TokenStream {
    let p = private();
    let span = pt.lit.span();
    let (pointer, segments) = (&pt.text, &pt.segments);
    let outer = pt.member.ty;
    let outer_ty = crate::ty::option_inner(outer)
        .unwrap_or(outer)
        .to_token_stream()
        .to_string()
        .replace(' ', "");
    let arms = (1..segments.len()).map(|i| {
        let parent = pointer::join(&segments[..i]);
        let seg = &segments[i];
        let at = if i == 1 {
            format!("`{outer_ty}` (at `{parent}`)")
        } else {
            format!("the contract type at `{parent}`")
        };
        let no_field = format!(
            "edit policy `{name}`: pointer `{pointer}` does not resolve: {at} has no field `{seg}`; write a JSON key that type declares (after its `rename`/`rename_all`)"
        );
        let into_collection = format!(
            "edit policy `{name}`: pointer `{pointer}` points inside `{parent}`, an array or map: collections change as a whole; allow `{parent}` instead"
        );
        let into_scalar = format!(
            "edit policy `{name}`: pointer `{pointer}` does not resolve: `{parent}` is not an object, so it has no field `{seg}`; allow `{parent}` instead"
        );
        let into_box = format!(
            "edit policy `{name}`: pointer `{pointer}` points inside `{parent}`, a `Box` (which may hold a recursive type): a boxed value changes as a whole; allow `{parent}` instead"
        );
        quote_spanned! {span=>
            #p::Err(#p::Unresolved::NoField(#i)) => ::core::panic!("{}", #no_field),
            #p::Err(#p::Unresolved::IntoBox(#i)) => ::core::panic!("{}", #into_box),
            #p::Err(#p::Unresolved::IntoCollection(#i)) => ::core::panic!("{}", #into_collection),
            #p::Err(#p::Unresolved::IntoScalar(#i)) => ::core::panic!("{}", #into_scalar),
        }
    });
    let fallback = format!("edit policy `{name}`: pointer `{pointer}` does not resolve");
    quote_spanned! {span=>
        const _: () = match #p::follow(&<#ident as #p::JsonType>::SHAPE, &[#(#segments),*]) {
            #p::Ok(()) => {}
            #(#arms)*
            #p::Err(_) => ::core::panic!("{}", #fallback),
        };
    }
}
