//! The raw model: the derive's view of the input, with JSON names decided,
//! types classified and attributes read, but nothing cross-checked yet.
//! `check` validates it and returns the checked model (`checked.rs`) that
//! `expand/` generates from.
use quote::ToTokens;
use syn::{Data, DeriveInput, Fields, Ident, Type};

use crate::attr::{self, ContainerAttrs, FieldAttrs, Rename, VariantAttrs};
use crate::case::RenameRule;
use crate::ctxt::Ctxt;
use crate::ty::Ty;

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub doc: Option<String>,
    pub attrs: ContainerAttrs,
    pub data: Body<'a>,
}

pub enum Body<'a> {
    Struct(Vec<Member<'a>>),
    Enum(Vec<Variant<'a>>),
}

/// A field of a contract struct (a member of its JSON object).
pub struct Member<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub kind: Ty,
    /// The key in JSON, after `rename` / `rename_all`.
    pub json_name: String,
    pub doc: Option<String>,
    pub attrs: FieldAttrs,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub json_name: String,
    pub attrs: VariantAttrs,
}

impl<'a> Container<'a> {
    /// Reads the input; `None` when its form cannot be a contract at all
    /// (the error is in `cx`).
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Container<'a>> {
        if !input.generics.params.is_empty() || input.generics.where_clause.is_some() {
            cx.error_spanned_by(
                &input.generics,
                "a contract cannot be generic: its JSON Schema is fixed at compile time; declare one concrete struct per use, with concrete field types",
            );
        }
        let attrs = attr::of_container(cx, &input.attrs);
        let rename_all = attrs.rename_rule();
        let data = match &input.data {
            Data::Struct(s) => match &s.fields {
                Fields::Named(named) => Body::Struct(
                    named
                        .named
                        .iter()
                        .filter_map(|f| {
                            let ident = f.ident.as_ref()?;
                            let attrs = attr::of_field(cx, &f.attrs);
                            let json_name = json_name(
                                ident,
                                &attrs.rename,
                                rename_all,
                                RenameRule::apply_to_field,
                            );
                            Some(Member {
                                ident,
                                ty: &f.ty,
                                kind: Ty::of(&f.ty),
                                json_name,
                                doc: attr::doc(&f.attrs),
                                attrs,
                            })
                        })
                        .collect(),
                ),
                Fields::Unnamed(_) | Fields::Unit => {
                    // Point at the tuple fields, or at the name of a unit struct.
                    let at = match &s.fields {
                        Fields::Unnamed(unnamed) => unnamed.to_token_stream(),
                        _ => input.ident.to_token_stream(),
                    };
                    cx.error_spanned_by(
                        at,
                        format!(
                            "a contract struct needs named fields, since a JSON object has keys: write `struct {} {{ name: Type }}`",
                            input.ident
                        ),
                    );
                    return None;
                }
            },
            Data::Enum(e) => {
                let mut variants = Vec::new();
                for v in &e.variants {
                    if !matches!(v.fields, Fields::Unit) {
                        cx.error_spanned_by(
                            &v.fields,
                            format!(
                                "a contract enum has unit variants only, each a JSON string: write `{}` without data, and put the data in a field of the struct that holds the enum",
                                v.ident
                            ),
                        );
                    }
                    let attrs = attr::of_variant(cx, &v.attrs);
                    let json_name = json_name(
                        &v.ident,
                        &attrs.rename,
                        rename_all,
                        RenameRule::apply_to_variant,
                    );
                    variants.push(Variant {
                        ident: &v.ident,
                        json_name,
                        attrs,
                    });
                }
                Body::Enum(variants)
            }
            Data::Union(_) => {
                cx.error_spanned_by(
                    &input.ident,
                    "a union cannot be a contract: declare a struct with named fields (a JSON object) or an enum of unit variants (a JSON string)",
                );
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            doc: attr::doc(&input.attrs),
            attrs,
            data,
        })
    }

    pub fn members(&self) -> &[Member<'a>] {
        match &self.data {
            Body::Struct(members) => members,
            Body::Enum(_) => &[],
        }
    }
}

// A member's JSON name, decided once: its `rename` (ours or serde's), else
// the container's `rename_all` applied to its Rust name, else that name
// (without `r#`).
fn json_name(
    ident: &Ident,
    rename: &Rename,
    rule: Option<RenameRule>,
    apply: fn(RenameRule, &str) -> String,
) -> String {
    if let Some(explicit) = rename.explicit() {
        return explicit.value.clone();
    }
    let base = ident.unraw().to_string();
    match rule {
        Some(rule) => apply(rule, &base),
        None => base,
    }
}

trait Unraw {
    fn unraw(&self) -> Ident;
}

impl Unraw for Ident {
    fn unraw(&self) -> Ident {
        let s = self.to_string();
        match s.strip_prefix("r#") {
            Some(stripped) => Ident::new(stripped, self.span()),
            None => self.clone(),
        }
    }
}
