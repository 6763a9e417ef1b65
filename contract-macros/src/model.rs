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
    /// Type parameters, or one lifetime (a const parameter is an error).
    pub generics: &'a syn::Generics,
    /// The lifetime of a contract that borrows from the text (`Invoice<'a>`).
    pub lifetime: Option<&'a syn::Lifetime>,
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
    /// The type names a lifetime: the field borrows from the text.
    pub borrows: bool,
    /// The key in JSON, after `rename` / `rename_all`.
    pub json_name: String,
    pub doc: Option<String>,
    pub attrs: FieldAttrs,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub json_name: String,
    pub doc: Option<String>,
    pub attrs: VariantAttrs,
    pub fields: VariantFields<'a>,
}

/// What a variant holds: nothing (a JSON string, or in a tagged union an
/// object with the tag alone), members beside the tag, or a contract struct
/// whose members sit beside the tag. A tuple of any other arity is kept for
/// `check` to report.
pub enum VariantFields<'a> {
    Unit,
    Struct(Vec<Member<'a>>),
    Newtype(&'a Type),
    Tuple(&'a syn::FieldsUnnamed),
}

// A contract may have type parameters (each becomes `T: Contract`), on a
// struct or a tagged union (an enum of unit variants has nothing a type
// parameter could type: `check` refuses it), or one lifetime, the text's
// that its borrowed fields borrow from (`&'a str`, `Cow<'a, str>`): one
// text, one lifetime, with no bounds, and not beside type parameters (its
// `'static` form is the `Contract`, whose instantiations a type parameter
// would multiply). A const parameter has no JSON form to vary.
fn check_generics(cx: &Ctxt, input: &DeriveInput) {
    let lifetimes = input.generics.lifetimes().count();
    let types = input.generics.type_params().count();
    for param in &input.generics.params {
        match param {
            syn::GenericParam::Lifetime(l) if lifetimes > 1 => cx.error_spanned_by(
                l,
                "a contract borrows from one text: declare one lifetime parameter (`'a`) and use it in every borrowed field",
            ),
            syn::GenericParam::Lifetime(l) if !l.bounds.is_empty() => cx.error_spanned_by(
                &l.bounds,
                "a contract's lifetime is the text's it borrows from: remove its bounds",
            ),
            syn::GenericParam::Lifetime(l) if types > 0 => cx.error_spanned_by(
                l,
                "a contract with a lifetime cannot also take type parameters: use concrete types beside its borrowed fields",
            ),
            syn::GenericParam::Lifetime(_) => {}
            syn::GenericParam::Const(c) => cx.error_spanned_by(
                c,
                "a contract cannot take a const parameter: its JSON Schema names each instantiation by its type arguments; use a field (with `min_len`/`max_len` for a length) instead",
            ),
            syn::GenericParam::Type(_) => {}
        }
    }
}

impl<'a> Container<'a> {
    /// Reads the input; `None` when its form cannot be a contract at all
    /// (the error is in `cx`).
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Container<'a>> {
        check_generics(cx, input);
        let attrs = attr::of_container(cx, &input.attrs);
        let rename_all = attrs.rename_rule();
        let data = match &input.data {
            Data::Struct(s) => match &s.fields {
                Fields::Named(named) => Body::Struct(members(cx, named, rename_all)),
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
                    let attrs = attr::of_variant(cx, &v.attrs);
                    let json_name = json_name(
                        &v.ident,
                        &attrs.rename,
                        rename_all,
                        RenameRule::apply_to_variant,
                    );
                    // A variant's members keep their own names: `rename_all`
                    // on an enum renames its variants (as serde's does).
                    let fields = match &v.fields {
                        Fields::Unit => VariantFields::Unit,
                        Fields::Named(named) => VariantFields::Struct(members(cx, named, None)),
                        Fields::Unnamed(unnamed) => match unnamed.unnamed.first() {
                            Some(only) if unnamed.unnamed.len() == 1 => {
                                VariantFields::Newtype(&only.ty)
                            }
                            _ => VariantFields::Tuple(unnamed),
                        },
                    };
                    variants.push(Variant {
                        ident: &v.ident,
                        json_name,
                        doc: attr::doc(&v.attrs),
                        attrs,
                        fields,
                    });
                }
                Body::Enum(variants)
            }
            Data::Union(_) => {
                cx.error_spanned_by(
                    &input.ident,
                    "a union cannot be a contract: declare a struct with named fields (a JSON object), an enum of unit variants (a JSON string), or an enum with `#[contract(tag = \"type\")]` (a tagged union)",
                );
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            generics: &input.generics,
            lifetime: input.generics.lifetimes().next().map(|l| &l.lifetime),
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

// The named fields of a struct or struct-like variant, as members.
fn members<'a>(
    cx: &Ctxt,
    named: &'a syn::FieldsNamed,
    rename_all: Option<RenameRule>,
) -> Vec<Member<'a>> {
    named
        .named
        .iter()
        .filter_map(|f| {
            let ident = f.ident.as_ref()?;
            let attrs = attr::of_field(cx, &f.attrs);
            let json_name = json_name(ident, &attrs.rename, rename_all, RenameRule::apply_to_field);
            Some(Member {
                ident,
                ty: &f.ty,
                kind: Ty::of(&f.ty),
                borrows: crate::ty::borrows(&f.ty),
                json_name,
                doc: attr::doc(&f.attrs),
                attrs,
            })
        })
        .collect()
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
