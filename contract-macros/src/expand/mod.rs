//! Code generation. Generated code lives in `const _: () = { .. }`, names the
//! runtime only through `::contract_runtime::__private`, and uses
//! `__contract_*` locals, so nothing depends on the user's imports.
use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::check;
use crate::ctxt::Ctxt;
use crate::model::{Body, Container};

mod edit;
mod enums;
mod fallback;
mod rules;
mod structs;

pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input);
    if let Some(cont) = &cont {
        check::check(&cx, cont);
    }
    if let Err(err) = cx.check() {
        let errors = err.to_compile_error();
        let stub = fallback::stub(input);
        return quote! { #errors #stub };
    }
    let Some(cont) = cont else {
        return fallback::stub(input);
    };
    match &cont.data {
        Body::Struct(fields) => structs::expand(&cont, fields),
        Body::Enum(variants) => enums::expand(&cont, variants),
    }
}

/// The hidden runtime path.
pub fn private() -> TokenStream {
    quote!(::contract_runtime::__private)
}
