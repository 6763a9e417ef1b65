//! Literals as generated code, in a message and in a schema: the leaf every
//! generator may use (it imports no other generator).
use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote};

use super::private;
use crate::attr::Lit;
use crate::ty::Ty;

/// A literal typed for the field (`1` for integers, `1.0` for floats).
pub fn typed_lit(kind: &Ty, lit: &Lit) -> TokenStream {
    match (kind, lit) {
        (Ty::Float, Lit::Int(i)) => float(*i as f64),
        (_, Lit::Float(f)) => float(*f),
        (_, Lit::Int(i)) => {
            let abs = Literal::u128_unsuffixed(i.unsigned_abs());
            if *i < 0 { quote!(-#abs) } else { quote!(#abs) }
        }
        (_, Lit::Str(s)) => {
            let s = Literal::string(s);
            quote!(#s)
        }
        (_, Lit::Bool(b)) => quote!(#b),
    }
}

fn float(f: f64) -> TokenStream {
    let f = Literal::f64_unsuffixed(f);
    quote!(#f)
}

/// The literal as it reads in a message (`1`, `0.5`, `"close_ticket"`).
pub fn lit_text(lit: &Lit) -> String {
    match lit {
        Lit::Int(i) => i.to_string(),
        Lit::Float(f) => f.to_string(),
        Lit::Str(s) => format!("{s:?}"),
        Lit::Bool(b) => b.to_string(),
    }
}

/// The literal as JSON for the schema. An integer is suffixed `u64` or
/// `i64` (the checks keep it within the field's type, so it fits one), since
/// an unsuffixed literal would be an `i32` and wrap.
pub fn lit_json(kind: &Ty, lit: &Lit) -> TokenStream {
    let p = private();
    let v = match (kind, lit) {
        (Ty::Float, _) | (_, Lit::Float(_) | Lit::Str(_) | Lit::Bool(_)) => typed_lit(kind, lit),
        (_, Lit::Int(i)) => match (u64::try_from(*i), i64::try_from(*i)) {
            (Ok(u), _) => Literal::u64_suffixed(u).into_token_stream(),
            (_, Ok(n)) => Literal::i64_suffixed(n).into_token_stream(),
            // Out of every JSON integer type: the checks reported it already.
            _ => typed_lit(&Ty::Float, lit),
        },
    };
    quote!(#p::json!(#v))
}

/// An unsigned integer as an unsuffixed literal (`usize` or `u32` by context).
pub fn uint(n: u64) -> Literal {
    Literal::u64_unsuffixed(n)
}
