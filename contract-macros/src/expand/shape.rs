//! The `Field::SHAPE` const: a struct's members by JSON name, which edit
//! pointers are resolved against at compile time.
use proc_macro2::TokenStream;
use quote::quote;

use super::private;
use crate::checked::{Members, Union};
use crate::model::Member;
use crate::ty::Ty;

/// The object shape of `members`. A member whose type the derive rejected
/// stands as a leaf (only the fallback impl meets one).
pub fn object(members: &[Member<'_>]) -> TokenStream {
    let p = private();
    let entries = members.iter().map(|f| {
        let (name, ty) = (&f.json_name, f.ty);
        match f.kind {
            Ty::Unsupported(_) => quote!((#name, &#p::Shape::Leaf)),
            _ => quote!((#name, &<#ty as #p::JsonType>::SHAPE)),
        }
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
            let shape = object(fields);
            quote!(&#shape)
        }
        Members::Newtype(ty) => quote!(&<#ty as #p::JsonType>::SHAPE),
    });
    let tag = u.tag;
    quote!(#p::Shape::Union { tag: #tag, variants: &[#(#variants),*] })
}
