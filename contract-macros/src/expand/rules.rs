//! Cross-field rules: the body of `Field::rules`, which runs nested
//! contracts' rules, then `when` and `order`.
use proc_macro2::TokenStream;
use quote::quote;

use super::lit::typed_lit;
use super::{Place, private};
use crate::checked::{CondValue, Member, Members, OrderRule, Struct, Union, WhenRule};
use crate::ty::Ty;

/// The body of `Field::rules` for a struct.
pub fn body(s: &Struct<'_>) -> TokenStream {
    let place = |f: &Member<'_>| {
        let ident = f.ident;
        quote!(self.#ident)
    };
    members(&s.members, &s.whens, &s.orders, &place)
}

/// The rules over `members` (a struct's, or a union variant's).
pub fn members(
    members: &[Member<'_>],
    whens: &[WhenRule<'_>],
    orders: &[OrderRule<'_>],
    place: Place<'_>,
) -> TokenStream {
    let p = private();
    // Nested contracts' own rules first, at their pointers.
    let nested = members.iter().filter(|f| f.kind.may_nest()).map(|f| {
        let (at, ty, json) = (place(f), f.ty, f.json_name);
        quote!(<#ty as #p::JsonType>::rules(&#at, &__contract_path.key(#json), __contract_cx);)
    });
    let whens = whens.iter().map(|w| when_rule(w, place));
    let orders = orders.iter().map(|o| order_rule(o, place));
    quote! {
        let _ = (&__contract_path, &__contract_cx);
        #(#nested)*
        #(#whens)*
        #(#orders)*
    }
}

/// The condition of a `when` as a boolean expression on `self`.
fn condition(w: &WhenRule<'_>, place: Place<'_>) -> TokenStream {
    let p = private();
    let cond = &w.condition;
    let at = place(cond);
    let pats = w.values.iter().map(|v| match v {
        CondValue::Variant(path) => quote!(#path),
        CondValue::Lit(lit) => typed_lit(lit),
    });
    let is_str = matches!(cond.kind, Ty::String);
    let test = match (cond.nullable, is_str) {
        (false, false) => quote!(matches!(#at, #(#pats)|*)),
        (true, false) => quote!(matches!(#at, #p::Some(#(#pats)|*))),
        (false, true) => quote!(matches!(::core::ops::Deref::deref(&#at), #(#pats)|*)),
        (true, true) => quote!(matches!(#at.as_deref(), #p::Some(#(#pats)|*))),
    };
    // `matches!(flag, true)` is what a boolean condition reads as; clippy
    // would ask the user's crate to write `flag` instead.
    quote!({
        #[allow(clippy::redundant_pattern_matching)]
        let __contract_c = #test;
        __contract_c
    })
}

fn when_rule(w: &WhenRule<'_>, place: Place<'_>) -> TokenStream {
    let p = private();
    let test = condition(w, place);
    let (cond_at, cond_ty) = (place(&w.condition), w.condition.ty);
    let cond_json = w.condition.json_name;
    // A required member that is null, or a forbidden one that is not.
    let demand = |t: &Member<'_>, violated: TokenStream, kind: TokenStream| {
        let (at, json) = (place(t), t.json_name);
        quote! {
            if #violated(&#at) {
                #p::when_error(__contract_cx, __contract_path, #json, #kind, #cond_json, <#cond_ty as #p::JsonType>::encode(&#cond_at));
            }
        }
    };
    let requires = w.require.iter().map(|t| {
        demand(
            t,
            quote!(#p::Option::is_none),
            quote!(#p::WhenKind::Required),
        )
    });
    let forbids = w.forbid.iter().map(|t| {
        demand(
            t,
            quote!(#p::Option::is_some),
            quote!(#p::WhenKind::Forbidden),
        )
    });
    quote! {
        if #test {
            #(#requires)*
            #(#forbids)*
        }
    }
}

fn order_rule(o: &OrderRule<'_>, place: Place<'_>) -> TokenStream {
    let p = private();
    let opt = |f: &Member<'_>| {
        let at = place(f);
        if f.nullable {
            quote!(#p::Option::as_ref(&#at))
        } else {
            quote!(#p::Some(&#at))
        }
    };
    let (oa, ob) = (opt(&o.first), opt(&o.second));
    let (ja, jb) = (o.first.json_name, o.second.json_name);
    let strict = o.strict;
    let holds = if strict {
        quote!(__contract_a < __contract_b)
    } else {
        quote!(__contract_a <= __contract_b)
    };
    // The words of the error fit what the fields hold.
    let kind = match o.first.kind {
        Ty::Date | Ty::DateTime => quote!(#p::OrderKind::Time),
        Ty::String => quote!(#p::OrderKind::Text),
        _ => quote!(#p::OrderKind::Number),
    };
    quote! {
        if let (#p::Some(__contract_a), #p::Some(__contract_b)) = (#oa, #ob) {
            if !(#holds) {
                #p::order_error(__contract_cx, __contract_path, #ja, #jb, #strict, #kind);
            }
        }
    }
}

/// The body of `Field::rules` for a tagged union: the variant's rules over
/// its members (a newtype's struct runs its own), at the union's path.
pub fn union_body(u: &Union<'_>) -> TokenStream {
    let p = private();
    let place = |f: &Member<'_>| {
        let binding = f.binding();
        quote!((*#binding))
    };
    let arms = u.variants.iter().map(|v| {
        let pattern = v.pattern();
        let body = match &v.members {
            Members::Unit => TokenStream::new(),
            Members::Struct(fields) => members(fields, &v.whens, &v.orders, &place),
            Members::Newtype(ty) => quote! {
                <#ty as #p::JsonType>::rules(__contract_inner, __contract_path, __contract_cx);
            },
        };
        quote!(#pattern => { #body })
    });
    quote! {
        let _ = (&__contract_path, &__contract_cx);
        match self {
            #(#arms)*
        }
    }
}
