//! Cross-field rules: the body of `Field::rules`, which runs nested
//! contracts' rules, then `when` and `order`.
use proc_macro2::TokenStream;
use quote::quote;

use super::lit::typed_lit;
use super::{Place, private};
use crate::checked::{CondValue, Member, Members, OrderRule, Struct, Union, WhenRule};
use crate::ty::Ty;

/// The body of `Field::rules` for a struct; `None` when it has no rules
/// and holds no contract (the trait's empty default then stands, one
/// function less per contract to compile).
pub fn body(s: &Struct<'_>) -> Option<TokenStream> {
    let place = |f: &Member<'_>| {
        let ident = f.ident;
        quote!(self.#ident)
    };
    let nests = s.members.iter().any(|f| f.kind.may_nest());
    (nests || !s.whens.is_empty() || !s.orders.is_empty())
        .then(|| members(&s.members, &s.whens, &s.orders, &place))
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

/// The condition of a `when` as an expression on `self`: `Some(i)` when the
/// condition field holds the `i`-th of the rule's values, `None` when it
/// holds none of them.
fn condition(w: &WhenRule<'_>, place: Place<'_>) -> TokenStream {
    let p = private();
    let cond = &w.condition;
    let at = place(cond);
    let is_str = matches!(cond.kind, Ty::String);
    let arms = w.values.iter().enumerate().map(|(i, v)| {
        let pat = match v {
            CondValue::Variant(path) => quote!(#path),
            CondValue::Lit(lit) => typed_lit(lit),
        };
        let pat = if cond.nullable {
            quote!(#p::Some(#pat))
        } else {
            pat
        };
        quote!(#pat => #p::Some(#i),)
    });
    let scrutinee = match (cond.nullable, is_str) {
        (false, false) => quote!(#at),
        (true, false) => quote!(#at),
        (false, true) => quote!(::core::ops::Deref::deref(&#at)),
        (true, true) => quote!(#at.as_deref()),
    };
    // A `match` on a boolean, or with one arm, is what a condition reads as;
    // clippy would ask the user's crate to write an `if` instead.
    quote!({
        #[allow(clippy::all, clippy::pedantic)]
        let __contract_c: #p::Option<usize> = match #scrutinee {
            #(#arms)*
            _ => #p::None,
        };
        __contract_c
    })
}

fn when_rule(w: &WhenRule<'_>, place: Place<'_>) -> TokenStream {
    let p = private();
    let test = condition(w, place);
    let (cond_at, cond_ty) = (place(&w.condition), w.condition.ty);
    let cond_json = w.condition.json_name;
    let n = w.values.len();
    // A required member that is null, or a forbidden one that is not. Its
    // texts, one per condition value, are written on its first violation.
    let demand = |t: &Member<'_>, violated: TokenStream, kind: TokenStream| {
        let (at, json) = (place(t), t.json_name);
        quote! {
            if #violated(&#at) {
                static __CONTRACT_TEXTS: [#p::RuleTexts; #n] = [const { #p::RuleTexts::new() }; #n];
                #p::when_error(
                    __contract_cx, __contract_path, #json, #kind, #cond_json,
                    &__CONTRACT_TEXTS, __contract_i,
                    || <#cond_ty as #p::JsonType>::encode(&#cond_at),
                );
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
        if let #p::Some(__contract_i) = #test {
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
                static __CONTRACT_TEXTS: #p::RuleTexts = #p::RuleTexts::new();
                #p::order_error(__contract_cx, __contract_path, #ja, #jb, #strict, #kind, &__CONTRACT_TEXTS);
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
