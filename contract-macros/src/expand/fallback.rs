//! After a derive error: a minimal impl, so the user sees the derive's
//! errors and not a cascade of "trait not implemented" from their own code.
//! It reads the raw model, since no checked model exists.
use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use super::{private, shape};
use crate::model::{Body, Container};
use crate::ty::Ty;

pub fn stub(input: &DeriveInput, cont: Option<&Container<'_>>) -> TokenStream {
    let p = private();
    let ident = &input.ident;
    // A generic input is already an error; `Self: 'static` keeps the stub
    // from adding lifetime errors to it (`Contract: 'static`).
    let mut generics = input.generics.clone();
    if !generics.params.is_empty() {
        generics
            .make_where_clause()
            .predicates
            .push(syn::parse_quote!(Self: 'static));
    }
    // `JsonType: Send + Sync`: a field type the derive refused may be
    // neither (`Rc`). Bound under a `for<..>`, the stub then applies only
    // when it holds, instead of adding errors after the derive's own.
    generics
        .make_where_clause()
        .predicates
        .push(syn::parse_quote!(
            for<'__contract> Self: ::core::marker::Send + ::core::marker::Sync
        ));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let shape = stub_shape(input, cont);
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
    let members = matches!(input.data, syn::Data::Struct(_)).then(|| {
        quote! {
            #[automatically_derived]
            impl #impl_generics #p::ObjectMembers for #ident #ty_generics #where_clause {
                const MEMBER_NAMES: &'static [&'static str] = &[];
                fn decode_members(
                    _: &mut #p::Reader<'_>,
                    _: &#p::Path<'_>,
                    _: &mut #p::Collector,
                    _: bool,
                    _: #p::Option<&str>,
                    _: &mut #p::TagSeen,
                ) -> #p::Result<#p::Option<Self>, #p::ParseError> {
                    #p::Ok(#p::None)
                }
                fn encode_members(&self, _: &mut #p::Map<#p::String, #p::Value>) {}
                fn object_schema(_: &mut #p::SchemaGen) -> #p::Value {
                    #p::Value::Null
                }
            }
        }
    });
    // A generic input is an error of its own; no field of another contract
    // can name it without more errors.
    let business = input.generics.params.is_empty().then(|| {
        quote! {
            #[automatically_derived]
            impl<__ContractC: ?::core::marker::Sized> #p::Business<__ContractC> for #ident {
                fn business_at(&mut self, _: &__ContractC, _: &#p::Path<'_>, _: &mut #p::Collector) {}
            }
        }
    });
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #p::JsonType for #ident #ty_generics #where_clause {
                const SHAPE: #p::Shape = #shape;
                fn decode(
                    _: &mut #p::Reader<'_>,
                    _: &#p::Path<'_>,
                    _: &mut #p::Collector,
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
            #business
            #outcome
            #members
        };
    }
}

// The struct's real shape where it can be had, so that an edit pointer of
// another contract into this one is not reported as a second error. Field
// types the derive rejected (and generic inputs) stand as leaves.
fn stub_shape(input: &DeriveInput, cont: Option<&Container<'_>>) -> TokenStream {
    match cont.map(|c| &c.data) {
        Some(Body::Struct(members)) if input.generics.params.is_empty() => {
            shape::object(members.iter().map(|f| {
                let ty = (!matches!(f.kind, Ty::Unsupported(_))).then_some(f.ty);
                (f.json_name.as_str(), ty)
            }))
        }
        _ => shape::leaf(),
    }
}
