//! After a derive error: a minimal impl, so the user sees the derive's
//! errors and not a cascade of "trait not implemented" from their own code.
use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use super::private;

pub fn stub(input: &DeriveInput) -> TokenStream {
    let p = private();
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let outcome = matches!(input.data, syn::Data::Enum(_)).then(|| {
        quote! {
            #[automatically_derived]
            impl #impl_generics #p::OutcomeEnum for #ident #ty_generics #where_clause {
                fn outcome_kind(&self) -> #p::OutcomeKind {
                    #p::OutcomeKind::Accept
                }
            }
        }
    });
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #p::Field for #ident #ty_generics #where_clause {
                const SHAPE: #p::Shape = #p::Shape::Leaf;
                fn decode(
                    _: &mut #p::Reader<'_>,
                    _: &#p::Path<'_>,
                    _: &mut #p::Cx,
                ) -> #p::Result<#p::Option<Self>, #p::ParseError> {
                    #p::Ok(#p::None)
                }
                fn encode(&self) -> #p::Value {
                    #p::Value::Null
                }
                fn schema(_: &mut #p::SchemaGen) -> #p::Value {
                    #p::Value::Null
                }
            }
            #[automatically_derived]
            impl #impl_generics #p::Contract for #ident #ty_generics #where_clause {
                const NAME: &'static str = "";
                const LIMITS: #p::Limits = #p::Limits::DEFAULT;
                type Context = ();
                fn __schema_body(_: &mut #p::SchemaGen) -> #p::Value {
                    #p::Value::Null
                }
            }
            #outcome
        };
    }
}
