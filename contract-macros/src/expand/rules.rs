//! Cross-field rules (`when`, `order`), the outcome field, and the business
//! stage (`evidence`, `check`): their runtime code and their schema.
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::structs::lit_json;
use super::{private, private_at};
use crate::attr::{CondValue, When};
use crate::model::{Container, Field};
use crate::ty::{Ty, option_inner};

fn field<'c, 'a>(cont: &'c Container<'a>, ident: &syn::Ident) -> Option<&'c Field<'a>> {
    cont.field(ident)
}

/// The condition of a `when` as a boolean expression on `self`.
fn condition(cond: &Field<'_>, values: &[CondValue]) -> TokenStream {
    let p = private();
    let ident = cond.ident;
    let pats: Vec<TokenStream> = values
        .iter()
        .map(|v| match v {
            CondValue::Path(path) => quote!(#path),
            CondValue::Lit(l) => {
                let kind = cond.kind.strip_option();
                super::structs::typed_lit(kind, &l.value)
            }
        })
        .collect();
    let is_str = matches!(cond.kind.strip_option(), Ty::String);
    match (cond.kind.is_option(), is_str) {
        (false, false) => quote!(matches!(self.#ident, #(#pats)|*)),
        (true, false) => quote!(matches!(self.#ident, #p::Some(#(#pats)|*))),
        (false, true) => quote!(matches!(self.#ident.as_str(), #(#pats)|*)),
        (true, true) => quote!(matches!(self.#ident.as_deref(), #p::Some(#(#pats)|*))),
    }
}

pub fn rules_body(cont: &Container<'_>, fields: &[Field<'_>]) -> TokenStream {
    let p = private();
    // Nested contracts' own rules first, at their pointers.
    let nested = fields.iter().filter(|f| f.kind.may_nest()).map(|f| {
        let (ident, ty, json) = (f.ident, f.ty, &f.json_name);
        quote!(<#ty as #p::Field>::rules(&self.#ident, &__contract_path.key(#json), __contract_cx);)
    });
    let whens = cont.attrs.whens.iter().filter_map(|w| when_rule(cont, w));
    let orders = cont.attrs.orders.iter().filter_map(|o| {
        let a = field(cont, &o.first)?;
        let b = field(cont, &o.second)?;
        let opt = |f: &Field<'_>| {
            let ident = f.ident;
            if f.kind.is_option() {
                quote!(#p::Option::as_ref(&self.#ident))
            } else {
                quote!(#p::Some(&self.#ident))
            }
        };
        let (oa, ob) = (opt(a), opt(b));
        let (ja, jb) = (&a.json_name, &b.json_name);
        let strict = o.strict;
        let holds = if strict {
            quote!(__contract_a < __contract_b)
        } else {
            quote!(__contract_a <= __contract_b)
        };
        Some(quote! {
            if let (#p::Some(__contract_a), #p::Some(__contract_b)) = (#oa, #ob) {
                if !(#holds) {
                    #p::order_error(__contract_cx, __contract_path, #ja, #jb, #strict);
                }
            }
        })
    });
    quote! {
        let _ = (&__contract_path, &__contract_cx);
        #(#nested)*
        #(#whens)*
        #(#orders)*
    }
}

fn when_rule(cont: &Container<'_>, w: &When) -> Option<TokenStream> {
    let p = private();
    let cond = field(cont, &w.field)?;
    let test = condition(cond, &w.values);
    let (cond_ident, cond_ty) = (cond.ident, cond.ty);
    let cond_json = &cond.json_name;
    let requires = w.require.iter().filter_map(|t| field(cont, t)).map(|t| {
        let (ident, json) = (t.ident, &t.json_name);
        quote! {
            if #p::Option::is_none(&self.#ident) {
                #p::rule_error(__contract_cx, __contract_path, #json, "required", #cond_json, <#cond_ty as #p::Field>::encode(&self.#cond_ident));
            }
        }
    });
    let forbids = w.forbid.iter().filter_map(|t| field(cont, t)).map(|t| {
        let (ident, json) = (t.ident, &t.json_name);
        quote! {
            if #p::Option::is_some(&self.#ident) {
                #p::rule_error(__contract_cx, __contract_path, #json, "forbidden", #cond_json, <#cond_ty as #p::Field>::encode(&self.#cond_ident));
            }
        }
    });
    Some(quote! {
        if #test {
            #(#requires)*
            #(#forbids)*
        }
    })
}

pub fn outcome_fn(cont: &Container<'_>) -> TokenStream {
    let p = private();
    let Some(name) = &cont.attrs.outcome else {
        return TokenStream::new();
    };
    if field(cont, name).is_none() {
        return TokenStream::new();
    }
    // The one use of the `OutcomeEnum` bound, spanned at `outcome = FIELD`
    // (`name` is the attribute's own token for the field), so a type that is
    // not a contract enum is reported there, once.
    let at = private_at(name.span());
    let kind = quote_spanned!(name.span()=> #at::OutcomeEnum::outcome_kind(&self.#name));
    quote! {
        fn __outcome(&self) -> #p::OutcomeKind {
            #kind
        }
    }
}

pub fn business_fn(cont: &Container<'_>) -> TokenStream {
    let p = private();
    if cont.attrs.context.is_none() {
        return TokenStream::new();
    }
    let evidence = cont.fields().iter().filter_map(|f| {
        let ev = f.attrs.evidence.as_ref()?;
        let (ident, json) = (f.ident, &f.json_name);
        let source = quote_spanned!(ev.span()=> #p::EvidenceSource::source_text(__contract_ctx));
        let quarantine = f.attrs.quarantine.is_some();
        let value = if f.kind.is_option() {
            quote!(#p::Option::as_deref(&self.#ident))
        } else {
            quote!(#p::Some(self.#ident.as_str()))
        };
        let drop_value = if quarantine && f.kind.is_option() {
            quote!(self.#ident = #p::None;)
        } else {
            TokenStream::new()
        };
        Some(quote! {
            if let #p::Some(__contract_quote) = #value {
                if !#p::evidence(__contract_cx, #source, __contract_quote, #json, #quarantine) {
                    #drop_value
                }
            }
        })
    });
    // A review reason the check gives for a quarantined field drops that
    // field's value, as a value failure in decoding or missing evidence does.
    let drops: Vec<TokenStream> = cont
        .fields()
        .iter()
        .filter(|f| f.attrs.quarantine.is_some() && f.kind.is_option())
        .map(|f| {
            let pointer = format!("/{}", crate::pointer::escape_segment(&f.json_name));
            let ident = f.ident;
            quote!(#pointer => self.#ident = #p::None,)
        })
        .collect();
    let check = cont.attrs.check.as_ref().map(|path| {
        let call = quote_spanned!(path.span()=> #path(&*self, __contract_ctx));
        let drop_quarantined = (!drops.is_empty()).then(|| {
            quote! {
                for __contract_v in &__contract_vs.0 {
                    if __contract_v.kind == #p::ViolationKind::Review {
                        match __contract_v.pointer.as_str() {
                            #(#drops)*
                            _ => {}
                        }
                    }
                }
            }
        });
        quote! {
            if let #p::Err(__contract_e) = #call {
                let __contract_vs = #p::Violations::from(__contract_e);
                #drop_quarantined
                #p::violations(__contract_cx, __contract_vs);
            }
        }
    });
    quote! {
        fn __business(&mut self, __contract_ctx: &Self::Context, __contract_cx: &mut #p::Cx) {
            #(#evidence)*
            #check
        }
    }
}

/// The JSON value of a condition's literal or variant, for the schema.
fn cond_json(cond: &Field<'_>, v: &CondValue) -> TokenStream {
    let p = private();
    match v {
        CondValue::Path(path) => {
            let ty = option_inner(cond.ty).unwrap_or(cond.ty);
            quote!(<#ty as #p::Field>::encode(&#path))
        }
        CondValue::Lit(l) => lit_json(cond.kind.strip_option(), &l.value),
    }
}

// `when` rules as `allOf` of `if`/`then`, so any draft 2020-12 validator
// enforces them too.
pub fn schema_all_of(cont: &Container<'_>) -> TokenStream {
    let p = private();
    let rules: Vec<TokenStream> = cont
        .attrs
        .whens
        .iter()
        .filter_map(|w| {
            let cond = field(cont, &w.field)?;
            let cj = &cond.json_name;
            let values: Vec<_> = w.values.iter().map(|v| cond_json(cond, v)).collect();
            let required: Vec<_> = w
                .require
                .iter()
                .filter_map(|t| field(cont, t))
                .map(|t| t.json_name.clone())
                .collect();
            let forbidden: Vec<_> = w
                .forbid
                .iter()
                .filter_map(|t| field(cont, t))
                .map(|t| t.json_name.clone())
                .collect();
            Some(quote! {
                #p::json!({
                    "if": {
                        "properties": { #cj: { "enum": [#(#values),*] } },
                        "required": [#cj]
                    },
                    "then": #p::when_then(&[#(#required),*], &[#(#forbidden),*])
                })
            })
        })
        .collect();
    if rules.is_empty() {
        return TokenStream::new();
    }
    quote!(__contract_schema.insert(#p::String::from("allOf"), #p::Value::Array(#p::Vec::from([#(#rules),*])));)
}

// What JSON Schema cannot say, listed under the extension key.
pub fn schema_extension(cont: &Container<'_>) -> TokenStream {
    let p = private();
    let mut entries = Vec::new();
    for o in &cont.attrs.orders {
        let (Some(a), Some(b)) = (field(cont, &o.first), field(cont, &o.second)) else {
            continue;
        };
        let (pa, pb) = (format!("/{}", a.json_name), format!("/{}", b.json_name));
        let op = if o.strict { ">" } else { ">=" };
        let desc = format!(
            "when both are present, `{}` {op} `{}`",
            b.json_name, a.json_name
        );
        entries.push(
            quote!(#p::json!({ "rule": "order", "pointers": [#pa, #pb], "description": #desc })),
        );
    }
    for f in cont.fields() {
        let ptr = format!("/{}", f.json_name);
        if f.attrs.evidence.is_some() {
            entries.push(quote!(#p::json!({ "rule": "evidence", "pointers": [#ptr], "description": "must occur verbatim in the source text" })));
        }
        if f.attrs.quarantine.is_some() {
            entries.push(quote!(#p::json!({ "rule": "quarantine", "pointers": [#ptr], "description": "a value of the right type that fails its checks is dropped to null and the outcome becomes review; a wrong type still rejects" })));
        }
    }
    if let Some(check) = &cont.attrs.check {
        let name = quote!(#check).to_string().replace(' ', "");
        entries.push(quote!(#p::json!({ "rule": "check", "function": #name, "description": "checked against trusted context" })));
    }
    if entries.is_empty() {
        return TokenStream::new();
    }
    quote!(__contract_schema.insert(#p::String::from(#p::RULES_KEY), #p::Value::Array(#p::Vec::from([#(#entries),*])));)
}
