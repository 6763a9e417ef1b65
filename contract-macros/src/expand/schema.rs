//! Schemas: the body of `Contract::__schema_body`, a draft 2020-12 schema
//! with the contract's constraints, rules and descriptions.
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::private;
use crate::checked::{Contract, Member, Members, Struct, Union};
use crate::model::Variant;

/// A struct's schema: its description's object, with its members' own
/// schemas.
pub fn struct_body(s: &Struct<'_>) -> TokenStream {
    let p = private();
    object(
        quote!(#p::description_of::<Self>().struct_object()),
        &s.members,
    )
}

/// An object schema: the runtime writes the constraints, descriptions,
/// `required`, the `when` rules as `allOf` and the rules JSON Schema cannot
/// say from the description's `object`; the members' own schemas, which
/// depend on their types, are computed here, in order.
fn object(object: TokenStream, members: &[Member<'_>]) -> TokenStream {
    let p = private();
    // Each member's schema function, called in order by the runtime: one
    // call here however many members there are.
    let schemas = members.iter().map(|f| {
        let ty = f.ty;
        quote_spanned!(f.ty.span()=> <#ty as #p::JsonType>::schema as #p::SchemaFn)
    });
    quote! {
        #p::Value::Object(#p::object_schema(#object, __contract_defs, &[#(#schemas),*]))
    }
}

/// The `check` function's name, as the schema's extension entry names it.
pub fn check_name(check: &syn::Path) -> String {
    quote!(#check).to_string().replace(' ', "")
}

/// An enum's schema: a string of its variants' names.
pub fn enum_body(cont: &Contract<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let p = private();
    let names = variants.iter().map(|v| v.json_name.as_str());
    let description = cont
        .doc
        .map(|d| quote!(__contract_schema["description"] = #p::json!(#d);));
    quote! {
        let mut __contract_schema = #p::json!({ "type": "string", "enum": [#(#names),*] });
        #description
        __contract_schema
    }
}

/// A tagged union's schema: `oneOf` of one closed object schema per
/// variant, each with the tag as a required constant.
pub fn union_body(cont: &Contract<'_>, u: &Union<'_>) -> TokenStream {
    let p = private();
    let tag = u.tag;
    let variants = u.variants.iter().enumerate().map(|(index, v)| {
        let name = v.variant.json_name.as_str();
        let variant = quote!(#p::description_of::<Self>().variant_object(#index));
        let body = match &v.members {
            Members::Unit => object(variant, &[]),
            Members::Struct(fields) => object(variant, fields),
            Members::Newtype(ty) => {
                quote!(<#ty as #p::ObjectMembers>::object_schema(__contract_defs))
            }
        };
        let doc = match &v.variant.doc {
            Some(d) => quote!(#p::Some(#d)),
            None => quote!(#p::None),
        };
        quote!(#p::tagged(#body, #tag, #name, #doc))
    });
    let description = cont
        .doc
        .map(|d| quote!(__contract_schema.insert(#p::String::from("description"), #p::json!(#d));));
    // The union's own `check`, beside `oneOf`; its variants' rules are in
    // their objects.
    let check = u.check_fn.map(|c| {
        let name = check_name(c);
        let entry = quote!(#p::check_rule(#name));
        quote!(__contract_schema.insert(#p::String::from(#p::RULES_KEY), #p::json!([#entry]));)
    });
    quote! {
        let mut __contract_schema = #p::Map::new();
        #description
        __contract_schema.insert(#p::String::from("oneOf"), #p::Value::Array(#p::Vec::from([#(#variants),*])));
        #check
        #p::Value::Object(__contract_schema)
    }
}
