//! Schemas: the body of `Contract::__schema_body`, a draft 2020-12 schema
//! with the contract's constraints, rules and descriptions.
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::lit::{lit_json, lit_table};
use super::private;
use crate::checked::{
    Absent, CondValue, Constraint, Contract, Counts, Member, Members, OrderRule, Struct, Union,
    WhenRule,
};
use crate::model::Variant;
use crate::pointer;
use crate::ty::option_inner;

/// What an object schema is made of: a struct's, or a union variant's
/// members and rules.
pub struct Object<'a> {
    pub members: &'a [Member<'a>],
    pub whens: &'a [WhenRule<'a>],
    pub orders: &'a [OrderRule<'a>],
    pub check_fn: Option<&'a syn::Path>,
    pub version: Option<u64>,
    pub doc: Option<&'a str>,
}

/// A struct's schema.
pub fn struct_body(cont: &Contract<'_>, s: &Struct<'_>) -> TokenStream {
    object(&Object {
        members: &s.members,
        whens: &s.whens,
        orders: &s.orders,
        check_fn: s.check_fn,
        version: s.version,
        doc: cont.doc,
    })
}

/// An object with its members' constraints and doc comments, `when` rules
/// as `allOf`, and the rules JSON Schema cannot say: its constant part a
/// static table (`ObjectTable`), its members' own schemas computed here.
pub fn object(s: &Object<'_>) -> TokenStream {
    let p = private();
    let props = s.members.iter().map(|f| {
        let (json, nullable) = (f.json_name, f.nullable);
        let mut cs = Vec::new();
        let mut items = quote!(#p::None);
        let mut add = |keyword: &str, value: TokenStream| {
            cs.push(quote!((#keyword, #value)));
        };
        for constraint in &f.constraints {
            match constraint {
                Constraint::Range(bounds) => {
                    if let Some(min) = bounds.min() {
                        add("minimum", lit_table(&min.into()));
                    }
                    if let Some(max) = bounds.max() {
                        add("maximum", lit_table(&max.into()));
                    }
                }
                Constraint::Length { bounds, counts } => {
                    let (min_kw, max_kw) = match counts {
                        Counts::Items => ("minItems", "maxItems"),
                        Counts::Characters => ("minLength", "maxLength"),
                    };
                    if let Some(v) = bounds.min() {
                        add(min_kw, quote!(#p::Json::U64(#v)));
                    }
                    if let Some(v) = bounds.max() {
                        add(max_kw, quote!(#p::Json::U64(#v)));
                    }
                }
                Constraint::Equals(value) => add("const", lit_table(value)),
                Constraint::OneOf(values) => {
                    let vs = values.iter().map(lit_table);
                    add("enum", quote!(#p::Json::Array(&[#(#vs),*])));
                }
                Constraint::Pattern(pattern) => {
                    let written = &pattern.written;
                    if pattern.on_items {
                        // Every item's: `items.pattern`.
                        items = quote!(#p::Some(#written));
                    } else {
                        add("pattern", quote!(#p::Json::Str(#written)));
                    }
                }
                Constraint::Format(format) => {
                    let name = format.name();
                    add("format", quote!(#p::Json::Str(#name)));
                }
            }
        }
        let doc = match &f.doc {
            Some(d) => quote!(#p::Some(#d)),
            None => quote!(#p::None),
        };
        quote! {
            #p::Property {
                name: #json,
                nullable: #nullable,
                constraints: &[#(#cs),*],
                items_pattern: #items,
                doc: #doc,
            }
        }
    });
    let schemas = s.members.iter().map(|f| {
        let ty = f.ty;
        quote_spanned!(f.ty.span()=> <#ty as #p::JsonType>::schema(__contract_defs))
    });
    let required = s
        .members
        .iter()
        .filter(|f| f.absent == Absent::Missing)
        .map(|f| f.json_name);
    let description = match s.doc {
        Some(d) => quote!(#p::Some(#d)),
        None => quote!(#p::None),
    };
    let version = match s.version {
        Some(v) => quote!(#p::Some(#v)),
        None => quote!(#p::None),
    };
    let all_of = all_of(s.whens);
    let extension = extension(s);
    quote! {{
        static __CONTRACT_OBJECT: #p::ObjectTable = #p::ObjectTable {
            description: #description,
            version: #version,
            properties: &[#(#props),*],
            required: &[#(#required),*],
        };
        #[allow(unused_mut)]
        let mut __contract_schema = #p::object_schema(&__CONTRACT_OBJECT, &mut [#(#schemas),*]);
        #all_of
        #extension
        #p::Value::Object(__contract_schema)
    }}
}

/// The JSON value of a condition's literal or variant, for the schema.
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

// `when` rules as `allOf` of `if`/`then`, so any draft 2020-12 validator
// enforces them too.
fn all_of(whens: &[WhenRule<'_>]) -> TokenStream {
    let p = private();
    let rules: Vec<TokenStream> = whens
        .iter()
        .map(|w| {
            let cj = w.condition.json_name;
            let values = w.values.iter().map(|v| cond_json(&w.condition, v));
            let required = w.require.iter().map(|t| &t.json_name);
            let forbidden = w.forbid.iter().map(|t| &t.json_name);
            quote! {
                #p::json!({
                    "if": {
                        "properties": { #cj: { "enum": [#(#values),*] } },
                        "required": [#cj]
                    },
                    "then": #p::when_then(&[#(#required),*], &[#(#forbidden),*])
                })
            }
        })
        .collect();
    if rules.is_empty() {
        return TokenStream::new();
    }
    quote!(__contract_schema.insert(#p::String::from("allOf"), #p::Value::Array(#p::Vec::from([#(#rules),*])));)
}

// What JSON Schema cannot say, listed under the extension key.
fn extension(s: &Object<'_>) -> TokenStream {
    let p = private();
    let mut entries = Vec::new();
    for o in s.orders {
        let (a, b) = (&o.first, &o.second);
        let (pa, pb) = (pointer::member(a.json_name), pointer::member(b.json_name));
        let op = if o.strict { ">" } else { ">=" };
        let desc = format!(
            "when both are present, `{}` {op} `{}`",
            b.json_name, a.json_name
        );
        entries.push(
            quote!(#p::json!({ "rule": "order", "pointers": [#pa, #pb], "description": #desc })),
        );
    }
    for f in s.members {
        let ptr = pointer::member(f.json_name);
        if f.evidence.is_some() {
            entries.push(quote!(#p::json!({ "rule": "evidence", "pointers": [#ptr], "description": "must occur verbatim in the source text" })));
        }
        if f.quarantine {
            entries.push(quote!(#p::json!({ "rule": "quarantine", "pointers": [#ptr], "description": "a value of the right type that fails its checks is dropped to null and the outcome becomes review; a wrong type still rejects" })));
        }
    }
    if let Some(check) = s.check_fn {
        entries.push(check_entry(check));
    }
    if entries.is_empty() {
        return TokenStream::new();
    }
    quote!(__contract_schema.insert(#p::String::from(#p::RULES_KEY), #p::Value::Array(#p::Vec::from([#(#entries),*])));)
}

// The `check` function, by name, in the extension key's list.
fn check_entry(check: &syn::Path) -> TokenStream {
    let p = private();
    let name = quote!(#check).to_string().replace(' ', "");
    quote!(#p::json!({ "rule": "check", "function": #name, "description": "checked against trusted context" }))
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
    let variants = u.variants.iter().map(|v| {
        let name = v.variant.json_name.as_str();
        let body = match &v.members {
            Members::Unit => object(&Object {
                members: &[],
                whens: &[],
                orders: &[],
                check_fn: None,
                version: None,
                doc: None,
            }),
            Members::Struct(fields) => object(&Object {
                members: fields,
                whens: &v.whens,
                orders: &v.orders,
                check_fn: None,
                version: None,
                doc: None,
            }),
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
        let entry = check_entry(c);
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
