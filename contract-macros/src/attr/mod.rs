//! Reads attributes into plain values: `contract` the `#[contract(..)]`
//! grammar, `serde` the `#[serde(..)]` names the contract must agree with,
//! `doc` the doc comments that become schema descriptions. Parsers report
//! into [`Ctxt`](crate::ctxt::Ctxt) and return what they could read;
//! cross-attribute consistency is `check`'s job.
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Ident, LitStr, Token};

use crate::case::{self, RenameRule};
use crate::ctxt::Ctxt;
use crate::suggest;

mod contract;
mod doc;
mod serde;

pub use contract::{of_container, of_field, of_variant};
pub use doc::doc;

/// A value together with the tokens it came from: errors about the value
/// point at `tokens` (through `ToTokens`), errors about the attribute itself
/// (misplaced, contradicting another) at `attr()`.
#[derive(Clone)]
pub struct Located<T> {
    pub value: T,
    pub tokens: TokenStream,
    attr: TokenStream,
}

impl<T> Located<T> {
    pub fn new(value: T, tokens: TokenStream) -> Self {
        Located {
            value,
            attr: tokens.clone(),
            tokens,
        }
    }

    /// Widens the attribute span to `name = value`.
    fn named(mut self, meta: &ParseNestedMeta<'_>) -> Self {
        let mut attr = meta.path.to_token_stream();
        attr.extend(self.tokens.clone());
        self.attr = attr;
        self
    }

    /// The whole `name = value`.
    pub fn attr(&self) -> &TokenStream {
        &self.attr
    }
}

impl<T> ToTokens for Located<T> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(self.tokens.clone());
    }
}

/// A literal in an attribute: `1`, `-1`, `0.5`, `"text"`, `true`.
#[derive(Clone, Debug, PartialEq)]
pub enum Lit {
    Int(i128),
    Float(f64),
    Str(String),
    Bool(bool),
}

impl Lit {
    pub fn kind(&self) -> &'static str {
        match self {
            Lit::Int(_) => "an integer",
            Lit::Float(_) => "a float",
            Lit::Str(_) => "a string",
            Lit::Bool(_) => "a boolean",
        }
    }
}

pub type LocatedLit = Located<Lit>;

/// The value side of a `when(FIELD = VALUE)` condition, as written.
#[derive(Clone)]
pub enum CondExpr {
    /// An enum variant, `Status::Complete` (rustc checks it exists).
    Path(syn::Path),
    /// A literal, for a `String` field with `one_of`.
    Lit(LocatedLit),
}

impl ToTokens for CondExpr {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            CondExpr::Path(p) => p.to_tokens(tokens),
            CondExpr::Lit(l) => l.to_tokens(tokens),
        }
    }
}

impl CondExpr {
    /// A key for comparing conditions ("the same condition").
    pub fn key(&self) -> String {
        match self {
            CondExpr::Path(p) => p.to_token_stream().to_string(),
            CondExpr::Lit(l) => format!("{:?}", l.value),
        }
    }
}

pub struct When {
    pub tokens: TokenStream,
    pub field: Ident,
    pub values: Vec<CondExpr>,
    pub require: Vec<Ident>,
    pub forbid: Vec<Ident>,
}

pub struct Order {
    pub tokens: TokenStream,
    pub first: Ident,
    pub second: Ident,
    pub strict: bool,
}

pub struct EditDecl {
    pub name: Ident,
    pub pointers: Vec<LitStr>,
    pub tokens: TokenStream,
}

impl EditDecl {
    /// The name `edit_policy(name)` takes (`r#type` → `type`).
    pub fn name(&self) -> String {
        let name = self.name.to_string();
        name.strip_prefix("r#").unwrap_or(&name).to_owned()
    }

    /// The policy's associated const: `disable_email` → `DISABLE_EMAIL`.
    pub fn const_name(&self) -> String {
        self.name().to_uppercase()
    }
}

/// A member's explicit JSON name: `#[contract(rename)]` and
/// `#[serde(rename)]` (`check` makes them agree when both are written).
#[derive(Default)]
pub struct Rename {
    pub contract: Option<Located<String>>,
    pub serde: Option<Located<String>>,
}

impl Rename {
    /// The rename that decides the JSON name, if any.
    pub fn explicit(&self) -> Option<&Located<String>> {
        self.contract.as_ref().or(self.serde.as_ref())
    }
}

#[derive(Default)]
pub struct ContainerAttrs {
    pub rename_all: Option<Located<RenameRule>>,
    pub serde_rename_all: Option<Located<RenameRule>>,
    pub max_bytes: Option<Located<u64>>,
    pub max_depth: Option<Located<u64>>,
    /// `version = N`: recorded in the schema as `x-contract-version`.
    pub version: Option<Located<u64>>,
    pub outcome: Option<Ident>,
    pub whens: Vec<When>,
    pub orders: Vec<Order>,
    pub edits: Vec<EditDecl>,
    pub context: Option<syn::Type>,
    /// `check = path::to::function`: the business check.
    pub check_fn: Option<syn::Path>,
    /// `clarify`/`decline` written on a container (always an error).
    pub misplaced: Vec<Ident>,
    /// `tag = "action"`: the member naming a tagged union's variant.
    pub tag: Option<Located<String>>,
    /// `#[serde(tag = "..")]` on the same type.
    pub serde_tag: Option<Located<String>>,
    /// `tools`: the enum is the set of tools a model may call.
    pub tools: Option<Ident>,
    /// `max_calls = N`: at most N calls in one batch.
    pub max_calls: Option<Located<u64>>,
    /// `batch_check = path`: the business check of a whole batch.
    pub batch_check: Option<syn::Path>,
    /// Hidden `__tool_names`: the union's tag names a tool.
    pub tool_names: bool,
    /// Hidden `__owner = "Enum::Tool"`: the name messages give a tool's
    /// hidden arguments struct.
    pub owner: Option<String>,
}

impl ContainerAttrs {
    /// The `rename_all` rule that decides members' JSON names, if any.
    pub fn rename_rule(&self) -> Option<RenameRule> {
        self.rename_all
            .as_ref()
            .or(self.serde_rename_all.as_ref())
            .map(|r| r.value)
    }
}

#[derive(Default)]
pub struct FieldAttrs {
    pub rename: Rename,
    /// `#[serde(default)]` on the field.
    pub serde_default: Option<TokenStream>,
    pub optional: Option<Ident>,
    pub default: Option<Ident>,
    pub min: Option<LocatedLit>,
    pub max: Option<LocatedLit>,
    pub min_len: Option<Located<u64>>,
    pub max_len: Option<Located<u64>>,
    pub equals: Option<LocatedLit>,
    pub one_of: Option<Located<Vec<LocatedLit>>>,
    /// `one_of = ctx.FIELD`: the field of the context whose values the
    /// value must be one of (its tokens are `ctx.FIELD`).
    pub one_of_ctx: Option<Located<Ident>>,
    pub evidence: Option<Ident>,
    pub quarantine: Option<Ident>,
    /// `pattern = ".."`, the literal kept for error spans inside it.
    pub pattern: Option<Located<LitStr>>,
    pub format: Option<Located<StringFormat>>,
}

/// `format = ".."` on a string field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StringFormat {
    Email,
    Uuid,
}

impl StringFormat {
    /// Every format, by the name `format = ".."` takes.
    pub const NAMES: &[(&str, StringFormat)] =
        &[("email", StringFormat::Email), ("uuid", StringFormat::Uuid)];
}

#[derive(Default)]
pub struct VariantAttrs {
    pub rename: Rename,
    pub clarify: Option<Ident>,
    pub decline: Option<Ident>,
    /// A tagged union's variant-level rules, over the variant's members.
    pub whens: Vec<When>,
    pub orders: Vec<Order>,
    /// `max_calls = N` on a tool: at most N calls of it in one batch.
    pub max_calls: Option<Located<u64>>,
}

// Readers both `#[contract]` and `#[serde]` readers use.

fn is(meta: &ParseNestedMeta<'_>, name: &str) -> bool {
    meta.path.is_ident(name)
}

fn string_value(meta: &ParseNestedMeta<'_>) -> syn::Result<Located<String>> {
    let s: LitStr = meta.value()?.parse()?;
    Ok(Located::new(s.value(), s.to_token_stream()).named(meta))
}

/// Skips the value of a `name`, `name = ..` or `name(..)` being ignored.
fn skip_meta_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.input.parse::<Token![=]>()?;
        while !meta.input.is_empty() && !meta.input.peek(Token![,]) {
            meta.input.parse::<proc_macro2::TokenTree>()?;
        }
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
}

/// Parses `= "email"` into a format; an unknown one is reported (`None`).
fn string_format(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
) -> syn::Result<Option<Located<StringFormat>>> {
    let s: LitStr = meta.value()?.parse()?;
    let value = s.value();
    if let Some((_, format)) = StringFormat::NAMES.iter().find(|(n, _)| *n == value) {
        return Ok(Some(Located::new(*format, s.to_token_stream()).named(meta)));
    }
    let names = StringFormat::NAMES.iter().map(|(n, _)| *n);
    let hint = match value.as_str() {
        "date-time" => "for a date-time, make the field `contract_runtime::DateTime`; ".to_owned(),
        "date" => "for a date, make the field `contract_runtime::Date`; ".to_owned(),
        _ => match suggest::closest(&value, names.clone()) {
            Some(close) => format!("did you mean \"{close}\"? "),
            None => String::new(),
        },
    };
    cx.error_spanned_by(
        &s,
        format!(
            "unknown format \"{value}\"; {hint}expected one of: {}",
            names.collect::<Vec<_>>().join(", ")
        ),
    );
    Ok(None)
}

/// Parses `= "snake_case"` into a rule; an unknown rule is reported (`None`).
fn rename_rule(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<Located<RenameRule>>> {
    let s: LitStr = meta.value()?.parse()?;
    let names = case::NAMES.iter().map(|(n, _)| *n);
    match RenameRule::from_str(&s.value()) {
        Some(rule) => Ok(Some(Located::new(rule, s.to_token_stream()).named(meta))),
        None => {
            let hint = match suggest::closest(&s.value(), names.clone()) {
                Some(close) => format!("did you mean \"{close}\"? "),
                None => String::new(),
            };
            cx.error_spanned_by(
                &s,
                format!(
                    "unknown rename rule \"{}\"; {hint}expected one of: {}",
                    s.value(),
                    names.collect::<Vec<_>>().join(", ")
                ),
            );
            Ok(None)
        }
    }
}
