//! Code generation. Generated code lives in `const _: () = { .. }`, names the
//! runtime only through `::contract_runtime::__private`, and uses
//! `__contract_*` locals, so nothing depends on the user's imports.
use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::check;
use crate::checked::{self, Contract, Member};
use crate::ctxt::Ctxt;
use crate::model::Container;

// Generators, one per output; each reads the checked model and imports no
// other generator, only the leaf `lit` (and `decode` its part `checks`).
mod business;
mod checks;
mod decode;
mod describe;
mod edit;
mod encode;
mod lit;
mod rules;
mod schema;
mod shape;
// Assemblers of impl blocks.
mod borrowed;
mod enums;
mod fallback;
mod structs;
mod tools;
mod unions;

/// A member's value as a place expression: `self.name` in a struct, the
/// binding of a union variant's member.
type Place<'a> = &'a dyn Fn(&Member<'_>) -> TokenStream;

/// The whole pipeline: attributes and input → raw model → checked model →
/// code; on any error, the errors and a stub impl.
pub fn derive(input: &DeriveInput) -> TokenStream {
    // A type that holds itself without indirection has infinite size:
    // rustc says so (E0072) and suggests the `Box`. Any impl generated for
    // it would add layout and constant-evaluation cycles on top, so none is.
    if holds_itself(input) {
        return TokenStream::new();
    }
    let cx = Ctxt::new();
    let raw = Container::from_ast(&cx, input);
    if let Some(raw) = raw.as_ref().filter(|raw| check::is_tools(raw))
        && let crate::model::Body::Enum(variants) = &raw.data
    {
        let checked = check::check_tools(&cx, raw, variants);
        return match cx.into_result() {
            Ok(()) => tools::expand(input, raw, &checked),
            Err(err) => {
                let errors = err.to_compile_error();
                let stub = fallback::stub(input, Some(raw));
                // A generic tools enum is refused: no impl of `Tools` for it.
                let tools = if input.generics.params.is_empty() {
                    tools::stub(&input.ident)
                } else {
                    TokenStream::new()
                };
                quote! { #errors #stub #tools }
            }
        };
    }
    let contract = raw.as_ref().map(|raw| check::contract(&cx, raw));
    match (cx.into_result(), contract) {
        (Ok(()), Some(contract)) => generate(&contract),
        (Err(err), _) => {
            let errors = err.to_compile_error();
            let stub = fallback::stub(input, raw.as_ref());
            quote! { #errors #stub }
        }
        (Ok(()), None) => fallback::stub(input, None),
    }
}

fn holds_itself(input: &DeriveInput) -> bool {
    let fields: Vec<&syn::Field> = match &input.data {
        syn::Data::Struct(s) => s.fields.iter().collect(),
        syn::Data::Enum(e) => e.variants.iter().flat_map(|v| v.fields.iter()).collect(),
        syn::Data::Union(_) => Vec::new(),
    };
    fields
        .iter()
        .any(|f| crate::ty::holds_by_value(&f.ty, &input.ident))
}

fn generate(contract: &Contract<'_>) -> TokenStream {
    let impls = match &contract.body {
        checked::Body::Struct(s) => structs::expand(contract, s),
        checked::Body::Enum(variants) => enums::expand(contract, variants),
        checked::Body::Union(u) => unions::expand(contract, u),
    };
    let (p, ident) = (private(), contract.ident);
    let (impl_generics, ty_generics, where_clause) = contract.generics.split_for_impl();
    let (impl_generics, ty_generics, where_clause) = match contract.lifetime {
        // The `'static` form, as `Contract`.
        Some(lt) => (quote!(<#lt>), quote!(<#lt>), quote!(where #lt: 'static)),
        None => (
            quote!(#impl_generics),
            quote!(#ty_generics),
            quote!(#where_clause),
        ),
    };
    // `schemars::JsonSchema`, or nothing: the runtime's `schemars` feature decides.
    quote! {
        #impls
        #p::impl_json_schema!(#ident, [#impl_generics], [#ty_generics], [#where_clause]);
    }
}

/// `impl JsonType`, from the generators' parts: the bodies of `decode`,
/// `encode`, `schema` and (`None` for the default, none) `rules`.
fn json_type_impl(
    ident: &syn::Ident,
    shape: TokenStream,
    decode: TokenStream,
    encode: TokenStream,
    schema: TokenStream,
    rules: Option<TokenStream>,
) -> TokenStream {
    let generics = syn::Generics::default();
    let parts = [shape, decode, encode, schema];
    generic_json_type_impl(ident, &generics, parts, rules)
}

/// [`json_type_impl`] for a type with (bounded) generics; `parts` are the
/// `SHAPE`, `decode`, `encode` and `schema` bodies.
fn generic_json_type_impl(
    ident: &syn::Ident,
    generics: &syn::Generics,
    [shape, decode, encode, schema]: [TokenStream; 4],
    rules: Option<TokenStream>,
) -> TokenStream {
    let p = private();
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    // A contract with a lifetime is described by its `'static` form.
    let described = match generics.lifetimes().next() {
        Some(_) => quote!(#ident<'static>),
        None => quote!(Self),
    };
    let rules = rules.map(|rules| {
        quote! {
            fn rules(&self, __contract_path: &#p::Path<'_>, __contract_cx: &mut #p::Collector) {
                #rules
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::JsonType for #ident #ty_generics #where_clause {
            const SHAPE: #p::Shape = #shape;
            const TYPE: #p::Type = #p::Type::Contract(#p::description_of::<#described>);

            fn decode(
                __contract_r: &mut #p::Reader<'_>,
                __contract_path: &#p::Path<'_>,
                __contract_cx: &mut #p::Collector,
            ) -> #p::Result<#p::Option<Self>, #p::ParseError> {
                #decode
            }

            fn encode(&self) -> #p::Value {
                #encode
            }

            fn schema(__contract_defs: &mut #p::SchemaGen) -> #p::Value {
                #schema
            }

            #rules
        }
    }
}

/// The code of a union's tag that names no variant.
fn unknown_tag_code(u: &checked::Union<'_>) -> TokenStream {
    let p = private();
    if u.tool_names {
        quote!(#p::code::UNKNOWN_TOOL)
    } else {
        quote!(#p::code::UNKNOWN_VARIANT)
    }
}

/// The hidden runtime path.
pub fn private() -> TokenStream {
    private_at(proc_macro2::Span::call_site())
}

/// The hidden runtime path, spanned at `span` (so rustc errors about the
/// code using it point at the user's tokens).
pub fn private_at(span: proc_macro2::Span) -> TokenStream {
    quote::quote_spanned!(span=> ::contract_runtime::__private)
}

#[cfg(test)]
mod tests {
    use super::derive;

    // A type holding itself by value gets no impl: rustc's E0072 alone.
    #[test]
    fn a_type_holding_itself_by_value_gets_no_impl() {
        for input in [
            "struct S { a: Option<S> }",
            "struct S { a: (u8, Self) }",
            "#[contract(tag = \"t\")] enum E { A { e: Option<E> } }",
        ] {
            let parsed: syn::DeriveInput = syn::parse_str(input).unwrap();
            assert!(derive(&parsed).is_empty(), "{input}");
        }
        for input in [
            "struct S { a: Option<Box<S>>, b: Vec<S> }",
            "struct S { a: u8 }",
        ] {
            let parsed: syn::DeriveInput = syn::parse_str(input).unwrap();
            assert!(!derive(&parsed).is_empty(), "{input}");
        }
    }

    // The derive reports errors and never panics, whatever it is given.
    #[test]
    fn odd_inputs_do_not_panic() {
        let inputs = [
            "struct S { #[contract(min = 1e400)] x: f64 }",
            "struct S { #[contract(max = -1e39)] x: f32 }",
            "struct S { #[contract(min = 170141183460469231731687303715884105728)] x: i64 }",
            "struct S { #[contract(max_len = 18446744073709551616)] x: String }",
            "#[contract(edit(r#type = [\"/a\"]))] struct S { a: u8 }",
            "#[contract(edit(ǆ = [\"/a\"]))] struct S { a: u8 }",
            "#[contract(edit(p = [\"/\", \"//\", \"/a/~\", \"\", \"/a/b/c/d\"]))] struct S { a: Inner }",
            "#[contract(edit(p = [\"/a{b}/c{d}\"]))] struct S { #[contract(rename = \"a{b}\")] a: Inner }",
            "#[contract(when(a in [], require(a)), order(a <= a), outcome = a)] struct S { a: u8 }",
            "#[contract(when(a = -1, forbid(a)), when(a = \"x\"), when(a = 1.5))] struct S { a: bool }",
            "#[contract(max_bytes = 0, max_depth = 0, check = f)] struct S {}",
            "#[contract] struct S { a: u8 }",
            "#[contract = 1] struct S { a: u8 }",
            "#[contract(optional = true, clarify(x), unknown(1, 2), rename_all = \"bogus\")] struct S { #[contract(optional = 1)] a: u8 }",
            "struct S { #[contract(one_of = [-1, \"x\", true, 1.5, -1])] a: u8, #[contract(rename = \"\")] b: u8 }",
            "struct S { a: Option<Option<u8>>, b: (u8,), c: [u8; 2], d: fn(), e: Vec<Box<u8>>, f: BTreeMap<u8, u8> }",
            "enum E {}",
            "#[contract(max_bytes = 1, when(a = 1), edit(p = [\"/a\"]))] enum E { #[contract(clarify, decline, rename = \"A\")] A, #[serde(rename = \"A\")] B(u8) }",
            "union U { a: u8 }",
            "struct S<'a, T: Clone> where T: Copy { a: &'a T }",
            "struct S(u8);",
            "struct S;",
            "#[contract(tag = \"t\")] enum E { A { t: u8, #[contract(rename = \"t\")] u: u8 }, B(u8, u8), C(), D {}, E(Inner), #[contract(when(x = 1), order(y <= z))] F }",
            "#[contract(tag = \"\", context = C, check = f, when(a = 1), edit(p = [\"/a\"]))] enum E { A }",
            "#[serde(tag = \"a\")] #[contract(tag = \"b\")] enum E { A { a: u8 } }",
            "enum E { A(Inner) }",
            "#[serde(rename = \"X\", rename_all = \"camelCase\", default, tag = \"t\")] struct S { #[serde(default = \"f\", rename(serialize = \"a\"), skip)] a: u8 }",
            "struct S { a: Option<S>, b: (u8, Self), c: [S; 2], d: Box<S>, e: Vec<Option<S>> }",
            "struct S<T> { a: T, b: Page<T>, c: Option<Box<S<T>>> }",
            "struct S<'a, const N: usize> { a: [u8; N], b: &'a str }",
            "#[contract(tag = \"t\")] enum E<T> { A { e: Option<E<T>> }, B(Box<E<T>>) }",
            "#[contract(tag = \"t\", context = C, check = f)] enum E<T, U: Clone> where T: Copy { A { v: T, w: Vec<U> }, B(Inner<T>), C }",
            "enum E<T> { A, B }",
        ];
        for input in inputs {
            let parsed: syn::DeriveInput = match syn::parse_str(input) {
                Ok(parsed) => parsed,
                Err(e) => panic!("test input does not parse: {input}: {e}"),
            };
            let _ = derive(&parsed);
        }
    }
}
