//! Edit policies: one associated const per policy, the list for
//! `edit_policy(name)`, and `const` assertions that each pointer resolves
//! through the nested contract types.
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::private;
use crate::check::pointer_segments;
use crate::model::Container;

/// (inherent consts, the list of consts, const assertions)
pub fn policies(cont: &Container<'_>) -> (TokenStream, TokenStream, TokenStream) {
    let p = private();
    let ident = cont.ident;
    let mut consts = Vec::new();
    let mut list = Vec::new();
    let mut checks = Vec::new();
    for e in &cont.attrs.edits {
        let name = e.name.to_string();
        let const_ident = format_ident!("{}", name.to_uppercase(), span = e.name.span());
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
            let arms = (1..segments.len()).map(|i| {
                let parent: String = segments[..i].iter().map(|s| format!("/{}", escape(s))).collect();
                let seg = &segments[i];
                let no_field = format!(
                    "edit policy `{name}`: pointer `{pointer}` does not resolve: the contract type at `{parent}` has no field `{seg}`"
                );
                let into_collection = format!(
                    "edit policy `{name}`: pointer `{pointer}` points inside `{parent}`, an array or map: collections change as a whole; allow `{parent}` instead"
                );
                let into_scalar = format!(
                    "edit policy `{name}`: pointer `{pointer}` does not resolve: `{parent}` is not an object, so it has no field `{seg}`"
                );
                quote! {
                    #p::Err(#p::Unresolved::NoField(#i)) => panic!(#no_field),
                    #p::Err(#p::Unresolved::IntoCollection(#i)) => panic!(#into_collection),
                    #p::Err(#p::Unresolved::IntoScalar(#i)) => panic!(#into_scalar),
                }
            });
            let fallback = format!("edit policy `{name}`: pointer `{pointer}` does not resolve");
            checks.push(quote_spanned! {lit.span()=>
                const _: () = match #p::resolve(&<#ident as #p::Field>::SHAPE, &[#(#segments),*]) {
                    #p::Ok(()) => {}
                    #(#arms)*
                    #p::Err(_) => panic!(#fallback),
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

fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}
