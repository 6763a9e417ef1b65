//! A contract struct: `Field` (decode, encode, schema, shape, rules) and
//! `Contract` (limits, schema body, outcome, business, edit policies).
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::{edit, private, rules};
use crate::attr::Lit;
use crate::model::{Container, Field};
use crate::ty::Ty;

pub fn expand(cont: &Container<'_>, fields: &[Field<'_>]) -> TokenStream {
    let p = private();
    let ident = cont.ident;
    let name = ident.to_string();
    let decode = decode_body(fields);
    let encode = encode_body(fields);
    let schema = schema_body(cont, fields);
    let rules = rules::rules_body(cont, fields);
    let shape = shape(fields);
    let outcome = rules::outcome_fn(cont);
    let business = rules::business_fn(cont);
    let context = match &cont.attrs.context {
        Some(ty) => quote!(#ty),
        None => quote!(()),
    };
    let limits = limits(cont);
    let version_const = cont.attrs.version.as_ref().map(|v| {
        let n = Literal::u64_unsuffixed(v.value);
        quote!(const VERSION: u32 = #n;)
    });
    let (policy_consts, policy_list, policy_checks) = edit::policies(cont);
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #p::Field for #ident {
                const SHAPE: #p::Shape = #shape;

                fn decode(
                    __contract_r: &mut #p::Reader<'_>,
                    __contract_path: &#p::Path<'_>,
                    __contract_cx: &mut #p::Cx,
                ) -> #p::Result<#p::Option<Self>, #p::ParseError> {
                    #decode
                }

                fn encode(&self) -> #p::Value {
                    #encode
                }

                fn schema(__contract_defs: &mut #p::SchemaGen) -> #p::Value {
                    __contract_defs.reference::<Self>()
                }

                fn rules(&self, __contract_path: &#p::Path<'_>, __contract_cx: &mut #p::Cx) {
                    #rules
                }
            }

            #[automatically_derived]
            impl #p::Contract for #ident {
                const NAME: &'static str = #name;
                #version_const
                const LIMITS: #p::Limits = #limits;
                type Context = #context;
                const __POLICIES: &'static [#p::EditPolicy<Self>] = &[#policy_list];

                fn __schema_body(__contract_defs: &mut #p::SchemaGen) -> #p::Value {
                    #schema
                }

                #outcome
                #business
            }

            #policy_checks
        };
        #policy_consts
    }
}

fn limits(cont: &Container<'_>) -> TokenStream {
    let p = private();
    let mut parts = Vec::new();
    if let Some(b) = &cont.attrs.max_bytes {
        let v = Literal::u64_unsuffixed(b.value);
        parts.push(quote!(max_bytes: #v as usize,));
    }
    if let Some(d) = &cont.attrs.max_depth {
        let v = Literal::u64_unsuffixed(d.value);
        parts.push(quote!(max_depth: #v as usize,));
    }
    // `..DEFAULT` only when a field is left out (clippy's `needless_update`
    // would fire in the user's crate otherwise).
    let rest = (parts.len() < 2).then(|| quote!(..#p::Limits::DEFAULT));
    quote!(#p::Limits { #(#parts)* #rest })
}

fn local(prefix: &str, i: usize) -> syn::Ident {
    format_ident!("__contract_{}{}", prefix, i)
}

fn decode_body(fields: &[Field<'_>]) -> TokenStream {
    let p = private();
    let values: Vec<_> = (0..fields.len()).map(|i| local("v", i)).collect();
    let seen: Vec<_> = (0..fields.len()).map(|i| local("s", i)).collect();
    let tys: Vec<_> = fields.iter().map(|f| f.ty).collect();
    let names: Vec<_> = fields.iter().map(|f| f.json_name.as_str()).collect();
    let indices: Vec<_> = (0..fields.len()).collect();
    let arms = fields.iter().enumerate().map(|(i, f)| {
        let (v, s, ty, json) = (&values[i], &seen[i], f.ty, &f.json_name);
        let checks = field_checks(f);
        let on_fail = if f.attrs.quarantine.is_some() {
            // A quarantined value that fails only its value checks is dropped
            // to `None` with a review reason; a structural error (a wrong
            // type, a missing or unknown key, at any depth) still rejects.
            quote! {
                if __contract_cx.quarantine_since(__contract_mark) {
                    #v = #p::Some(#p::None);
                } else {
                    __contract_ok = false;
                }
            }
        } else {
            quote!(__contract_ok = false;)
        };
        // An `f32` with bounds is read and checked as the f64 the document
        // wrote, then narrowed: `1.00000001` must fail `max = 1` although it
        // rounds to `1.0f32`.
        let bounded_f32 = (f.attrs.min.is_some() || f.attrs.max.is_some()) && is_f32(f.ty);
        let (decode_ty, store) = if !bounded_f32 {
            (quote!(#ty), quote!(#v = #p::Some(__contract_x);))
        } else if f.kind.is_option() {
            (
                quote!(#p::Option<f64>),
                quote! {
                    #v = match __contract_x {
                        #p::Some(__contract_y) => #p::narrow_f32(__contract_y, &__contract_p, __contract_cx).map(#p::Some),
                        #p::None => #p::Some(#p::None),
                    };
                },
            )
        } else {
            (
                quote!(f64),
                quote!(#v = #p::narrow_f32(__contract_x, &__contract_p, __contract_cx);),
            )
        };
        quote! {
            #i => {
                if #s {
                    return #p::Err(#p::duplicate_key(__contract_at, __contract_path, #json));
                }
                #s = true;
                let __contract_p = __contract_path.key(#json);
                let __contract_mark = __contract_cx.mark();
                if let #p::Some(__contract_x) =
                    <#decode_ty as #p::Field>::decode(__contract_r, &__contract_p, __contract_cx)?
                {
                    #checks
                    #store
                }
                if __contract_cx.failed_since(__contract_mark) {
                    #on_fail
                }
            }
        }
    });
    let absent = fields.iter().enumerate().map(|(i, f)| {
        let (v, s, json) = (&values[i], &seen[i], &f.json_name);
        if f.attrs.optional.is_some() && f.kind.is_option() {
            quote!(if !#s { #v = #p::Some(#p::None); })
        } else if f.attrs.optional.is_some() {
            let ty = f.ty;
            quote!(if !#s { #v = #p::Some(<#ty as ::core::default::Default>::default()); })
        } else {
            quote! {
                if !#s {
                    #p::missing_key(__contract_cx, __contract_path, #json);
                    __contract_ok = false;
                }
            }
        }
    });
    let idents: Vec<_> = fields.iter().map(|f| f.ident).collect();
    let count = fields.len();
    // Each key as it appears raw in a document (with its quotes), or empty
    // (never predicted) when the name would need escaping in JSON.
    let quoted = fields.iter().map(|f| {
        let plain = f
            .json_name
            .bytes()
            .all(|b| b >= 0x20 && b != b'"' && b != b'\\');
        let raw = if plain {
            format!("\"{}\"", f.json_name).into_bytes()
        } else {
            Vec::new()
        };
        Literal::byte_string(&raw)
    });
    quote! {
        match __contract_r.peek()? {
            #p::Peek::Object => {}
            __contract_other => {
                return #p::invalid_type(__contract_r, __contract_path, __contract_cx, "an object", __contract_other);
            }
        }
        #( let mut #values: #p::Option<#tys> = #p::None; )*
        #( let mut #seen = false; )*
        let mut __contract_ok = true;
        let mut __contract_unknown = #p::KeySet::default();
        // Models write keys in schema order: try the next field's key as
        // raw bytes first, and fall back to reading and matching the key.
        const __CONTRACT_KEYS: [&[u8]; #count] = [#(#quoted),*];
        let mut __contract_next: usize = 0;
        let mut __contract_more = __contract_r.begin_object()?;
        while __contract_more {
            let __contract_at = __contract_r.offset();
            let mut __contract_key: #p::Option<#p::String> = #p::None;
            let __contract_index: usize = match __CONTRACT_KEYS.get(__contract_next) {
                #p::Some(__contract_lit) if __contract_r.eat_key(__contract_lit) => __contract_next,
                _ => match __contract_r.read_key()? {
                    #( #names => #indices, )*
                    __contract_other => {
                        __contract_key = #p::Some(#p::String::from(__contract_other));
                        usize::MAX
                    }
                },
            };
            __contract_next = __contract_index.wrapping_add(1);
            match __contract_index {
                #( #arms )*
                _ => {
                    let __contract_key = __contract_key.unwrap_or_default();
                    #p::unknown_key(
                        __contract_r,
                        __contract_path,
                        __contract_cx,
                        &mut __contract_unknown,
                        __contract_at,
                        __contract_key,
                    )?;
                    __contract_ok = false;
                }
            }
            __contract_more = __contract_r.object_more()?;
        }
        #( #absent )*
        if !__contract_ok {
            return #p::Ok(#p::None);
        }
        #p::Ok(#p::Some(Self {
            #( #idents: match #values {
                #p::Some(__contract_v) => __contract_v,
                #p::None => return #p::Ok(#p::None),
            }, )*
        }))
    }
}

/// Whether the type is `f32` or `Option<f32>`.
fn is_f32(ty: &syn::Type) -> bool {
    let ty = crate::ty::option_inner(ty).unwrap_or(ty);
    matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("f32"))
}

/// A literal typed for the field (`1` for integers, `1.0` for floats).
pub fn typed_lit(kind: &Ty, lit: &Lit) -> TokenStream {
    match (kind, lit) {
        (Ty::Float, Lit::Int(i)) => Literal::f64_unsuffixed(*i as f64).into_token_stream(),
        (Ty::Float, Lit::Float(f)) => Literal::f64_unsuffixed(*f).into_token_stream(),
        (_, Lit::Int(i)) => {
            let abs = Literal::u128_unsuffixed(i.unsigned_abs());
            if *i < 0 { quote!(-#abs) } else { quote!(#abs) }
        }
        (_, Lit::Float(f)) => Literal::f64_unsuffixed(*f).into_token_stream(),
        (_, Lit::Str(s)) => Literal::string(s).into_token_stream(),
        (_, Lit::Bool(b)) => quote!(#b),
    }
}

trait IntoTokenStream {
    fn into_token_stream(self) -> TokenStream;
}

impl IntoTokenStream for Literal {
    fn into_token_stream(self) -> TokenStream {
        quote!(#self)
    }
}

/// The literal as it reads in a message (`1`, `0.5`, `"close_ticket"`).
fn lit_text(lit: &Lit) -> String {
    match lit {
        Lit::Int(i) => i.to_string(),
        Lit::Float(f) => f.to_string(),
        Lit::Str(s) => format!("{s:?}"),
        Lit::Bool(b) => b.to_string(),
    }
}

/// The literal as JSON for the schema.
pub fn lit_json(kind: &Ty, lit: &Lit) -> TokenStream {
    let p = private();
    match (kind, lit) {
        (Ty::Float, Lit::Int(i)) => {
            let v = Literal::f64_unsuffixed(*i as f64);
            quote!(#p::json!(#v))
        }
        _ => {
            let v = typed_lit(kind, lit);
            quote!(#p::json!(#v))
        }
    }
}

// Value-level checks (`min`, `max`, `min_len`, `max_len`, `equals`,
// `one_of`) on `__contract_x`, skipping `null` for `Option` fields.
fn field_checks(f: &Field<'_>) -> TokenStream {
    let p = private();
    let a = &f.attrs;
    let kind = f.kind.strip_option();
    let mut checks = Vec::new();
    let is_str = matches!(kind, Ty::String);
    let unit = if is_str { "characters" } else { "items" };
    if let Some(min) = &a.min {
        let v = typed_lit(kind, &min.value);
        let msg = format!("below the minimum of {}", lit_text(&min.value));
        let exp = format!("a number >= {}", lit_text(&min.value));
        checks.push(quote!(if *__contract_y < #v { #p::field_error(__contract_cx, &__contract_p, "below_minimum", #msg, #exp); }));
    }
    if let Some(max) = &a.max {
        let v = typed_lit(kind, &max.value);
        let msg = format!("above the maximum of {}", lit_text(&max.value));
        let exp = format!("a number <= {}", lit_text(&max.value));
        checks.push(quote!(if *__contract_y > #v { #p::field_error(__contract_cx, &__contract_p, "above_maximum", #msg, #exp); }));
    }
    if a.min_len.is_some() || a.max_len.is_some() {
        // One length check for both bounds: a string's characters are
        // counted at most once, and not at all when its byte length decides.
        let min = a.min_len.as_ref().map_or(0, |m| m.value);
        let max = a.max_len.as_ref().map(|m| m.value);
        let min_lit = Literal::u64_unsuffixed(min);
        let max_tokens = match max {
            Some(m) => {
                let m = Literal::u64_unsuffixed(m);
                quote!(#m)
            }
            None => quote!(usize::MAX),
        };
        let short_msg = format!("shorter than the minimum of {min} {unit}");
        let short_exp = format!("at least {min} {unit}");
        let long_msg = format!("longer than the maximum of {} {unit}", max.unwrap_or(0));
        let long_exp = format!("at most {} {unit}", max.unwrap_or(0));
        checks.push(quote! {
            match #p::Length::check_len(__contract_y, #min_lit, #max_tokens) {
                #p::LenCheck::Short => #p::field_error(__contract_cx, &__contract_p, "too_short", #short_msg, #short_exp),
                #p::LenCheck::Long => #p::field_error(__contract_cx, &__contract_p, "too_long", #long_msg, #long_exp),
                #p::LenCheck::Within => {}
            }
        });
    }
    if let Some(eq) = &a.equals {
        let v = typed_lit(kind, &eq.value);
        let msg = format!("must equal {}", lit_text(&eq.value));
        let lhs = if is_str {
            quote!(__contract_y.as_str())
        } else {
            quote!(*__contract_y)
        };
        checks.push(quote!(if #lhs != #v { #p::field_error(__contract_cx, &__contract_p, "not_equal", #msg, #msg); }));
    }
    if let Some(list) = &a.one_of {
        let vs: Vec<_> = list
            .value
            .iter()
            .map(|l| typed_lit(kind, &l.value))
            .collect();
        let texts: Vec<_> = list.value.iter().map(|l| lit_text(&l.value)).collect();
        let msg = format!("must be one of: {}", texts.join(", "));
        let lhs = if is_str {
            quote!(__contract_y.as_str())
        } else {
            quote!(*__contract_y)
        };
        checks.push(quote!(if !matches!(#lhs, #(#vs)|*) { #p::field_error(__contract_cx, &__contract_p, "not_one_of", #msg, #msg); }));
    }
    if checks.is_empty() {
        return TokenStream::new();
    }
    if f.kind.is_option() {
        quote!(if let #p::Some(__contract_y) = &__contract_x { #(#checks)* })
    } else {
        quote!({ let __contract_y = &__contract_x; #(#checks)* })
    }
}

fn encode_body(fields: &[Field<'_>]) -> TokenStream {
    let p = private();
    let idents = fields.iter().map(|f| f.ident);
    let names = fields.iter().map(|f| f.json_name.as_str());
    // `<T as Field>`, not `Field::encode`: a field type that is not a
    // contract is then reported at the type, as every other use reports it.
    let tys = fields.iter().map(|f| f.ty);
    let n = fields.len();
    quote! {
        let mut __contract_map = #p::Map::new();
        let _ = #n;
        #( __contract_map.insert(#p::String::from(#names), <#tys as #p::Field>::encode(&self.#idents)); )*
        #p::Value::Object(__contract_map)
    }
}

fn shape(fields: &[Field<'_>]) -> TokenStream {
    let p = private();
    let names = fields.iter().map(|f| f.json_name.as_str());
    let tys = fields.iter().map(|f| f.ty);
    quote!(#p::Shape::Object(&[ #( (#names, &<#tys as #p::Field>::SHAPE) ),* ]))
}

fn schema_body(cont: &Container<'_>, fields: &[Field<'_>]) -> TokenStream {
    let p = private();
    let props = fields.iter().map(|f| {
        let ty = f.ty;
        let json = &f.json_name;
        let kind = f.kind.strip_option();
        let nullable = f.kind.is_option();
        let a = &f.attrs;
        let mut cs = Vec::new();
        let mut add = |keyword: &str, value: TokenStream| {
            cs.push(quote!(#p::constrain(&mut __contract_s, #keyword, #value, #nullable);));
        };
        if let Some(min) = &a.min {
            add("minimum", lit_json(kind, &min.value));
        }
        if let Some(max) = &a.max {
            add("maximum", lit_json(kind, &max.value));
        }
        let (min_kw, max_kw) = if matches!(kind, Ty::Vec(_)) {
            ("minItems", "maxItems")
        } else {
            ("minLength", "maxLength")
        };
        if let Some(min) = &a.min_len {
            let v = Literal::u64_unsuffixed(min.value);
            add(min_kw, quote!(#p::json!(#v)));
        }
        if let Some(max) = &a.max_len {
            let v = Literal::u64_unsuffixed(max.value);
            add(max_kw, quote!(#p::json!(#v)));
        }
        if let Some(eq) = &a.equals {
            add("const", lit_json(kind, &eq.value));
        }
        if let Some(list) = &a.one_of {
            let vs = list.value.iter().map(|l| lit_json(kind, &l.value));
            add("enum", quote!(#p::Value::Array(#p::Vec::from([#(#vs),*]))));
        }
        let doc = f.doc.as_ref().map(
            |d| quote!(#p::constrain(&mut __contract_s, "description", #p::json!(#d), false);),
        );
        quote_spanned! {f.ty.span()=>
            {
                let mut __contract_s = <#ty as #p::Field>::schema(__contract_defs);
                #(#cs)*
                #doc
                __contract_props.insert(#p::String::from(#json), __contract_s);
            }
        }
    });
    let required = fields
        .iter()
        .filter(|f| f.attrs.optional.is_none())
        .map(|f| f.json_name.as_str());
    let description = cont
        .doc
        .as_ref()
        .map(|d| quote!(__contract_schema.insert(#p::String::from("description"), #p::json!(#d));));
    let version = cont.attrs.version.as_ref().map(|v| {
        let n = Literal::u64_unsuffixed(v.value);
        quote!(__contract_schema.insert(#p::String::from("x-contract-version"), #p::json!(#n));)
    });
    let all_of = rules::schema_all_of(cont);
    let extension = rules::schema_extension(cont);
    quote! {
        let mut __contract_props = #p::Map::new();
        #(#props)*
        let mut __contract_schema = #p::Map::new();
        #description
        #version
        __contract_schema.insert(#p::String::from("type"), #p::json!("object"));
        __contract_schema.insert(#p::String::from("properties"), #p::Value::Object(__contract_props));
        __contract_schema.insert(#p::String::from("required"), #p::json!([#(#required),*]));
        __contract_schema.insert(#p::String::from("additionalProperties"), #p::json!(false));
        #all_of
        #extension
        #p::Value::Object(__contract_schema)
    }
}
