//! Descriptions: `impl Described`, the contract as the decoder sees it, as
//! `&'static` data (each member's type through its `JsonType::TYPE`, its
//! constraints typed as the field compares them, the rules by member
//! index). The runtime's stream plan is built from it.
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::lit::{lit_json, typed_lit};
use super::private;
use crate::attr::Lit;
use crate::checked::{CondValue, Contract, Members, OrderRule, Struct, Union, WhenRule};
use crate::model::{Member, Variant};
use crate::ty::{Ty, option_inner};

/// A struct's description.
pub fn of_struct(cont: &Contract<'_>, s: &Struct<'_>) -> TokenStream {
    let p = private();
    let object = object(s.members, &s.whens, &s.orders);
    described(cont, quote!(#p::DescribedBody::Struct(#object)))
}

/// An enum's description: its variants' JSON names.
pub fn of_enum(cont: &Contract<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let p = private();
    let names = variants.iter().map(|v| v.json_name.as_str());
    described(cont, quote!(#p::DescribedBody::Enum(&[#(#names),*])))
}

/// A tagged union's description.
pub fn of_union(cont: &Contract<'_>, u: &Union<'_>) -> TokenStream {
    let p = private();
    let tag = u.tag;
    let variants = u.variants.iter().map(|v| {
        let name = v.variant.json_name.as_str();
        let members = match &v.members {
            Members::Unit => quote!(#p::VariantMembers::Unit),
            Members::Struct(members) => {
                let object = object(members, &v.whens, &v.orders);
                quote!(#p::VariantMembers::Struct(#object))
            }
            Members::Newtype(ty) => quote_spanned! {ty.span()=>
                #p::VariantMembers::Newtype(&<#ty as #p::JsonType>::TYPE)
            },
        };
        quote!(#p::DescribedVariant { name: #name, members: #members })
    });
    let body = quote! {
        #p::DescribedBody::Union(#p::DescribedUnion { tag: #tag, variants: &[#(#variants),*] })
    };
    described(cont, body)
}

fn described(cont: &Contract<'_>, body: TokenStream) -> TokenStream {
    let p = private();
    let ident = cont.ident;
    let name = ident.to_string();
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::Described for #ident #ty_generics #where_clause {
            const DESCRIPTION: #p::Description = #p::Description {
                name: #name,
                id: ::core::any::TypeId::of::<Self>,
                body: #body,
            };
        }
    }
}

fn object(members: &[Member<'_>], whens: &[WhenRule<'_>], orders: &[OrderRule<'_>]) -> TokenStream {
    let p = private();
    let index = |m: &Member<'_>| members.iter().position(|x| std::ptr::eq(x, m));
    let described = members.iter().map(|f| {
        let (name, ty) = (&f.json_name, f.ty);
        let a = &f.attrs;
        let (optional, quarantine) = (a.optional.is_some(), a.quarantine.is_some());
        let evidence = a.evidence.is_some();
        let constraints = constraints(f);
        let ty = quote_spanned!(ty.span()=> &<#ty as #p::JsonType>::TYPE);
        quote! {
            #p::DescribedMember {
                name: #name,
                ty: #ty,
                optional: #optional,
                quarantine: #quarantine,
                evidence: #evidence,
                constraints: &[#(#constraints),*],
            }
        }
    });
    // A rule's members are the object's (the check resolved them there).
    let whens = whens.iter().filter_map(|w| {
        let condition = index(w.condition)?;
        let values = w.values.iter().map(|v| cond_json(w.condition, v));
        let require = w.require.iter().filter_map(|m| index(m));
        let forbid = w.forbid.iter().filter_map(|m| index(m));
        Some(quote! {
            #p::DescribedWhen {
                condition: #condition,
                values: || #p::Vec::from([#(#values),*]),
                require: &[#(#require),*],
                forbid: &[#(#forbid),*],
            }
        })
    });
    let orders = orders.iter().filter_map(|o| {
        let (first, second, strict) = (index(o.first)?, index(o.second)?, o.strict);
        Some(quote!(#p::DescribedOrder { first: #first, second: #second, strict: #strict }))
    });
    quote! {
        #p::DescribedObject {
            members: &[#(#described),*],
            whens: &[#(#whens),*],
            orders: &[#(#orders),*],
        }
    }
}

/// A member's constraints, in the order the decoder checks them: each read
/// from its attribute here, and nowhere else in this file.
fn constraints(f: &Member<'_>) -> Vec<TokenStream> {
    let p = private();
    let (a, kind) = (&f.attrs, f.kind.strip_option());
    let mut cs = Vec::new();
    if let Some(min) = &a.min {
        let v = literal(kind, &min.value);
        cs.push(quote!(#p::Constraint::Min(#v)));
    }
    if let Some(max) = &a.max {
        let v = literal(kind, &max.value);
        cs.push(quote!(#p::Constraint::Max(#v)));
    }
    if let Some(min) = &a.min_len {
        let v = min.value;
        cs.push(quote!(#p::Constraint::MinLen(#v)));
    }
    if let Some(max) = &a.max_len {
        let v = max.value;
        cs.push(quote!(#p::Constraint::MaxLen(#v)));
    }
    if let Some(eq) = &a.equals {
        let v = literal(kind, &eq.value);
        cs.push(quote!(#p::Constraint::Equals(#v)));
    }
    if let Some(list) = &a.one_of {
        let vs = list.value.iter().map(|l| literal(kind, &l.value));
        cs.push(quote!(#p::Constraint::OneOf(&[#(#vs),*])));
    }
    if let Some(pattern) = &a.pattern {
        let written = pattern.value.value();
        // The check accepted the pattern, so it has an engine form.
        let engine = crate::pattern::engine_form(&written).unwrap_or_else(|_| written.clone());
        cs.push(quote!(#p::Constraint::Pattern { written: #written, engine: #engine }));
    }
    if let Some(format) = &a.format {
        let format = match format.value {
            crate::attr::StringFormat::Email => quote!(#p::Format::Email),
            crate::attr::StringFormat::Uuid => quote!(#p::Format::Uuid),
        };
        cs.push(quote!(#p::Constraint::Format(#format)));
    }
    cs
}

/// A literal typed as the field compares it.
fn literal(kind: &Ty, lit: &Lit) -> TokenStream {
    let p = private();
    match (kind, lit) {
        (_, Lit::Str(s)) => quote!(#p::Literal::Str(#s)),
        (_, Lit::Bool(b)) => quote!(#p::Literal::Bool(#b)),
        (Ty::Float, _) | (_, Lit::Float(_)) => {
            let v = typed_lit(&Ty::Float, lit);
            quote!(#p::Literal::Float(#v))
        }
        (_, Lit::Int(_)) => {
            let v = typed_lit(kind, lit);
            quote!(#p::Literal::Int(#v))
        }
    }
}

/// A condition's value as JSON: a variant as its type encodes it.
fn cond_json(cond: &Member<'_>, v: &CondValue<'_>) -> TokenStream {
    let p = private();
    match v {
        CondValue::Variant(path) => {
            let ty = option_inner(cond.ty).unwrap_or(cond.ty);
            quote!(<#ty as #p::JsonType>::encode(&#path))
        }
        CondValue::Lit(lit) => lit_json(cond.kind.strip_option(), lit),
    }
}
