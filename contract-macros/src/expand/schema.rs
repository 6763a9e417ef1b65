//! Schemas: the body of `Contract::__schema_body`, a draft 2020-12 schema
//! with the contract's constraints, rules and descriptions.
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::lit::{lit_json, typed_lit};
use super::private;
use crate::attr::Lit;
use crate::checked::{CondValue, Contract, Members, OrderRule, Struct, Union, WhenRule};
use crate::model::{Member, Variant};
use crate::pointer;
use crate::ty::{Ty, option_inner};

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
        members: s.members,
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
        let json = &f.json_name;
        let kind = f.kind.strip_option();
        let nullable = f.kind.is_option();
        let a = &f.attrs;
        let mut cs = Vec::new();
        let mut items = quote!(#p::None);
        let mut add = |keyword: &str, value: TokenStream| {
            cs.push(quote!((#keyword, #value)));
        };
        if let Some(min) = &a.min {
            add("minimum", lit_table(kind, &min.value));
        }
        if let Some(max) = &a.max {
            add("maximum", lit_table(kind, &max.value));
        }
        let (min_kw, max_kw) = if matches!(kind, Ty::Vec(_)) {
            ("minItems", "maxItems")
        } else {
            ("minLength", "maxLength")
        };
        if let Some(min) = &a.min_len {
            let v = min.value;
            add(min_kw, quote!(#p::Json::U64(#v)));
        }
        if let Some(max) = &a.max_len {
            let v = max.value;
            add(max_kw, quote!(#p::Json::U64(#v)));
        }
        if let Some(eq) = &a.equals {
            add("const", lit_table(kind, &eq.value));
        }
        if let Some(list) = &a.one_of {
            let vs = list.value.iter().map(|l| lit_table(kind, &l.value));
            add("enum", quote!(#p::Json::Array(&[#(#vs),*])));
        }
        if let Some(pattern) = &a.pattern {
            let written = pattern.value.value();
            if crate::check::pattern_on_items(kind) {
                // Every item's: `items.pattern`.
                items = quote!(#p::Some(#written));
            } else {
                add("pattern", quote!(#p::Json::Str(#written)));
            }
        }
        if let Some(format) = &a.format {
            let name = format.value.name();
            add("format", quote!(#p::Json::Str(#name)));
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
        .filter(|f| f.attrs.optional.is_none())
        .map(|f| f.json_name.as_str());
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

/// A literal of a constraint keyword, as `lit_json` writes it in JSON.
fn lit_table(kind: &Ty, lit: &Lit) -> TokenStream {
    let p = private();
    match (kind, lit) {
        (_, Lit::Str(s)) => quote!(#p::Json::Str(#s)),
        (_, Lit::Bool(b)) => quote!(#p::Json::Bool(#b)),
        (Ty::Float, _) | (_, Lit::Float(_)) => {
            let v = typed_lit(&Ty::Float, lit);
            quote!(#p::Json::F64(#v))
        }
        (_, Lit::Int(i)) => match (u64::try_from(*i), i64::try_from(*i)) {
            (Ok(u), _) => quote!(#p::Json::U64(#u)),
            (_, Ok(n)) => quote!(#p::Json::I64(#n)),
            // Out of every JSON integer type: the checks reported it already.
            _ => {
                let v = typed_lit(&Ty::Float, lit);
                quote!(#p::Json::F64(#v))
            }
        },
    }
}

/// The JSON value of a condition's literal or variant, for the schema.
fn cond_json(cond: &Member<'_>, v: &CondValue<'_>) -> TokenStream {
    let p = private();
    match v {
        CondValue::Variant(path) => {
            let ty = option_inner(cond.ty).unwrap_or(cond.ty);
            quote!(<#ty as #p::JsonType>::encode(&#path))
        }
        CondValue::Lit(lit) => lit_json(cond.kind.strip_option(), lit),
    }
}

// `when` rules as `allOf` of `if`/`then`, so any draft 2020-12 validator
// enforces them too.
fn all_of(whens: &[WhenRule<'_>]) -> TokenStream {
    let p = private();
    let rules: Vec<TokenStream> = whens
        .iter()
        .map(|w| {
            let cj = &w.condition.json_name;
            let values = w.values.iter().map(|v| cond_json(w.condition, v));
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
        let (a, b) = (o.first, o.second);
        let (pa, pb) = (pointer::member(&a.json_name), pointer::member(&b.json_name));
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
        let ptr = pointer::member(&f.json_name);
        if f.attrs.evidence.is_some() {
            entries.push(quote!(#p::json!({ "rule": "evidence", "pointers": [#ptr], "description": "must occur verbatim in the source text" })));
        }
        if f.attrs.quarantine.is_some() {
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
