//! The derive's view of the input: names resolved, types classified,
//! attributes read. `check.rs` validates it; `expand/` generates from it.
use syn::{Data, DeriveInput, Fields, Ident, Type};

use crate::attr::{self, ContainerAttrs, FieldAttrs, VariantAttrs};
use crate::ctxt::Ctxt;
use crate::ty::Ty;

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub doc: Option<String>,
    pub attrs: ContainerAttrs,
    pub data: Body<'a>,
}

pub enum Body<'a> {
    Struct(Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

pub struct Field<'a> {
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
        let attrs = attr::container(cx, &input.attrs);
        let rename_all = attrs
            .rename_all
            .as_ref()
            .or(attrs.serde_rename_all.as_ref())
            .map(|r| r.value);
        let data = match &input.data {
            Data::Struct(s) => match &s.fields {
                Fields::Named(named) => Body::Struct(
                    named
                        .named
                        .iter()
                        .filter_map(|f| {
                            let ident = f.ident.as_ref()?;
                            let attrs = attr::field(cx, &f.attrs);
                            let base = ident.unraw().to_string();
                            let json_name = attrs
                                .rename
                                .as_ref()
                                .or(attrs.serde_rename.as_ref())
                                .map(|r| r.value.clone())
                                .unwrap_or_else(|| match rename_all {
                                    Some(rule) => rule.apply_to_field(&base),
                                    None => base,
                                });
                            Some(Field {
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
                Fields::Unnamed(unnamed) => {
                    cx.error_spanned_by(
                        unnamed,
                        format!(
                            "a contract struct needs named fields, since a JSON object has keys: write `struct {} {{ name: Type }}`",
                            input.ident
                        ),
                    );
                    return None;
                }
                Fields::Unit => {
                    cx.error_spanned_by(
                        &input.ident,
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
                    let attrs = attr::variant(cx, &v.attrs);
                    let base = v.ident.unraw().to_string();
                    let json_name = attrs
                        .rename
                        .as_ref()
                        .or(attrs.serde_rename.as_ref())
                        .map(|r| r.value.clone())
                        .unwrap_or_else(|| match rename_all {
                            Some(rule) => rule.apply_to_variant(&base),
                            None => base,
                        });
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

    pub fn fields(&self) -> &[Field<'a>] {
        match &self.data {
            Body::Struct(fields) => fields,
            Body::Enum(_) => &[],
        }
    }

    pub fn field(&self, ident: &Ident) -> Option<&Field<'a>> {
        self.fields().iter().find(|f| f.ident == ident)
    }

    pub fn field_by_json_name(&self, name: &str) -> Option<&Field<'a>> {
        self.fields().iter().find(|f| f.json_name == name)
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
