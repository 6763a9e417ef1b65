//! Descriptions: `impl Described`, the contract as the decoder sees it, as
//! `&'static` data (each member's type through its `JsonType::TYPE`, its
//! constraints typed as the field compares them, the rules by member
//! index). The runtime's stream plan is built from it.
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::lit::{lit_json, typed_lit};
use super::private;
use crate::attr::StringFormat;
use crate::checked::{
    Absent, Bounds, CondValue, Constraint, Contract, Counts, Literal, Member, Members, OrderRule,
    Struct, Union, WhenRule,
};
use crate::model::Variant;
use crate::ty::option_inner;

/// A struct's description.
pub fn of_struct(cont: &Contract<'_>, s: &Struct<'_>) -> TokenStream {
    let p = private();
    let check = s.check_fn.map(super::schema::check_name);
    let object = object(
        &s.members,
        &s.whens,
        &s.orders,
        (cont.doc, s.version, check),
    );
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
    let unknown = super::unknown_tag_code(u);
    let variants = u.variants.iter().map(|v| {
        let name = v.variant.json_name.as_str();
        let members = match &v.members {
            Members::Unit => quote!(#p::VariantMembers::Unit),
            Members::Struct(members) => {
                let object = object(members, &v.whens, &v.orders, (None, None, None));
                quote!(#p::VariantMembers::Struct(#object))
            }
            Members::Newtype(ty) => quote_spanned! {ty.span()=>
                #p::VariantMembers::Newtype(&<#ty as #p::JsonType>::TYPE)
            },
        };
        quote!(#p::DescribedVariant { name: #name, members: #members })
    });
    let body = quote! {
        #p::DescribedBody::Union(#p::DescribedUnion { tag: #tag, variants: &[#(#variants),*], unknown: #unknown })
    };
    described(cont, body)
}

fn described(cont: &Contract<'_>, body: TokenStream) -> TokenStream {
    let p = private();
    let ident = cont.ident;
    let name = ident.to_string();
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    // A description is `'static`: a contract with a lifetime's is its
    // `'static` form's.
    let head = match cont.lifetime {
        Some(lt) => quote!(impl<#lt> #p::Described for #ident<#lt> where #lt: 'static),
        None => quote!(impl #impl_generics #p::Described for #ident #ty_generics #where_clause),
    };
    quote! {
        #[automatically_derived]
        #head {
            const DESCRIPTION: #p::Description = #p::Description {
                name: #name,
                id: ::core::any::TypeId::of::<Self>,
                body: #body,
            };
        }
    }
}

/// A struct's doc comment, `version` and `check` function's name.
type Own<'a> = (Option<&'a str>, Option<u64>, Option<String>);

fn object(
    members: &[Member<'_>],
    whens: &[WhenRule<'_>],
    orders: &[OrderRule<'_>],
    (doc, version, check): Own<'_>,
) -> TokenStream {
    let p = private();
    let some = |t: Option<TokenStream>| match t {
        Some(t) => quote!(#p::Some(#t)),
        None => quote!(#p::None),
    };
    let doc = some(doc.map(|d| quote!(#d)));
    let version = some(version.map(|v| quote!(#v)));
    let check = some(check.map(|c| quote!(#c)));
    // The check resolved each rule's members to the object's (copies of
    // them): found again by field.
    let index = |m: &Member<'_>| members.iter().position(|x| x.ident == m.ident);
    let described = members.iter().map(|f| {
        let (name, ty) = (&f.json_name, f.ty);
        let (optional, quarantine) = (f.absent != Absent::Missing, f.quarantine);
        let evidence = f.evidence.is_some();
        let doc = match f.doc {
            Some(d) => quote!(#p::Some(#d)),
            None => quote!(#p::None),
        };
        let constraints = constraints(f);
        let ty = quote_spanned!(ty.span()=> &<#ty as #p::JsonType>::TYPE);
        quote! {
            #p::DescribedMember {
                name: #name,
                ty: #ty,
                optional: #optional,
                doc: #doc,
                quarantine: #quarantine,
                evidence: #evidence,
                constraints: &[#(#constraints),*],
            }
        }
    });
    // A rule's members are the object's (the check resolved them there).
    let whens = whens.iter().filter_map(|w| {
        let condition = index(&w.condition)?;
        let values = w.values.iter().map(|v| cond_json(&w.condition, v));
        let require = w.require.iter().filter_map(&index);
        let forbid = w.forbid.iter().filter_map(&index);
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
        let (first, second, strict) = (index(&o.first)?, index(&o.second)?, o.strict);
        Some(quote!(#p::DescribedOrder { first: #first, second: #second, strict: #strict }))
    });
    quote! {
        #p::DescribedObject {
            members: &[#(#described),*],
            whens: &[#(#whens),*],
            orders: &[#(#orders),*],
            doc: #doc,
            version: #version,
            check: #check,
        }
    }
}

/// A member's constraints, in the order the decoder checks them, with one
/// exhaustive `match` over the checked model's constraints.
fn constraints(f: &Member<'_>) -> Vec<TokenStream> {
    let p = private();
    let mut cs = Vec::new();
    for c in &f.constraints {
        match c {
            Constraint::Range(bounds) => {
                if let Some(min) = bounds.min() {
                    let v = literal(&min.into());
                    cs.push(quote!(#p::Constraint::Min(#v)));
                }
                if let Some(max) = bounds.max() {
                    let v = literal(&max.into());
                    cs.push(quote!(#p::Constraint::Max(#v)));
                }
            }
            // A `Vec`'s lengths count items, a string's characters: the
            // member's type tells the plan which.
            Constraint::Length {
                bounds,
                counts: Counts::Characters | Counts::Items,
            } => {
                let (min, max) = match *bounds {
                    Bounds::AtLeast(min) => (Some(min), None),
                    Bounds::AtMost(max) => (None, Some(max)),
                    Bounds::Between(min, max) => (Some(min), Some(max)),
                };
                if let Some(v) = min {
                    cs.push(quote!(#p::Constraint::MinLen(#v)));
                }
                if let Some(v) = max {
                    cs.push(quote!(#p::Constraint::MaxLen(#v)));
                }
            }
            Constraint::Equals(lit) => {
                let v = literal(lit);
                cs.push(quote!(#p::Constraint::Equals(#v)));
            }
            Constraint::OneOf(list) => {
                let vs = list.iter().map(literal);
                cs.push(quote!(#p::Constraint::OneOf(&[#(#vs),*])));
            }
            Constraint::Pattern(pattern) => {
                let (written, engine) = (&pattern.written, &pattern.engine);
                cs.push(quote!(#p::Constraint::Pattern { written: #written, engine: #engine }));
            }
            Constraint::Format(format) => {
                let format = match format {
                    StringFormat::Email => quote!(#p::Format::Email),
                    StringFormat::Uuid => quote!(#p::Format::Uuid),
                };
                cs.push(quote!(#p::Constraint::Format(#format)));
            }
        }
    }
    cs
}

/// A literal typed as the field compares it (the check typed it).
fn literal(lit: &Literal) -> TokenStream {
    let p = private();
    let v = typed_lit(lit);
    match lit {
        Literal::Str(_) => quote!(#p::Literal::Str(#v)),
        Literal::Bool(_) => quote!(#p::Literal::Bool(#v)),
        Literal::Float(_) => quote!(#p::Literal::Float(#v)),
        Literal::Int(_) => quote!(#p::Literal::Int(#v)),
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
        CondValue::Lit(lit) => lit_json(lit),
    }
}
