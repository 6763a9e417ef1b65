//! Encoding: the body of `Field::encode`, a JSON value with the contract's
//! names.
use proc_macro2::TokenStream;
use quote::quote;

use super::private;
use crate::model::{Member, Variant};

/// A struct encodes as an object with a key per member.
pub fn struct_body(members: &[Member<'_>]) -> TokenStream {
    let p = private();
    let idents = members.iter().map(|f| f.ident);
    let names = members.iter().map(|f| f.json_name.as_str());
    // `<T as Field>`, not `Field::encode`: a field type that is not a
    // contract is then reported at the type, as every other use reports it.
    let tys = members.iter().map(|f| f.ty);
    let n = members.len();
    quote! {
        let mut __contract_map = #p::Map::new();
        let _ = #n;
        #( __contract_map.insert(#p::String::from(#names), <#tys as #p::JsonType>::encode(&self.#idents)); )*
        #p::Value::Object(__contract_map)
    }
}

/// An enum encodes as its variant's name.
pub fn enum_body(variants: &[Variant<'_>]) -> TokenStream {
    let p = private();
    let idents = variants.iter().map(|v| v.ident);
    let names = variants.iter().map(|v| v.json_name.as_str());
    quote! {
        #p::Value::String(#p::String::from(match self {
            #( Self::#idents => #names, )*
        }))
    }
}
