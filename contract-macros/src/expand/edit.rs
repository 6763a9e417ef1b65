//! Edit policies: one associated const per policy, the list for
//! `edit_policy(name)`, and `const` assertions that each pointer resolves
//! through the nested contract types.
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::private;
use crate::model::Container;
use crate::pointer::{escape_segment, pointer_segments};

/// (inherent consts, the list of consts, const assertions)
pub fn policies(cont: &Container<'_>) -> (TokenStream, TokenStream, TokenStream) {
    let p = private();
    let ident = cont.ident;
    let mut consts = Vec::new();
    let mut list = Vec::new();
    let mut checks = Vec::new();
    for e in &cont.attrs.edits {
        let name = e.name();
        // check.rs has rejected names whose upper case is not an identifier.
        let Ok(mut const_ident) = syn::parse_str::<syn::Ident>(&e.const_name()) else {
            continue;
        };
        const_ident.set_span(e.name.span());
        let pointers: Vec<String> = e.pointers.iter().map(|l| l.value()).collect();
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
        for lit in &e.pointers {
            let pointer = lit.value();
            let Ok(segments) = pointer_segments(&pointer) else {
                continue;
            };
            if segments.len() < 2 {
                continue; // the first segment is checked by the derive itself
            }
            // Every token is spanned at the pointer literal, so a failing
            // assertion is reported there.
            let span = lit.span();
            let outer_ty = cont
                .field_by_json_name(&segments[0])
                .map(|f| crate::ty::option_inner(f.ty).unwrap_or(f.ty))
                .map(|ty| {
                    quote::ToTokens::to_token_stream(ty)
                        .to_string()
                        .replace(' ', "")
                });
            let arms = (1..segments.len()).map(|i| {
                let parent: String = segments[..i].iter().map(|s| format!("/{}", escape_segment(s))).collect();
                let seg = &segments[i];
                let at = match (&outer_ty, i) {
                    (Some(ty), 1) => format!("`{ty}` (at `{parent}`)"),
                    _ => format!("the contract type at `{parent}`"),
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
                quote_spanned! {span=>
                    #p::Err(#p::Unresolved::NoField(#i)) => ::core::panic!("{}", #no_field),
                    #p::Err(#p::Unresolved::IntoCollection(#i)) => ::core::panic!("{}", #into_collection),
                    #p::Err(#p::Unresolved::IntoScalar(#i)) => ::core::panic!("{}", #into_scalar),
                }
            });
            let fallback = format!("edit policy `{name}`: pointer `{pointer}` does not resolve");
            checks.push(quote_spanned! {span=>
                const _: () = match #p::resolve(&<#ident as #p::Field>::SHAPE, &[#(#segments),*]) {
                    #p::Ok(()) => {}
                    #(#arms)*
                    #p::Err(_) => ::core::panic!("{}", #fallback),
                };
            });
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
    (consts, quote!(#(#list),*), quote!(#(#checks)*))
}
