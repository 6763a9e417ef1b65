//! The `Field::SHAPE` const: a struct's members by JSON name, which edit
//! pointers are resolved against at compile time.
use proc_macro2::TokenStream;
use quote::quote;

use super::private;
use crate::checked::{Members, Union};

/// The object shape of members, by JSON name and type. A member whose type
/// the derive rejected (`None`) stands as a leaf (only the fallback impl
/// meets one).
pub fn object<'a>(members: impl Iterator<Item = (&'a str, Option<&'a syn::Type>)>) -> TokenStream {
    let p = private();
    let entries = members.map(|(name, ty)| match ty {
        None => quote!((#name, &#p::Shape::Leaf)),
        Some(ty) => quote!((#name, &<#ty as #p::JsonType>::SHAPE)),
    });
    quote!(#p::Shape::Object(&[#(#entries),*]))
}

/// Enums and other leaves.
pub fn leaf() -> TokenStream {
    let p = private();
    quote!(#p::Shape::Leaf)
}

/// A tagged union: one object shape per variant (a newtype's is its
/// struct's); a pointer segment resolves when one variant declares it.
pub fn union(u: &Union<'_>) -> TokenStream {
    let p = private();
    let variants = u.variants.iter().map(|v| match &v.members {
        Members::Unit => quote!(&#p::Shape::Object(&[])),
        Members::Struct(fields) => {
            let shape = object(fields.iter().map(|f| (f.json_name, Some(f.ty))));
            quote!(&#shape)
        }
        Members::Newtype(ty) => quote!(&<#ty as #p::JsonType>::SHAPE),
    });
    let tag = u.tag;
    quote!(#p::Shape::Union { tag: #tag, variants: &[#(#variants),*] })
}
