//! A contract struct's impls, `JsonType` and `Contract`, assembled from the
//! generators' parts.
use proc_macro2::TokenStream;
use quote::quote;

use super::decode::Mode;
use super::edit::{self, Policies};
use super::lit::uint;
use super::{
    borrowed, business, decode, describe, encode, generic_json_type_impl, private, rules, schema,
    shape,
};
use crate::checked::{Contract, Struct};

pub fn expand(cont: &Contract<'_>, s: &Struct<'_>) -> TokenStream {
    let p = private();
    let ident = cont.ident;
    let name = ident.to_string();
    let decode = decode::struct_body(Mode::Owned);
    let tag = quote!(__contract_tag);
    let tag_seen = quote!(__contract_tag_seen);
    let members = decode::members(&s.members, &quote!(Self), &tag, &tag_seen, Mode::Owned);
    let owned = borrowed::owned(cont);
    let encode = encode::struct_body();
    let encode_members = encode::members(&s.members, |_, f| {
        let ident = f.ident;
        quote!(self.#ident)
    });
    let member_names = s.members.iter().map(|f| f.json_name);
    let schema = schema::struct_body(s);
    let rules = rules::body(s);
    let describe = describe::of_struct(cont, s);
    let shape = shape::object(s.members.iter().map(|f| (f.json_name, Some(f.ty))));
    let outcome = business::outcome_fn(s);
    let borrowed = cont.lifetime.map(|lt| borrowed::Parts {
        decode: decode::struct_body(Mode::Borrowed(lt)),
        members: Some(decode::members(
            &s.members,
            &quote!(Self),
            &tag,
            &tag_seen,
            Mode::Borrowed(lt),
        )),
        context: match s.context {
            Some(ty) => quote!(#ty),
            None => quote!(()),
        },
        has_context: s.context.is_some(),
        outcome: business::outcome_body(s),
    });
    let business::Stage {
        business_impl,
        contract_fn: business,
    } = business::of_struct(ident, &cont.generics, s);
    let context = match s.context {
        Some(ty) => quote!(#ty),
        None => quote!(()),
    };
    let limits = limits(s.max_bytes, s.max_depth);
    let version_const = s.version.map(|v| {
        let n = uint(v);
        quote!(const VERSION: u32 = #n;)
    });
    let Policies {
        consts: policy_consts,
        list: policy_list,
        assertions: policy_checks,
    } = edit::policies(ident, &s.policies);
    let json_type = generic_json_type_impl(
        ident,
        &cont.generics,
        [
            shape,
            decode,
            encode,
            quote!(__contract_defs.reference::<#owned>()),
        ],
        rules,
    );
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    let (contract_generics, contract_ty, contract_where) = borrowed::contract_head(cont);
    let borrowed = borrowed.map(|parts| borrowed::impls(cont, parts));
    let schema_name = schema_name(&cont.generics);
    quote! {
        const _: () = {
            #json_type
            #describe

            #[automatically_derived]
            impl #impl_generics #p::ObjectMembers for #ident #ty_generics #where_clause {
                const MEMBER_NAMES: &'static [&'static str] = &[#(#member_names),*];

                #[inline]
                fn decode_members(
                    __contract_r: &mut #p::Reader<'_>,
                    __contract_path: &#p::Path<'_>,
                    __contract_cx: &mut #p::Collector,
                    mut __contract_more: bool,
                    __contract_tag: #p::Option<&str>,
                    __contract_tag_seen: &mut #p::TagSeen,
                ) -> #p::Result<#p::Option<Self>, #p::ParseError> {
                    #members
                }

                fn encode_members(&self, __contract_map: &mut #p::Map<#p::String, #p::Value>) {
                    #encode_members
                }

                fn object_schema(__contract_defs: &mut #p::SchemaGen) -> #p::Value {
                    <#owned as #p::Contract>::__schema_body(__contract_defs)
                }
            }

            #[automatically_derived]
            impl #contract_generics #p::Contract for #contract_ty #contract_where {
                const NAME: &'static str = #name;
                #schema_name
                #version_const
                const LIMITS: #p::Limits = #limits;
                type Context = #context;
                const __POLICIES: &'static [#p::EditPolicy<Self>] = &[#policy_list];

                fn __schema_body(__contract_defs: &mut #p::SchemaGen) -> #p::Value {
                    #schema
                }

                #outcome
                #business
            }

            #business_impl
            #policy_checks
            #borrowed
        };
        #policy_consts
    }
}

/// A generic contract's schema name holds its type arguments' names:
/// `Contract::schema_name`, or nothing for a contract without type
/// parameters.
pub fn schema_name(generics: &syn::Generics) -> Option<TokenStream> {
    let p = private();
    let params: Vec<&syn::Ident> = generics.type_params().map(|t| &t.ident).collect();
    if params.is_empty() {
        return None;
    }
    Some(quote! {
        fn schema_name() -> #p::Cow<'static, str> {
            #p::generic_name(
                <Self as #p::Contract>::NAME,
                &[#(<#params as #p::Contract>::schema_name()),*],
            )
        }
    })
}

// `..DEFAULT` only when a limit is left out (clippy's `needless_update`
// would fire in the user's crate otherwise).
pub fn limits(max_bytes: Option<u64>, max_depth: Option<u64>) -> TokenStream {
    let p = private();
    let max_bytes = max_bytes.map(|b| {
        let v = uint(b);
        quote!(max_bytes: #v as usize,)
    });
    let max_depth = max_depth.map(|d| {
        let v = uint(d);
        quote!(max_depth: #v as usize,)
    });
    let rest = (max_bytes.is_none() || max_depth.is_none()).then(|| quote!(..#p::Limits::DEFAULT));
    quote!(#p::Limits { #max_bytes #max_depth #rest })
}
