//! Reads `#[contract(..)]` (and the `#[serde(..)]` names it must agree with)
//! into plain values. Parsers report into [`Ctxt`] and return what they could
//! read; cross-attribute consistency is `check.rs`'s job.
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::{Attribute, Ident, LitStr, Token};

use crate::case::{self, RenameRule};
use crate::ctxt::Ctxt;
use crate::suggest;
use crate::symbol::*;

/// A value together with the tokens it came from (for error spans): errors
/// about the value point at `tokens` (through `ToTokens`), errors about the
/// attribute itself (misplaced, contradicting another) at `attr()`.
#[derive(Clone)]
pub struct Spanned<T> {
    pub value: T,
    pub tokens: TokenStream,
    attr: TokenStream,
}

impl<T> Spanned<T> {
    pub fn new(value: T, tokens: TokenStream) -> Self {
        Spanned {
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

impl<T> ToTokens for Spanned<T> {
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

pub type SpannedLit = Spanned<Lit>;

/// The value side of a `when(FIELD = VALUE)` condition.
#[derive(Clone)]
pub enum CondValue {
    /// An enum variant, `Status::Complete` (rustc checks it exists).
    Path(syn::Path),
    /// A literal, for a `String` field with `one_of`.
    Lit(SpannedLit),
}

impl ToTokens for CondValue {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            CondValue::Path(p) => p.to_tokens(tokens),
            CondValue::Lit(l) => l.to_tokens(tokens),
        }
    }
}

impl CondValue {
    /// A key for comparing conditions ("the same condition").
    pub fn key(&self) -> String {
        match self {
            CondValue::Path(p) => p.to_token_stream().to_string(),
            CondValue::Lit(l) => format!("{:?}", l.value),
        }
    }
}

pub struct When {
    pub tokens: TokenStream,
    pub field: Ident,
    pub values: Vec<CondValue>,
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

#[derive(Default)]
pub struct ContainerAttrs {
    pub rename_all: Option<Spanned<RenameRule>>,
    pub serde_rename_all: Option<Spanned<RenameRule>>,
    pub max_bytes: Option<Spanned<u64>>,
    pub max_depth: Option<Spanned<u64>>,
    /// `version = N`: recorded in the schema as `x-contract-version`.
    pub version: Option<Spanned<u64>>,
    pub outcome: Option<Ident>,
    pub whens: Vec<When>,
    pub orders: Vec<Order>,
    pub edits: Vec<EditDecl>,
    pub context: Option<syn::Type>,
    pub check: Option<syn::Path>,
    /// `clarify`/`decline` written on a container (always an error).
    pub misplaced: Vec<Ident>,
}

#[derive(Default)]
pub struct FieldAttrs {
    pub rename: Option<Spanned<String>>,
    pub serde_rename: Option<Spanned<String>>,
    /// `#[serde(default)]` on the field.
    pub serde_default: Option<TokenStream>,
    pub optional: Option<Ident>,
    pub default: Option<Ident>,
    pub min: Option<SpannedLit>,
    pub max: Option<SpannedLit>,
    pub min_len: Option<Spanned<u64>>,
    pub max_len: Option<Spanned<u64>>,
    pub equals: Option<SpannedLit>,
    pub one_of: Option<Spanned<Vec<SpannedLit>>>,
    pub evidence: Option<Ident>,
    pub quarantine: Option<Ident>,
}

#[derive(Default)]
pub struct VariantAttrs {
    pub rename: Option<Spanned<String>>,
    pub serde_rename: Option<Spanned<String>>,
    pub clarify: Option<Ident>,
    pub decline: Option<Ident>,
}

fn set<T>(cx: &Ctxt, slot: &mut Option<T>, value: T, meta: &ParseNestedMeta<'_>, name: &str) {
    if slot.is_some() {
        cx.error_spanned_by(
            &meta.path,
            format!("duplicate contract attribute `{name}`: write it once"),
        );
    } else {
        *slot = Some(value);
    }
}

/// A flag (`optional`, `clarify`, ..): its name alone, without a value.
fn flag(meta: &ParseNestedMeta<'_>) -> syn::Result<Ident> {
    let name = meta
        .path
        .get_ident()
        .cloned()
        .unwrap_or_else(|| Ident::new("attribute", Span::call_site()));
    if !(meta.input.is_empty() || meta.input.peek(Token![,])) {
        return Err(meta.error(format!(
            "`{name}` is a flag and takes no value: write `{name}` alone"
        )));
    }
    Ok(name)
}

// An unknown name is reported and its value skipped, so the attributes after
// it are still read (and their mistakes reported in the same compile).
fn unknown(cx: &Ctxt, meta: &ParseNestedMeta<'_>, known: &[&str]) -> syn::Result<()> {
    let name = meta.path.to_token_stream().to_string().replace(' ', "");
    let hint = match suggest::closest(&name, known.iter().copied()) {
        Some(close) => format!("did you mean `{close}`? "),
        None => String::new(),
    };
    cx.error_spanned_by(
        &meta.path,
        format!(
            "unknown contract attribute `{name}`; {hint}expected one of: {}",
            known.join(", ")
        ),
    );
    skip_meta_value(meta)
}

fn is(meta: &ParseNestedMeta<'_>, name: &str) -> bool {
    meta.path.is_ident(name)
}

/// Parses `= "snake_case"` into a rule; an unknown rule is reported (`None`).
fn rename_rule(cx: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<Spanned<RenameRule>>> {
    let s: LitStr = meta.value()?.parse()?;
    let names = case::NAMES.iter().map(|(n, _)| *n);
    match RenameRule::from_str(&s.value()) {
        Some(rule) => Ok(Some(Spanned::new(rule, s.to_token_stream()).named(meta))),
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

fn string_value(meta: &ParseNestedMeta<'_>) -> syn::Result<Spanned<String>> {
    let s: LitStr = meta.value()?.parse()?;
    Ok(Spanned::new(s.value(), s.to_token_stream()).named(meta))
}

fn uint_value(meta: &ParseNestedMeta<'_>) -> syn::Result<Spanned<u64>> {
    let lit: syn::LitInt = meta.value()?.parse()?;
    let value = lit.base10_parse::<u64>().map_err(|_| {
        syn::Error::new(
            lit.span(),
            format!(
                "`{}` takes a non-negative integer that fits in 64 bits",
                meta.path.to_token_stream()
            ),
        )
    })?;
    Ok(Spanned::new(value, lit.to_token_stream()).named(meta))
}

fn lit_value(meta: &ParseNestedMeta<'_>) -> syn::Result<SpannedLit> {
    Ok(parse_lit(meta.value()?)?.named(meta))
}

/// A literal, with an optional leading `-` for numbers.
pub fn parse_lit(input: ParseStream<'_>) -> syn::Result<SpannedLit> {
    let minus: Option<Token![-]> = input.parse()?;
    let lit: syn::Lit = input.parse()?;
    let mut tokens = minus.to_token_stream();
    lit.to_tokens(&mut tokens);
    let value = match (&lit, minus.is_some()) {
        (syn::Lit::Int(i), neg) => {
            let v = i.base10_parse::<i128>()?;
            Lit::Int(if neg { -v } else { v })
        }
        (syn::Lit::Float(f), neg) => {
            let v = f.base10_parse::<f64>()?;
            if !v.is_finite() {
                return Err(syn::Error::new_spanned(
                    tokens,
                    "this number is beyond the range of `f64`: write a finite number",
                ));
            }
            Lit::Float(if neg { -v } else { v })
        }
        (syn::Lit::Str(s), false) => Lit::Str(s.value()),
        (syn::Lit::Bool(b), false) => Lit::Bool(b.value),
        _ => {
            return Err(syn::Error::new_spanned(
                tokens,
                "expected a number, a string or a boolean literal",
            ));
        }
    };
    Ok(Spanned::new(value, tokens))
}

/// `[lit, ..]`, spanned from the attribute's name to the closing bracket.
fn lit_list(meta: &ParseNestedMeta<'_>) -> syn::Result<Spanned<Vec<SpannedLit>>> {
    let value = meta.value()?;
    let content;
    let bracket = syn::bracketed!(content in value);
    let items = content.parse_terminated(parse_lit, Token![,])?;
    Ok(Spanned::new(
        items.into_iter().collect(),
        bracket_tokens(bracket.span.join()),
    )
    .named(meta))
}

/// An empty group carrying a bracket's span, so an error can point at `[..]`.
fn bracket_tokens(span: Span) -> TokenStream {
    let mut group = proc_macro2::Group::new(proc_macro2::Delimiter::Bracket, TokenStream::new());
    group.set_span(span);
    proc_macro2::TokenTree::Group(group).into()
}

fn ident_list(input: ParseStream<'_>) -> syn::Result<Vec<Ident>> {
    let content;
    syn::parenthesized!(content in input);
    let items = content.parse_terminated(|i: ParseStream<'_>| i.parse::<Ident>(), Token![,])?;
    Ok(items.into_iter().collect())
}

fn cond_value(input: ParseStream<'_>) -> syn::Result<CondValue> {
    if input.peek(syn::Lit) || input.peek(Token![-]) {
        parse_lit(input).map(CondValue::Lit)
    } else {
        input.parse().map(CondValue::Path)
    }
}

/// `when(FIELD = VALUE | FIELD in [V, ..], require(F, ..), forbid(F, ..))`
fn parse_when(meta: &ParseNestedMeta<'_>) -> syn::Result<When> {
    let content;
    syn::parenthesized!(content in meta.input);
    let field: Ident = content.parse()?;
    let values = if content.peek(Token![=]) {
        content.parse::<Token![=]>()?;
        vec![cond_value(&content)?]
    } else if content.peek(Token![in]) {
        content.parse::<Token![in]>()?;
        let list;
        syn::bracketed!(list in content);
        list.parse_terminated(cond_value, Token![,])?
            .into_iter()
            .collect()
    } else {
        return Err(content.error("expected `FIELD = VALUE` or `FIELD in [VALUE, ..]`"));
    };
    let mut require = Vec::new();
    let mut forbid = Vec::new();
    while !content.is_empty() {
        content.parse::<Token![,]>()?;
        if content.is_empty() {
            break;
        }
        let kind: Ident = content.parse()?;
        if kind == REQUIRE {
            require.extend(ident_list(&content)?);
        } else if kind == FORBID {
            forbid.extend(ident_list(&content)?);
        } else {
            return Err(syn::Error::new(
                kind.span(),
                format!("unknown part of `when`: `{kind}`; expected `require(..)` or `forbid(..)`"),
            ));
        }
    }
    Ok(When {
        tokens: when_tokens(meta, &field),
        field,
        values,
        require,
        forbid,
    })
}

fn when_tokens(meta: &ParseNestedMeta<'_>, field: &Ident) -> TokenStream {
    let mut tokens = meta.path.to_token_stream();
    field.to_tokens(&mut tokens);
    tokens
}

/// `order(A <= B)` or `order(A < B)`
fn parse_order(meta: &ParseNestedMeta<'_>) -> syn::Result<Order> {
    let content;
    syn::parenthesized!(content in meta.input);
    let first: Ident = content.parse()?;
    let strict = if content.peek(Token![<=]) {
        content.parse::<Token![<=]>()?;
        false
    } else if content.peek(Token![<]) {
        content.parse::<Token![<]>()?;
        true
    } else {
        return Err(content
            .error("expected `<=` or `<` (write the earlier field first: `order(start <= end)`)"));
    };
    let second: Ident = content.parse()?;
    if !content.is_empty() {
        return Err(content.error("expected `)` after `order(A <= B`"));
    }
    let mut tokens = meta.path.to_token_stream();
    first.to_tokens(&mut tokens);
    second.to_tokens(&mut tokens);
    Ok(Order {
        tokens,
        first,
        second,
        strict,
    })
}

/// `edit(NAME = ["/ptr", ..], ..)`
fn parse_edit(meta: &ParseNestedMeta<'_>, out: &mut Vec<EditDecl>) -> syn::Result<()> {
    meta.parse_nested_meta(|inner| {
        let Some(name) = inner.path.get_ident().cloned() else {
            return Err(inner.error(
                "expected a policy name: `edit(disable_email = [\"/notifications/email\"])`",
            ));
        };
        let value = inner.value()?;
        let list;
        let bracket = syn::bracketed!(list in value);
        let pointers: Vec<LitStr> = list
            .parse_terminated(|i: ParseStream<'_>| i.parse::<LitStr>(), Token![,])?
            .into_iter()
            .collect();
        let mut tokens = name.to_token_stream();
        tokens.extend(bracket_tokens(bracket.span.join()));
        out.push(EditDecl {
            name,
            pointers,
            tokens,
        });
        Ok(())
    })
}

fn contract_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident(CONTRACT))
}

/// Runs `parse` on each `name = value` of each `#[contract(..)]`; a syntax
/// error ends that attribute (there is no telling where its value ends), and
/// is reported.
fn each_meta(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut parse: impl FnMut(&ParseNestedMeta<'_>) -> syn::Result<()>,
) {
    for attr in contract_attrs(attrs) {
        if let Err(e) = attr.parse_nested_meta(|meta| parse(&meta)) {
            cx.syn_error(e);
        }
    }
}

pub fn container(cx: &Ctxt, attrs: &[Attribute]) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    each_meta(cx, attrs, |meta| {
        if is(meta, RENAME_ALL) {
            if let Some(v) = rename_rule(cx, meta)? {
                set(cx, &mut out.rename_all, v, meta, RENAME_ALL);
            }
        } else if is(meta, MAX_BYTES) {
            let v = uint_value(meta)?;
            set(cx, &mut out.max_bytes, v, meta, MAX_BYTES);
        } else if is(meta, MAX_DEPTH) {
            let v = uint_value(meta)?;
            set(cx, &mut out.max_depth, v, meta, MAX_DEPTH);
        } else if is(meta, VERSION) {
            let v = uint_value(meta)?;
            set(cx, &mut out.version, v, meta, VERSION);
        } else if is(meta, OUTCOME) {
            let v: Ident = meta.value()?.parse()?;
            set(cx, &mut out.outcome, v, meta, OUTCOME);
        } else if is(meta, WHEN) {
            out.whens.push(parse_when(meta)?);
        } else if is(meta, ORDER) {
            out.orders.push(parse_order(meta)?);
        } else if is(meta, EDIT) {
            parse_edit(meta, &mut out.edits)?;
        } else if is(meta, CONTEXT) {
            let v: syn::Type = meta.value()?.parse()?;
            set(cx, &mut out.context, v, meta, CONTEXT);
        } else if is(meta, CHECK) {
            let v: syn::Path = meta.value()?.parse()?;
            set(cx, &mut out.check, v, meta, CHECK);
        } else if is(meta, CLARIFY) || is(meta, DECLINE) {
            out.misplaced.push(flag(meta)?);
        } else {
            unknown(cx, meta, CONTAINER)?;
        }
        Ok(())
    });
    let serde = serde_attrs(cx, attrs, SerdeScope::Container);
    out.serde_rename_all = serde.rename_all;
    out
}

pub fn field(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    each_meta(cx, attrs, |meta| {
        if is(meta, RENAME) {
            let v = string_value(meta)?;
            set(cx, &mut out.rename, v, meta, RENAME);
        } else if is(meta, OPTIONAL) {
            set(cx, &mut out.optional, flag(meta)?, meta, OPTIONAL);
        } else if is(meta, DEFAULT) {
            set(cx, &mut out.default, flag(meta)?, meta, DEFAULT);
        } else if is(meta, MIN) {
            let v = lit_value(meta)?;
            set(cx, &mut out.min, v, meta, MIN);
        } else if is(meta, MAX) {
            let v = lit_value(meta)?;
            set(cx, &mut out.max, v, meta, MAX);
        } else if is(meta, MIN_LEN) {
            let v = uint_value(meta)?;
            set(cx, &mut out.min_len, v, meta, MIN_LEN);
        } else if is(meta, MAX_LEN) {
            let v = uint_value(meta)?;
            set(cx, &mut out.max_len, v, meta, MAX_LEN);
        } else if is(meta, EQUALS) {
            let v = lit_value(meta)?;
            set(cx, &mut out.equals, v, meta, EQUALS);
        } else if is(meta, ONE_OF) {
            let v = lit_list(meta)?;
            set(cx, &mut out.one_of, v, meta, ONE_OF);
        } else if is(meta, EVIDENCE) {
            set(cx, &mut out.evidence, flag(meta)?, meta, EVIDENCE);
        } else if is(meta, QUARANTINE) {
            set(cx, &mut out.quarantine, flag(meta)?, meta, QUARANTINE);
        } else {
            unknown(cx, meta, FIELD)?;
        }
        Ok(())
    });
    let serde = serde_attrs(cx, attrs, SerdeScope::Field);
    out.serde_rename = serde.rename;
    out.serde_default = serde.default;
    out
}

pub fn variant(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let mut out = VariantAttrs::default();
    each_meta(cx, attrs, |meta| {
        if is(meta, RENAME) {
            let v = string_value(meta)?;
            set(cx, &mut out.rename, v, meta, RENAME);
        } else if is(meta, CLARIFY) {
            set(cx, &mut out.clarify, flag(meta)?, meta, CLARIFY);
        } else if is(meta, DECLINE) {
            set(cx, &mut out.decline, flag(meta)?, meta, DECLINE);
        } else {
            unknown(cx, meta, VARIANT)?;
        }
        Ok(())
    });
    out.serde_rename = serde_attrs(cx, attrs, SerdeScope::Variant).rename;
    out
}

#[derive(Clone, Copy, PartialEq)]
enum SerdeScope {
    Container,
    Field,
    Variant,
}

/// What the contract reads from `#[serde(..)]`.
#[derive(Default)]
struct SerdeAttrs {
    rename: Option<Spanned<String>>,
    rename_all: Option<Spanned<RenameRule>>,
    default: Option<TokenStream>,
}

// The contract reads serde's names (`rename`, `rename_all`) and a field's
// `default` (checked against `optional` in check.rs). Serde attributes that
// change nothing on the wire are skipped (`deny_unknown_fields`, `crate`,
// `bound`, `expecting`, a container's `rename`); any other would make serde's
// JSON differ from what the contract accepts, and is an error.
fn serde_attrs(cx: &Ctxt, attrs: &[Attribute], scope: SerdeScope) -> SerdeAttrs {
    let mut out = SerdeAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident(SERDE)) {
        let result = attr.parse_nested_meta(|meta| {
            let assigns = meta.input.peek(Token![=]);
            let bare = meta.input.is_empty() || meta.input.peek(Token![,]);
            if is(&meta, RENAME) && assigns && scope == SerdeScope::Container {
                skip_meta_value(&meta)?; // the type's name, not in its JSON
            } else if is(&meta, RENAME) && assigns {
                out.rename = Some(string_value(&meta)?);
            } else if is(&meta, RENAME_ALL) && assigns && scope == SerdeScope::Container {
                out.rename_all = rename_rule(cx, &meta)?;
            } else if is(&meta, DEFAULT) && bare && scope == SerdeScope::Field {
                out.default = Some(meta.path.to_token_stream());
            } else if ["deny_unknown_fields", "crate", "bound", "expecting"]
                .iter()
                .any(|n| is(&meta, n))
            {
                skip_meta_value(&meta)?;
            } else {
                let name = meta.path.to_token_stream().to_string();
                let instead = if is(&meta, DEFAULT) && scope == SerdeScope::Field {
                    "the contract fills an absent key with `Default::default()`: write `#[serde(default)]` with `#[contract(optional, default)]`"
                } else if is(&meta, DEFAULT) {
                    "mark each field that may be absent with `#[contract(optional)]` (and `#[serde(default)]` on it)"
                } else {
                    "remove it (the contract reads `rename`, `rename_all` and a field's `default` from serde)"
                };
                cx.error_spanned_by(
                    &meta.path,
                    format!(
                        "the contract cannot honour `#[serde({name})]` here: serde's JSON would differ from what the contract accepts; {instead}"
                    ),
                );
                skip_meta_value(&meta)?;
            }
            Ok(())
        });
        if let Err(e) = result {
            cx.syn_error(e);
        }
    }
    out
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

/// The doc comment as a schema `description`.
pub fn doc(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
        {
            let line = s.value();
            lines.push(
                line.strip_prefix(' ')
                    .unwrap_or(&line)
                    .trim_end()
                    .to_owned(),
            );
        }
    }
    // Lines of one paragraph are joined with a space (they were wrapped for
    // the source, not for the model); paragraphs stay apart.
    let mut text = String::new();
    let mut blank = false;
    for line in lines.iter().map(|l| l.trim()) {
        if line.is_empty() {
            blank = !text.is_empty();
        } else {
            if blank {
                text.push_str("\n\n");
            } else if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(line);
            blank = false;
        }
    }
    (!text.is_empty()).then_some(text)
}
