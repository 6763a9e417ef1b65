//! Literals as generated code, in a message and in a schema: the leaf every
//! generator may use (it imports no other generator). Check has typed each
//! literal to its member's kind, so none is looked at again here.
use proc_macro2::{Literal as Token, TokenStream};
use quote::{ToTokens, quote};

use super::private;
use crate::checked::Literal;

/// A literal as Rust code (`1` for an integer, `1.0` for a float).
pub fn typed_lit(lit: &Literal) -> TokenStream {
    match lit {
        Literal::Float(f) => float(*f),
        Literal::Int(i) => {
            let abs = Token::u128_unsuffixed(i.unsigned_abs());
            if *i < 0 { quote!(-#abs) } else { quote!(#abs) }
        }
        Literal::Str(s) => {
            let s = Token::string(s);
            quote!(#s)
        }
        Literal::Bool(b) => quote!(#b),
    }
}

fn float(f: f64) -> TokenStream {
    let f = Token::f64_unsuffixed(f);
    quote!(#f)
}

/// The literal as it reads in a message (`1`, `0.5`, `"close_ticket"`).
pub fn lit_text(lit: &Literal) -> String {
    match lit {
        Literal::Int(i) => i.to_string(),
        Literal::Float(f) => f.to_string(),
        Literal::Str(s) => format!("{s:?}"),
        Literal::Bool(b) => b.to_string(),
    }
}

/// The literal as JSON for the schema. An integer is suffixed `u64` or
/// `i64` (the checks keep it within the field's type, so it fits one), since
/// an unsuffixed literal would be an `i32` and wrap.
pub fn lit_json(lit: &Literal) -> TokenStream {
    let p = private();
    let v = match lit {
        Literal::Float(_) | Literal::Str(_) | Literal::Bool(_) => typed_lit(lit),
        Literal::Int(i) => match (u64::try_from(*i), i64::try_from(*i)) {
            (Ok(u), _) => Token::u64_suffixed(u).into_token_stream(),
            (_, Ok(n)) => Token::i64_suffixed(n).into_token_stream(),
            // Out of every JSON integer type: the checks reported it already.
            _ => float(*i as f64),
        },
    };
    quote!(#p::json!(#v))
}

/// The literal as a runtime `Literal` of a check table.
pub fn lit_check(lit: &Literal) -> TokenStream {
    let p = private();
    let v = typed_lit(lit);
    match lit {
        Literal::Str(_) => quote!(#p::Literal::Str(#v)),
        Literal::Bool(_) => quote!(#p::Literal::Bool(#v)),
        Literal::Float(_) => quote!(#p::Literal::Float(#v)),
        Literal::Int(_) => quote!(#p::Literal::Int(#v)),
    }
}

/// An unsigned integer as an unsuffixed literal (`usize` or `u32` by context).
pub fn uint(n: u64) -> Token {
    Token::u64_unsuffixed(n)
}

/// What follows "expected <words>" in each of a `TypeMessages`' `found`, in
/// its order: the runtime's `__type_messages!` writes the same (the
/// integration tests compare the two), here written out by the derive so
/// that a declared range costs the user's build no macro expansion.
const FOUND: [&str; 8] = [
    ", found object",
    ", found array",
    ", found string",
    ", found number",
    ", found boolean",
    ", found null",
    ", found a number outside that range",
    ", found a number written with a fraction or exponent",
];

/// A `TypeMessages` for the words `expected` ("an integer from 1 to 50"),
/// as a constant expression.
pub fn type_messages(expected: &str) -> TokenStream {
    let p = private();
    let found = FOUND
        .iter()
        .map(|f| Token::string(&format!("expected {expected}{f}")));
    let expected = Token::string(expected);
    quote!(#p::TypeMessages { expected: #expected, found: [#(#found),*] })
}
