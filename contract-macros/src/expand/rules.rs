//! Cross-field rules: the body of `Field::rules`, which runs nested
//! contracts' rules, then `when` and `order`.
use proc_macro2::TokenStream;
use quote::quote;

use super::lit::typed_lit;
use super::private;
use crate::checked::{CondValue, OrderRule, Struct, WhenRule};
use crate::model::Member;
use crate::ty::Ty;

/// The body of `Field::rules` for a struct.
pub fn body(s: &Struct<'_>) -> TokenStream {
    let p = private();
    // Nested contracts' own rules first, at their pointers.
    let nested = s.members.iter().filter(|f| f.kind.may_nest()).map(|f| {
        let (ident, ty, json) = (f.ident, f.ty, &f.json_name);
        quote!(<#ty as #p::JsonType>::rules(&self.#ident, &__contract_path.key(#json), __contract_cx);)
    });
    let whens = s.whens.iter().map(when_rule);
    let orders = s.orders.iter().map(order_rule);
    quote! {
        let _ = (&__contract_path, &__contract_cx);
        #(#nested)*
        #(#whens)*
        #(#orders)*
    }
}

/// The condition of a `when` as a boolean expression on `self`.
fn condition(w: &WhenRule<'_>) -> TokenStream {
    let p = private();
    let cond = w.condition;
    let ident = cond.ident;
    let kind = cond.kind.strip_option();
    let pats = w.values.iter().map(|v| match v {
        CondValue::Variant(path) => quote!(#path),
        CondValue::Lit(lit) => typed_lit(kind, lit),
    });
    let is_str = matches!(kind, Ty::String);
    match (cond.kind.is_option(), is_str) {
        (false, false) => quote!(matches!(self.#ident, #(#pats)|*)),
        (true, false) => quote!(matches!(self.#ident, #p::Some(#(#pats)|*))),
        (false, true) => quote!(matches!(self.#ident.as_str(), #(#pats)|*)),
        (true, true) => quote!(matches!(self.#ident.as_deref(), #p::Some(#(#pats)|*))),
    }
}

fn when_rule(w: &WhenRule<'_>) -> TokenStream {
    let p = private();
    let test = condition(w);
    let (cond_ident, cond_ty) = (w.condition.ident, w.condition.ty);
    let cond_json = &w.condition.json_name;
    // A required member that is null, or a forbidden one that is not.
    let demand = |t: &Member<'_>, violated: TokenStream, kind: TokenStream| {
        let (ident, json) = (t.ident, &t.json_name);
        quote! {
            if #violated(&self.#ident) {
                #p::when_error(__contract_cx, __contract_path, #json, #kind, #cond_json, <#cond_ty as #p::JsonType>::encode(&self.#cond_ident));
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

fn order_rule(o: &OrderRule<'_>) -> TokenStream {
    let p = private();
    let opt = |f: &Member<'_>| {
        let ident = f.ident;
        if f.kind.is_option() {
            quote!(#p::Option::as_ref(&self.#ident))
        } else {
            quote!(#p::Some(&self.#ident))
        }
    };
    let (oa, ob) = (opt(o.first), opt(o.second));
    let (ja, jb) = (&o.first.json_name, &o.second.json_name);
    let strict = o.strict;
    let holds = if strict {
        quote!(__contract_a < __contract_b)
    } else {
        quote!(__contract_a <= __contract_b)
    };
    quote! {
        if let (#p::Some(__contract_a), #p::Some(__contract_b)) = (#oa, #ob) {
            if !(#holds) {
                #p::order_error(__contract_cx, __contract_path, #ja, #jb, #strict);
            }
        }
    }
}
