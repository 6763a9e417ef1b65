//! A contract enum's impls, `JsonType`, `Contract` and `OutcomeEnum`, assembled
//! from the generators' parts (the last two shared with tagged unions).
use proc_macro2::TokenStream;
use quote::quote;

use super::unions::{EnumContract, enum_contract_impl};
use super::{business, decode, describe, encode, json_type_impl, private, schema, shape};
use crate::checked::Contract;
use crate::model::Variant;

pub fn expand(cont: &Contract<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let p = private();
    let ident = cont.ident;
    let shape = shape::leaf();
    let decode = decode::enum_body(variants);
    let encode = encode::enum_body(variants);
    let schema = schema::enum_body(cont, variants);
    let describe = describe::of_enum(cont, variants);
    let json_type = json_type_impl(
        ident,
        shape,
        decode,
        encode,
        quote!(<Self as #p::Contract>::__schema_body(__contract_defs)),
        None,
    );
    let contract = enum_contract_impl(
        ident,
        &syn::Generics::default(),
        EnumContract {
            limits: quote!(#p::Limits::DEFAULT),
            schema: quote!(let _ = __contract_defs; #schema),
            context: quote!(()),
            business: TokenStream::new(),
        },
        variants.iter(),
    );
    let business = business::no_context(ident, &syn::Generics::default()).business_impl;
    // A context field of this enum's values binds a member of it.
    let bound_value = quote! {
        #[automatically_derived]
        impl #p::BoundValue for #ident {
            fn bound_value(&self) -> #p::Value {
                #p::JsonType::encode(self)
            }
        }
    };
    quote! {
        const _: () = {
            #bound_value
            #json_type
            #describe
            #contract
            #business
        };
    }
}
