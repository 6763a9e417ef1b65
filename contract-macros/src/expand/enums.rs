//! A contract enum's impls, `JsonType`, `Contract` and `OutcomeEnum`, assembled
//! from the generators' parts; the outcome each variant stands for.
use proc_macro2::TokenStream;
use quote::quote;

use super::unions::outcome_enum_impl;
use super::{decode, encode, json_type_impl, private, schema, shape};
use crate::checked::Contract;
use crate::model::Variant;

pub fn expand(cont: &Contract<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let p = private();
    let ident = cont.ident;
    let name = ident.to_string();
    let outcome_enum = outcome_enum_impl(ident, variants.iter());
    let shape = shape::leaf();
    let decode = decode::enum_body(variants);
    let encode = encode::enum_body(variants);
    let schema = schema::enum_body(cont, variants);
    let json_type = json_type_impl(
        ident,
        shape,
        decode,
        encode,
        quote!(<Self as #p::Contract>::__schema_body(__contract_defs)),
        None,
    );
    quote! {
        const _: () = {
            #json_type

            #[automatically_derived]
            impl #p::Contract for #ident {
                const NAME: &'static str = #name;
                const LIMITS: #p::Limits = #p::Limits::DEFAULT;
                type Context = ();

                fn __schema_body(_: &mut #p::SchemaGen) -> #p::Value {
                    #schema
                }

                fn __outcome(&self) -> #p::OutcomeKind {
                    #p::OutcomeEnum::outcome_kind(self)
                }
            }

            #outcome_enum
        };
    }
}
