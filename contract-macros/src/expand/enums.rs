//! A contract enum: unit variants as JSON strings, and the outcome each one
//! stands for.
use proc_macro2::TokenStream;
use quote::quote;

use super::private;
use crate::model::{Container, Variant};

pub fn expand(cont: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let p = private();
    let ident = cont.ident;
    let name = ident.to_string();
    let idents: Vec<_> = variants.iter().map(|v| v.ident).collect();
    let names: Vec<_> = variants.iter().map(|v| v.json_name.as_str()).collect();
    let expected = format!(
        "one of: {}",
        names
            .iter()
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let not_one_of = format!("expected {expected}");
    let kinds = variants.iter().map(|v| {
        if v.attrs.clarify.is_some() {
            quote!(#p::OutcomeKind::Clarify)
        } else if v.attrs.decline.is_some() {
            quote!(#p::OutcomeKind::Decline)
        } else {
            quote!(#p::OutcomeKind::Accept)
        }
    });
    let description = cont
        .doc
        .as_ref()
        .map(|d| quote!(__contract_schema["description"] = #p::json!(#d);));
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #p::Field for #ident {
                const SHAPE: #p::Shape = #p::Shape::Leaf;

                fn decode(
                    __contract_r: &mut #p::Reader<'_>,
                    __contract_path: &#p::Path<'_>,
                    __contract_cx: &mut #p::Cx,
                ) -> #p::Result<#p::Option<Self>, #p::ParseError> {
                    match __contract_r.peek()? {
                        #p::Peek::String => {
                            let __contract_v = match __contract_r.read_str_ref()? {
                                #( #names => #p::Some(Self::#idents), )*
                                _ => #p::None,
                            };
                            if __contract_v.is_none() {
                                #p::not_one_of(__contract_cx, __contract_path, #not_one_of, #expected);
                            }
                            #p::Ok(__contract_v)
                        }
                        __contract_other => {
                            static __CONTRACT_MESSAGES: #p::TypeMessages = #p::type_messages!(#expected);
                            #p::invalid_type_of(
                                __contract_r, __contract_path, __contract_cx, &__CONTRACT_MESSAGES, __contract_other,
                            )
                        }
                    }
                }

                fn encode(&self) -> #p::Value {
                    #p::Value::String(#p::String::from(match self {
                        #( Self::#idents => #names, )*
                    }))
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
                    let mut __contract_schema = #p::json!({ "type": "string", "enum": [#(#names),*] });
                    #description
                    __contract_schema
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
