//! A tagged union's impls, `JsonType`, `Contract` and `OutcomeEnum`,
//! assembled from the generators' parts; the outcome each variant stands for.
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::structs::limits;
use super::{business, decode, encode, json_type_impl, private, private_at, rules, schema, shape};
use crate::checked::{Contract, Members, Union};
use crate::model::Variant;

pub fn expand(cont: &Contract<'_>, u: &Union<'_>) -> TokenStream {
    let ident = cont.ident;
    let shape = shape::union(u);
    let decode = decode::union_body(ident, u);
    let encode = encode::union_body(u);
    let schema = schema::union_body(cont, u);
    let rules = rules::union_body(u);
    let limits = limits(u.max_bytes, u.max_depth);
    let tag_checks = tag_checks(cont, u);
    let json_type = json_type_impl(
        ident,
        shape,
        decode,
        encode,
        quote!(__contract_defs.reference::<Self>()),
        Some(rules),
    );
    let business::Stage {
        business_impl,
        contract_fn,
    } = business::of_union(ident, u);
    let context = match u.context {
        Some(ty) => quote!(#ty),
        None => quote!(()),
    };
    let contract = enum_contract_impl(
        ident,
        EnumContract {
            limits,
            schema,
            context,
            business: contract_fn,
        },
        u.variants.iter().map(|v| v.variant),
    );
    quote! {
        const _: () = {
            #json_type
            #contract
            #business_impl
            #tag_checks
        };
    }
}

// A newtype variant's struct has no member named like the tag (its members
// sit beside the tag): a `const` check, since only the struct's derive
// knows its members. Spanned at the wrapped type.
fn tag_checks(cont: &Contract<'_>, u: &Union<'_>) -> TokenStream {
    let checks = u.variants.iter().filter_map(|v| {
        let Members::Newtype(ty) = v.members else {
            return None;
        };
        let p = private_at(ty.span());
        let tag = u.tag;
        let message = format!(
            "the struct in `{}::{}` has a member named `{tag}`, the union's tag: its members sit beside the tag, so rename that member",
            cont.ident, v.variant.ident
        );
        Some(quote_spanned! {ty.span()=>
            const _: () = if #p::names_contain(<#ty as #p::ObjectMembers>::MEMBER_NAMES, #tag) {
                ::core::panic!(#message)
            };
        })
    });
    quote!(#(#checks)*)
}

/// What an enum's (or a union's) `impl Contract` is made of besides its
/// variants.
pub struct EnumContract {
    pub limits: TokenStream,
    /// The body of `__schema_body`.
    pub schema: TokenStream,
    /// The `Context` type (`()` when none is declared).
    pub context: TokenStream,
    /// The `__business` item, if the union declares a context.
    pub business: TokenStream,
}

/// An enum's (or a union's) `impl Contract` and `impl OutcomeEnum`: each
/// variant (matched by `Self::V { .. }`, which fits unit, tuple and struct
/// variants alike) stands for its outcome, which decides as the root too.
pub fn enum_contract_impl<'v>(
    ident: &syn::Ident,
    parts: EnumContract,
    variants: impl Iterator<Item = &'v Variant<'v>>,
) -> TokenStream {
    let p = private();
    let EnumContract {
        limits,
        schema,
        context,
        business,
    } = parts;
    let name = ident.to_string();
    let arms = variants.map(|v| {
        let (ident, kind) = (v.ident, outcome_kind(v));
        quote!(Self::#ident { .. } => #kind,)
    });
    quote! {
        #[automatically_derived]
        impl #p::Contract for #ident {
            const NAME: &'static str = #name;
            const LIMITS: #p::Limits = #limits;
            type Context = #context;

            fn __schema_body(__contract_defs: &mut #p::SchemaGen) -> #p::Value {
                #schema
            }

            fn __outcome(&self) -> #p::OutcomeKind {
                #p::OutcomeEnum::outcome_kind(self)
            }

            #business
        }

        #[automatically_derived]
        impl #p::OutcomeEnum for #ident {
            fn outcome_kind(&self) -> #p::OutcomeKind {
                match self {
                    #(#arms)*
                }
            }
        }
    }
}

/// The outcome a variant stands for: `clarify`, `decline` or `accept`.
fn outcome_kind(v: &Variant<'_>) -> TokenStream {
    let p = private();
    if v.attrs.clarify.is_some() {
        quote!(#p::OutcomeKind::Clarify)
    } else if v.attrs.decline.is_some() {
        quote!(#p::OutcomeKind::Decline)
    } else {
        quote!(#p::OutcomeKind::Accept)
    }
}
