//! A tagged union's impls, `JsonType`, `Contract` and `OutcomeEnum`,
//! assembled from the generators' parts; the outcome each variant stands for.
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::decode::Mode;
use super::structs::{limits, schema_name};
use super::{
    borrowed, business, decode, describe, encode, generic_json_type_impl, private, private_at,
    rules, schema, shape,
};
use crate::checked::{Contract, Members, Union};
use crate::model::Variant;

pub fn expand(cont: &Contract<'_>, u: &Union<'_>) -> TokenStream {
    let ident = cont.ident;
    let shape = shape::union(u);
    let TagChecks {
        items: tag_checks,
        in_decode,
    } = tag_checks(cont, u);
    let decode = decode::union_body(ident, &cont.generics, u, Mode::Owned);
    let decode = quote!(#in_decode #decode);
    let owned = borrowed::owned(cont);
    let borrowed = cont.lifetime.map(|lt| {
        let decode = decode::union_body(ident, &cont.generics, u, Mode::Borrowed(lt));
        borrowed::impls(
            cont,
            borrowed::Parts {
                decode: quote!(#in_decode #decode),
                members: None,
                context: match u.context {
                    Some(ty) => quote!(#ty),
                    None => quote!(()),
                },
                has_context: u.context.is_some(),
                outcome: {
                    let p = private();
                    quote!(<Self as #p::OutcomeEnum>::outcome_kind(self))
                },
            },
        )
    });
    let encode = encode::union_body(u);
    let schema = schema::union_body(cont, u);
    let rules = rules::union_body(u);
    let describe = describe::of_union(cont, u);
    let limits = limits(u.max_bytes, u.max_depth);
    let json_type = generic_json_type_impl(
        ident,
        &cont.generics,
        [
            shape,
            decode,
            encode,
            quote!(__contract_defs.reference::<#owned>()),
        ],
        Some(rules),
    );
    let business::Stage {
        business_impl,
        contract_fn,
    } = business::of_union(ident, &cont.generics, u);
    let context = match u.context {
        Some(ty) => quote!(#ty),
        None => quote!(()),
    };
    let contract = enum_contract_impl_for(
        ident,
        &cont.generics,
        cont.lifetime.is_some(),
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
            #describe
            #contract
            #business_impl
            #tag_checks
            #borrowed
        };
    }
}

// A newtype variant's struct has no member named like the tag (its members
// sit beside the tag): a `const` check, since only the struct's derive
// knows its members. Spanned at the wrapped type. A free `const` cannot
// name a type parameter, so a generic union checks in a `const` block of
// its `decode`, evaluated for each instantiation that is decoded.
fn tag_checks(cont: &Contract<'_>, u: &Union<'_>) -> TagChecks {
    let generic = !cont.generics.params.is_empty();
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
            if #p::names_contain(<#ty as #p::ObjectMembers>::MEMBER_NAMES, #tag) {
                ::core::panic!(#message)
            }
        })
    });
    let checks: Vec<TokenStream> = checks.collect();
    match (checks.is_empty(), generic) {
        (true, _) => TagChecks::default(),
        (false, false) => TagChecks {
            items: quote!(const _: () = { #(#checks)* };),
            in_decode: TokenStream::new(),
        },
        (false, true) => TagChecks {
            items: TokenStream::new(),
            in_decode: quote!(const { #(#checks)* };),
        },
    }
}

/// The newtype variants' tag checks: items beside the impls, or (in a
/// generic union) a statement at the start of `decode`.
#[derive(Default)]
struct TagChecks {
    items: TokenStream,
    in_decode: TokenStream,
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
    generics: &syn::Generics,
    parts: EnumContract,
    variants: impl Iterator<Item = &'v Variant<'v>>,
) -> TokenStream {
    enum_contract_impl_for(ident, generics, false, parts, variants)
}

/// [`enum_contract_impl`] of a union that may have a lifetime (`borrows`):
/// its `Contract` impl is then for its `'static` form.
fn enum_contract_impl_for<'v>(
    ident: &syn::Ident,
    generics: &syn::Generics,
    borrows: bool,
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
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let schema_name = schema_name(generics);
    let arms = variants.map(|v| {
        let (ident, kind) = (v.ident, outcome_kind(v));
        quote!(Self::#ident { .. } => #kind,)
    });
    let contract_head = if borrows {
        // The `'static` form (see `borrowed::contract_head`).
        let lt = generics.lifetimes().next().map(|l| &l.lifetime);
        quote!(impl #impl_generics #p::Contract for #ident #ty_generics where #lt: 'static)
    } else {
        quote!(impl #impl_generics #p::Contract for #ident #ty_generics #where_clause)
    };
    quote! {
        #[automatically_derived]
        #contract_head {
            const NAME: &'static str = #name;
            #schema_name
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
        impl #impl_generics #p::OutcomeEnum for #ident #ty_generics #where_clause {
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
