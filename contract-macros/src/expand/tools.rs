//! A tools enum: each tool's hidden arguments struct and call struct
//! (`{"arguments", "_meta"}`), the hidden union of the calls (tag `name`)
//! through which the enum's JSON form is read, each derived in-process, and
//! the enum's own impls: `JsonType` and `Contract` through the union,
//! `Business` over its members at `/arguments`, and `Tools`.
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{DeriveInput, Meta, Token};

use super::structs::limits;
use super::unions::{EnumContract, enum_contract_impl};
use super::{business, encode, private, private_at};
use crate::checked::{Member, Members, Tools};
use crate::model::Container;

/// The hidden items and the enum's impls, inside `const _: () = { .. }`.
pub fn expand(input: &DeriveInput, cont: &Container<'_>, t: &Tools<'_>) -> TokenStream {
    let p = private();
    let ident = cont.ident;
    let syn::Data::Enum(data) = &input.data else {
        return TokenStream::new();
    };
    let common = common_attrs(t);
    let union_ident = format_ident!("__{}_Tools", ident, span = Span::call_site());
    let mut hidden = Vec::new();
    let mut union_variants = Vec::new();
    let mut from_arms = Vec::new();
    let mut tool_entries = Vec::new();
    let mut binding_probes = Vec::new();
    let mut readers = Vec::new();
    for (tool, raw) in t.tools.iter().zip(&data.variants) {
        let v = tool.union.variant;
        let vi = v.ident;
        let call_ident = format_ident!("__{}_{}_Call", ident, vi, span = Span::call_site());
        let (args_ty, args_item, arguments_field): (TokenStream, Option<DeriveInput>, TokenStream) =
            match (&tool.union.members, &raw.fields) {
                (Members::Newtype(ty), _) => {
                    let at = private_at(ty.span());
                    // A newtype tool wraps a contract struct (its members are the arguments).
                    hidden.push(quote_spanned! {ty.span()=>
                        const _: fn() = || {
                            fn __contract_struct<T: #at::ObjectMembers>() {}
                            __contract_struct::<#ty>();
                        };
                    });
                    (quote!(#ty), None, quote!(arguments: #ty))
                }
                (Members::Struct(_), syn::Fields::Named(named)) => {
                    let args_ident =
                        format_ident!("__{}_{}_Arguments", ident, vi, span = Span::call_site());
                    let rules = variant_rules(&raw.attrs);
                    let mut fields = named.clone();
                    for f in &mut fields.named {
                        f.vis = syn::Visibility::Inherited;
                    }
                    let owner = format!("{ident}::{vi}");
                    let item: DeriveInput = syn::parse_quote! {
                        #[contract(__owner = #owner, #common #(#rules),*)]
                        struct #args_ident #fields
                    };
                    (
                        quote!(#args_ident),
                        Some(item),
                        quote!(arguments: #args_ident),
                    )
                }
                _ => {
                    let args_ident =
                        format_ident!("__{}_{}_Arguments", ident, vi, span = Span::call_site());
                    let item: DeriveInput = syn::parse_quote! {
                        #[derive(Default)]
                        #[contract(#common)]
                        struct #args_ident {}
                    };
                    (
                        quote!(#args_ident),
                        Some(item),
                        quote!(#[contract(optional, default)] arguments: #args_ident),
                    )
                }
            };
        if let Some(item) = args_item {
            hidden.push(derived(&item));
        }
        let call: DeriveInput = syn::parse_quote! {
            #[contract(#common)]
            struct #call_ident {
                #arguments_field,
                #[contract(optional, rename = "_meta")]
                __contract_meta: #p::Option<#p::Meta>,
            }
        };
        hidden.push(derived(&call));
        let name = v.json_name.as_str();
        let docs = raw.attrs.iter().filter(|a| a.path().is_ident("doc"));
        let outcome = if v.attrs.clarify.is_some() {
            quote!(clarify,)
        } else if v.attrs.decline.is_some() {
            quote!(decline,)
        } else {
            TokenStream::new()
        };
        union_variants.push(quote! {
            #(#docs)*
            #[contract(#outcome rename = #name)]
            #vi(#call_ident)
        });
        from_arms.push(match &tool.union.members {
            Members::Struct(fields) => {
                let idents: Vec<&syn::Ident> = fields.iter().map(|f| f.ident).collect();
                quote! {
                    #union_ident::#vi(__contract_c) => {
                        let __contract_a = __contract_c.arguments;
                        #ident::#vi { #(#idents: __contract_a.#idents),* }
                    }
                }
            }
            Members::Newtype(_) => {
                quote!(#union_ident::#vi(__contract_c) => #ident::#vi(__contract_c.arguments),)
            }
            Members::Unit => quote!(#union_ident::#vi(_) => #ident::#vi,),
        });
        let doc = match &v.doc {
            Some(d) => quote!(#p::Some(#d)),
            None => quote!(#p::None),
        };
        let max_calls = match tool.max_calls {
            Some(m) => {
                let m = m as usize;
                quote!(#p::Some(#m))
            }
            None => quote!(#p::None),
        };
        if let Some(context) = t.context {
            binding_probes.push(quote! {
                (&#p::BindingsOf::<#args_ty, #context>::new()).bindings(ctx)
            });
        }
        // The tool's arguments read straight into the enum (`check_call`).
        let read_ident = format_ident!("__contract_read_{}", vi, span = Span::call_site());
        let construct = match &tool.union.members {
            Members::Struct(fields) => {
                let idents: Vec<&syn::Ident> = fields.iter().map(|f| f.ident).collect();
                quote!(#ident::#vi { #(#idents: __contract_a.#idents),* })
            }
            Members::Newtype(_) => quote!(#ident::#vi(__contract_a)),
            Members::Unit => quote!({
                let _ = __contract_a;
                #ident::#vi
            }),
        };
        hidden.push(quote! {
            #[allow(non_snake_case)]
            fn #read_ident(
                __contract_r: &mut #p::Reader<'_>,
                __contract_path: &#p::Path<'_>,
                __contract_cx: &mut #p::Collector,
            ) -> #p::Result<#p::Option<#ident>, #p::ParseError> {
                let __contract_v = <#args_ty as #p::JsonType>::decode(__contract_r, __contract_path, __contract_cx)?;
                if let #p::Some(__contract_a) = &__contract_v {
                    if __contract_cx.is_clean() {
                        <#args_ty as #p::JsonType>::rules(__contract_a, __contract_path, __contract_cx);
                    }
                }
                #p::Ok(#p::Option::map(__contract_v, |__contract_a| #construct))
            }
        });
        readers.push(quote!(#read_ident));
        let has_arguments = !matches!(tool.union.members, Members::Unit);
        tool_entries.push(quote! {
            #p::Tool {
                name: #name,
                description: #doc,
                max_calls: #max_calls,
                has_arguments: #has_arguments,
                export: <#args_ty as #p::Contract>::json_schema_for,
                schema: <#args_ty as #p::Contract>::json_schema,
            }
        });
    }
    let union: DeriveInput = syn::parse_quote! {
        #[contract(tag = "name", __tool_names, #common)]
        enum #union_ident { #(#union_variants),* }
    };
    hidden.push(derived(&union));
    let json_type = json_type_impl(ident, &union_ident, t, &from_arms);
    let business::Stage {
        business_impl,
        contract_fn,
    } = business_stage(ident, t);
    let context = match t.context {
        Some(ty) => quote!(#ty),
        None => quote!(()),
    };
    let contract = enum_contract_impl(
        ident,
        &syn::Generics::default(),
        EnumContract {
            limits: limits(t.max_bytes, t.max_depth),
            schema: quote!(<#union_ident as #p::Contract>::__schema_body(__contract_defs)),
            context,
            business: contract_fn,
        },
        t.tools.iter().map(|tool| tool.union.variant),
    );
    let tools_impl = tools_impl(ident, t, [&tool_entries, &readers, &binding_probes]);
    quote! {
        const _: () = {
            #(#hidden)*
            #json_type
            #contract
            #business_impl
            #tools_impl
        };
        #p::impl_json_schema!(#ident, [], [], []);
    }
}

// `max_bytes`, `max_depth` and `context` of the enum, for each hidden type.
fn common_attrs(t: &Tools<'_>) -> TokenStream {
    let mut out = TokenStream::new();
    if let Some(b) = t.max_bytes {
        out.extend(quote!(max_bytes = #b,));
    }
    if let Some(d) = t.max_depth {
        out.extend(quote!(max_depth = #d,));
    }
    if let Some(c) = t.context {
        out.extend(quote!(context = #c,));
    }
    out
}

// A tool's `when(..)` and `order(..)`, as written, for its arguments struct.
fn variant_rules(attrs: &[syn::Attribute]) -> Vec<Meta> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("contract")) {
        let Ok(metas) = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
        else {
            continue;
        };
        out.extend(
            metas
                .into_iter()
                .filter(|m| m.path().is_ident("when") || m.path().is_ident("order")),
        );
    }
    out
}

// A hidden type: the item without its attributes of the contract and serde
// (no derive reads them there), and its impls, derived here.
fn derived(item: &DeriveInput) -> TokenStream {
    let impls = super::derive(item);
    let mut bare = item.clone();
    strip(&mut bare.attrs);
    match &mut bare.data {
        syn::Data::Struct(s) => s.fields.iter_mut().for_each(|f| strip(&mut f.attrs)),
        syn::Data::Enum(e) => e.variants.iter_mut().for_each(|v| strip(&mut v.attrs)),
        syn::Data::Union(_) => {}
    }
    quote! {
        #[allow(non_camel_case_types, dead_code, clippy::all)]
        #bare
        #impls
    }
}

fn strip(attrs: &mut Vec<syn::Attribute>) {
    attrs.retain(|a| !a.path().is_ident("contract") && !a.path().is_ident("serde"));
}

fn json_type_impl(
    ident: &syn::Ident,
    union_ident: &syn::Ident,
    t: &Tools<'_>,
    from_arms: &[TokenStream],
) -> TokenStream {
    let p = private();
    let encode_arms = t.tools.iter().map(|tool| {
        let v = &tool.union;
        let pattern = v.pattern();
        let name = v.variant.json_name.as_str();
        let arguments = match &v.members {
            Members::Unit => quote!(#p::Value::Object(#p::Map::new())),
            Members::Newtype(ty) => quote!(<#ty as #p::JsonType>::encode(__contract_inner)),
            Members::Struct(fields) => {
                let puts = encode::members(fields, |_, f| {
                    let binding = f.binding();
                    quote!((*#binding))
                });
                quote! {{
                    let mut __contract_object = #p::Map::new();
                    let __contract_map = &mut __contract_object;
                    #puts
                    #p::Value::Object(__contract_object)
                }}
            }
        };
        quote!(#pattern => #p::encode_call(#name, #arguments),)
    });
    quote! {
        #[automatically_derived]
        impl #p::JsonType for #ident {
            const SHAPE: #p::Shape = <#union_ident as #p::JsonType>::SHAPE;
            const TYPE: #p::Type = <#union_ident as #p::JsonType>::TYPE;

            fn decode(
                __contract_r: &mut #p::Reader<'_>,
                __contract_path: &#p::Path<'_>,
                __contract_cx: &mut #p::Collector,
            ) -> #p::Result<#p::Option<Self>, #p::ParseError> {
                let __contract_v = <#union_ident as #p::JsonType>::decode(__contract_r, __contract_path, __contract_cx)?;
                // A tool's rules read its arguments, which the enum holds
                // unboxed: they run here, on a call read without error.
                if let #p::Some(__contract_c) = &__contract_v {
                    if __contract_cx.is_clean() {
                        <#union_ident as #p::JsonType>::rules(__contract_c, __contract_path, __contract_cx);
                    }
                }
                #p::Ok(#p::Option::map(__contract_v, |__contract_c| match __contract_c {
                    #(#from_arms)*
                }))
            }

            fn encode(&self) -> #p::Value {
                match self {
                    #(#encode_arms)*
                }
            }

            fn schema(__contract_defs: &mut #p::SchemaGen) -> #p::Value {
                __contract_defs.reference::<Self>()
            }
        }
    }
}

// `evidence` members and nested contracts of the chosen tool at
// `/arguments`, then the enum's `check` on the whole call.
fn business_stage(ident: &syn::Ident, t: &Tools<'_>) -> business::Stage {
    let generics = syn::Generics::default();
    let Some(context) = t.context else {
        return business::no_context(ident, &generics);
    };
    let place = |f: &Member<'_>| {
        let binding = f.binding();
        quote!((*#binding))
    };
    let arms = t.tools.iter().map(|tool| {
        let v = &tool.union;
        let pattern = v.pattern();
        let body = match &v.members {
            Members::Unit => TokenStream::new(),
            Members::Struct(fields) => business::member_checks(fields, &place, context),
            Members::Newtype(ty) => {
                let at = private_at(ty.span());
                quote_spanned! {ty.span()=>
                    <#ty as #at::Business<#context>>::business_at(__contract_inner, __contract_ctx, __contract_path, __contract_cx);
                }
            }
        };
        quote!(#pattern => { #body })
    });
    let check = t.check_fn.map(|path| business::check_call(path, None));
    // `one_of = ctx.FIELD` after the `check` function, whose reason at a
    // pointer stands for `not_in_context` there (as in a struct).
    let bound_arms = t.tools.iter().map(|tool| {
        let v = &tool.union;
        let pattern = v.pattern();
        let body = match &v.members {
            Members::Struct(fields) => business::bound_checks(fields, &place),
            Members::Unit | Members::Newtype(_) => TokenStream::new(),
        };
        quote!(#pattern => { #body })
    });
    let body = quote! {
        {
            let __contract_path = &__contract_path.key("arguments");
            match self {
                #(#arms)*
            }
        }
        #check
        {
            let __contract_path = &__contract_path.key("arguments");
            match self {
                #(#bound_arms)*
            }
        }
    };
    business::with_context(ident, &generics, context, body, TokenStream::new())
}

// `bindings`: for each tool, the `one_of = ctx.FIELD` members of its
// arguments with the context's values (a newtype over a struct of another
// context, or of none, has none), when the enum has a context.
fn tools_impl(
    ident: &syn::Ident,
    t: &Tools<'_>,
    [entries, readers, bindings]: [&[TokenStream]; 3],
) -> TokenStream {
    let p = private();
    let tool_bindings = t.context.is_some().then(|| {
        quote! {
            fn __tool_bindings(ctx: &Self::Context) -> #p::Vec<#p::Vec<#p::Binding>> {
                use #p::{ContractBindings as _, NoBindings as _};
                #p::Vec::from([#(#bindings),*])
            }
        }
    });
    let max_calls = t.max_calls.map(|m| {
        let m = m as usize;
        quote!(const __MAX_CALLS: #p::Option<usize> = #p::Some(#m);)
    });
    let batch = t.batch_check.map(|path| {
        let call = quote_spanned!(path.span()=> #path(__contract_calls, __contract_ctx));
        quote! {
            fn __batch_check(
                __contract_calls: &[Self],
                __contract_ctx: &Self::Context,
                __contract_cx: &mut #p::Collector,
            ) {
                if let #p::Err(__contract_e) = #call {
                    #p::violations(__contract_cx, &#p::Path::Root, #p::Violations::from(__contract_e));
                }
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #p::Tools for #ident {
            const __TOOLS: &'static [#p::Tool] = &[#(#entries),*];
            const __ARGUMENTS: &'static [#p::ReadArguments<Self>] = &[#(#readers),*];
            #max_calls
            #batch
            #tool_bindings
        }
    }
}

/// The `Tools` impl of a tools enum whose derive failed, so that its uses
/// add no errors of their own.
pub fn stub(ident: &syn::Ident) -> TokenStream {
    let p = private();
    quote! {
        #[automatically_derived]
        impl #p::Tools for #ident {
            const __TOOLS: &'static [#p::Tool] = &[];
        }
    }
}
