//! A contract with a lifetime (`struct Invoice<'a>`): its `Contract` impl
//! is for the `'static` form (`Invoice<'static>`, whose `Cow` fields a
//! `JsonType` decode owns), and `Invoice<'a>` also reads the text it
//! borrows from: `BorrowDecode<'a>` (and `BorrowMembers<'a>` for a struct),
//! `BorrowedContract<'a>`, and inherent entry points that call it, so that
//! `Invoice::from_json(raw)` borrows from `raw` whatever the caller imports.
use proc_macro2::TokenStream;
use quote::quote;

use super::private;
use crate::checked::Contract;

/// The type a contract's `Contract` impl is for, as its other impls name
/// it: `Self`, or a contract with a lifetime's `'static` form.
pub fn owned(cont: &Contract<'_>) -> TokenStream {
    let ident = cont.ident;
    match cont.lifetime {
        Some(_) => quote!(#ident<'static>),
        None => quote!(Self),
    }
}

/// The generics, type and `where` clause of the `Contract` impl: the
/// input's; for a contract with a lifetime, its `'static` form, written
/// with the lifetime bounded by `'static` (the members' types, which name
/// the lifetime, are then in scope).
pub fn contract_head(cont: &Contract<'_>) -> (TokenStream, TokenStream, TokenStream) {
    let ident = cont.ident;
    match cont.lifetime {
        Some(lt) => (
            quote!(<#lt>),
            quote!(#ident<#lt>),
            quote!(where #lt: 'static),
        ),
        None => {
            let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
            (
                quote!(#impl_generics),
                quote!(#ident #ty_generics),
                quote!(#where_clause),
            )
        }
    }
}

/// What a borrowed contract's impls are made of.
pub struct Parts {
    /// The body of `decode_borrowed` (reader `__contract_r: &mut Reader<'a>`).
    pub decode: TokenStream,
    /// A struct's member loop borrowing (`decode_members_borrowed`), or
    /// `None` for a union.
    pub members: Option<TokenStream>,
    /// The `Context` type (`()` when none is declared).
    pub context: TokenStream,
    /// Whether a context is declared (else the business stage is empty).
    pub has_context: bool,
    /// The body of `__outcome` (`self` in scope).
    pub outcome: TokenStream,
}

/// The impls of a contract with lifetime `lt`; nothing for one without.
pub fn impls(cont: &Contract<'_>, parts: Parts) -> TokenStream {
    let Some(lt) = cont.lifetime else {
        return TokenStream::new();
    };
    let p = private();
    let ident = cont.ident;
    let Parts {
        decode,
        members,
        context,
        has_context,
        outcome,
    } = parts;
    let members = members.map(|members| {
        quote! {
            #[automatically_derived]
            impl<#lt> #p::BorrowMembers<#lt> for #ident<#lt> {
                #[inline]
                fn decode_members_borrowed(
                    __contract_r: &mut #p::Reader<#lt>,
                    __contract_path: &#p::Path<'_>,
                    __contract_cx: &mut #p::Collector,
                    mut __contract_more: bool,
                    __contract_tag: #p::Option<&str>,
                    __contract_tag_seen: &mut #p::TagSeen,
                ) -> #p::Result<#p::Option<Self>, #p::ParseError> {
                    #members
                }
            }
        }
    });
    let business = if has_context {
        quote!(<Self as #p::Business<#context>>::business_at(self, __contract_ctx, &#p::Path::Root, __contract_cx);)
    } else {
        quote!(let _ = (__contract_ctx, __contract_cx);)
    };
    quote! {
        #[automatically_derived]
        impl<#lt> #p::BorrowDecode<#lt> for #ident<#lt> {
            fn decode_borrowed(
                __contract_r: &mut #p::Reader<#lt>,
                __contract_path: &#p::Path<'_>,
                __contract_cx: &mut #p::Collector,
            ) -> #p::Result<#p::Option<Self>, #p::ParseError> {
                #decode
            }
        }

        #members

        #[automatically_derived]
        impl<#lt> #p::BorrowedContract<#lt> for #ident<#lt> {
            type Owned = #ident<'static>;

            fn __business(&mut self, __contract_ctx: &#context, __contract_cx: &mut #p::Collector) {
                #business
            }

            fn __outcome(&self) -> #p::OutcomeKind {
                #outcome
            }
        }

        #[automatically_derived]
        impl<#lt> #ident<#lt> {
            /// Parses and checks `raw` (parse, schema and rule stages), the value borrowing from it.
            #[inline]
            pub fn from_json(raw: &#lt str) -> #p::Result<Self, #p::Rejection> {
                <Self as #p::BorrowedContract<#lt>>::from_json(raw)
            }

            /// Parse, schema and rule stages, as an outcome, the value borrowing from `raw`.
            pub fn check(raw: &#lt str) -> #p::Outcome<Self> {
                <Self as #p::BorrowedContract<#lt>>::check(raw)
            }

            /// Every stage, business included, against trusted `ctx`, the value borrowing from `raw`.
            pub fn check_with(raw: &#lt str, ctx: &#context) -> #p::Outcome<Self> {
                <Self as #p::BorrowedContract<#lt>>::check_with(raw, ctx)
            }

            /// The JSON Schema (draft 2020-12), the same as the contract's with `String` fields.
            pub fn json_schema() -> #p::Value {
                <Self as #p::BorrowedContract<#lt>>::json_schema()
            }

            /// The value as JSON.
            pub fn to_json(&self) -> #p::Value {
                <Self as #p::BorrowedContract<#lt>>::to_json(self)
            }
        }
    }
}
