//! A contract enum's impls, `JsonType`, `Contract` and `OutcomeEnum`, assembled
//! from the generators' parts; the outcome each variant stands for.
use proc_macro2::TokenStream;
use quote::quote;

use super::unions::outcome_kind;
use super::{decode, encode, private, schema, shape};
use crate::checked::Contract;
use crate::model::Variant;

pub fn expand(cont: &Contract<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let p = private();
    let ident = cont.ident;
    let name = ident.to_string();
    let idents = variants.iter().map(|v| v.ident);
    let kinds = variants.iter().map(outcome_kind);
    let shape = shape::leaf();
    let decode = decode::enum_body(variants);
    let encode = encode::enum_body(variants);
    let schema = schema::enum_body(cont, variants);
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #p::JsonType for #ident {
                const SHAPE: #p::Shape = #shape;

                fn decode(
                    __contract_r: &mut #p::Reader<'_>,
                    __contract_path: &#p::Path<'_>,
                    __contract_cx: &mut #p::Collector,
                ) -> #p::Result<#p::Option<Self>, #p::ParseError> {
                    #decode
                }

                fn encode(&self) -> #p::Value {
                    #encode
                }

                fn schema(__contract_defs: &mut #p::SchemaGen) -> #p::Value {
                    <Self as #p::Contract>::__schema_body(__contract_defs)
                }
            }

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

            #[automatically_derived]
            impl #p::OutcomeEnum for #ident {
                fn outcome_kind(&self) -> #p::OutcomeKind {
                    match self {
                        #( Self::#idents => #kinds, )*
                    }
                }
            }
        };
    }
}
