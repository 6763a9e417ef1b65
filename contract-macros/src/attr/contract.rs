//! The `#[contract(..)]` grammar: container, field and variant attributes,
//! and the `when` / `order` / `edit` forms.
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::{Attribute, Ident, LitStr, Token};

use super::serde::{SerdeScope, serde_attrs};
use super::{
    CondExpr, ContainerAttrs, EditDecl, FieldAttrs, Lit, Located, LocatedLit, Order, VariantAttrs,
    When, is, rename_rule, skip_meta_value, string_format, string_value,
};
use crate::ctxt::Ctxt;
use crate::suggest;
use crate::symbol::*;

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

fn uint_value(meta: &ParseNestedMeta<'_>) -> syn::Result<Located<u64>> {
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
    Ok(Located::new(value, lit.to_token_stream()).named(meta))
}

fn lit_value(meta: &ParseNestedMeta<'_>) -> syn::Result<LocatedLit> {
    Ok(parse_lit(meta.value()?)?.named(meta))
}

/// A literal, with an optional leading `-` for numbers.
pub fn parse_lit(input: ParseStream<'_>) -> syn::Result<LocatedLit> {
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
    Ok(Located::new(value, tokens))
}

/// `[lit, ..]`, spanned from the attribute's name to the closing bracket.
fn lit_list(meta: &ParseNestedMeta<'_>) -> syn::Result<Located<Vec<LocatedLit>>> {
    let value = meta.value()?;
    let content;
    let bracket = syn::bracketed!(content in value);
    let items = content.parse_terminated(parse_lit, Token![,])?;
    Ok(Located::new(
        items.into_iter().collect(),
        bracket_tokens(bracket.span.join()),
    )
    .named(meta))
}

/// `= ctx.FIELD` (the values of a field of the trusted context), or `None`
/// when the value is not of that form (a `[..]` list is read instead).
fn context_field(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<Located<Ident>>> {
    if !(meta.input.peek(Token![=]) && meta.input.peek2(Ident)) {
        return Ok(None);
    }
    let value = meta.value()?;
    let ctx: Ident = value.parse()?;
    if ctx != "ctx" {
        return Err(syn::Error::new(
            ctx.span(),
            "expected `one_of = [..]` or `one_of = ctx.FIELD` (a field of the contract's context)",
        ));
    }
    let dot: Token![.] = value.parse()?;
    let field: Ident = value.parse()?;
    let mut tokens = ctx.to_token_stream();
    dot.to_tokens(&mut tokens);
    field.to_tokens(&mut tokens);
    Ok(Some(Located::new(field, tokens).named(meta)))
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

fn cond_expr(input: ParseStream<'_>) -> syn::Result<CondExpr> {
    if input.peek(syn::Lit) || input.peek(Token![-]) {
        parse_lit(input).map(CondExpr::Lit)
    } else {
        input.parse().map(CondExpr::Path)
    }
}

/// `when(FIELD = VALUE | FIELD in [V, ..], require(F, ..), forbid(F, ..))`
fn parse_when(meta: &ParseNestedMeta<'_>) -> syn::Result<When> {
    let content;
    syn::parenthesized!(content in meta.input);
    let field: Ident = content.parse()?;
    let values = if content.peek(Token![=]) {
        content.parse::<Token![=]>()?;
        vec![cond_expr(&content)?]
    } else if content.peek(Token![in]) {
        content.parse::<Token![in]>()?;
        let list;
        syn::bracketed!(list in content);
        list.parse_terminated(cond_expr, Token![,])?
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

pub fn of_container(cx: &Ctxt, attrs: &[Attribute]) -> ContainerAttrs {
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
            set(cx, &mut out.check_fn, v, meta, CHECK);
        } else if is(meta, TAG) {
            let v = string_value(meta)?;
            set(cx, &mut out.tag, v, meta, TAG);
        } else if is(meta, TOOLS) {
            set(cx, &mut out.tools, flag(meta)?, meta, TOOLS);
        } else if is(meta, MAX_CALLS) {
            let v = uint_value(meta)?;
            set(cx, &mut out.max_calls, v, meta, MAX_CALLS);
        } else if is(meta, BATCH_CHECK) {
            let v: syn::Path = meta.value()?.parse()?;
            set(cx, &mut out.batch_check, v, meta, BATCH_CHECK);
        } else if is(meta, OWNER) {
            out.owner = Some(string_value(meta)?.value);
        } else if is(meta, TOOL_NAMES) {
            flag(meta)?;
            out.tool_names = true;
        } else if is(meta, CLARIFY) || is(meta, DECLINE) {
            out.misplaced.push(flag(meta)?);
        } else {
            unknown(cx, meta, CONTAINER)?;
        }
        Ok(())
    });
    let serde = serde_attrs(cx, attrs, SerdeScope::Container);
    out.serde_rename_all = serde.rename_all;
    out.serde_tag = serde.tag;
    out
}

pub fn of_field(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    each_meta(cx, attrs, |meta| {
        if is(meta, RENAME) {
            let v = string_value(meta)?;
            set(cx, &mut out.rename.contract, v, meta, RENAME);
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
            if let Some(v) = context_field(meta)? {
                set(cx, &mut out.one_of_ctx, v, meta, ONE_OF);
            } else {
                let v = lit_list(meta)?;
                set(cx, &mut out.one_of, v, meta, ONE_OF);
            }
        } else if is(meta, EVIDENCE) {
            set(cx, &mut out.evidence, flag(meta)?, meta, EVIDENCE);
        } else if is(meta, QUARANTINE) {
            set(cx, &mut out.quarantine, flag(meta)?, meta, QUARANTINE);
        } else if is(meta, PATTERN) {
            let lit: LitStr = meta.value()?.parse()?;
            let v = Located::new(lit.clone(), lit.to_token_stream()).named(meta);
            set(cx, &mut out.pattern, v, meta, PATTERN);
        } else if is(meta, FORMAT) {
            if let Some(v) = string_format(cx, meta)? {
                set(cx, &mut out.format, v, meta, FORMAT);
            }
        } else {
            unknown(cx, meta, FIELD)?;
        }
        Ok(())
    });
    let serde = serde_attrs(cx, attrs, SerdeScope::Field);
    out.rename.serde = serde.rename;
    out.serde_default = serde.default;
    out
}

pub fn of_variant(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let mut out = VariantAttrs::default();
    each_meta(cx, attrs, |meta| {
        if is(meta, RENAME) {
            let v = string_value(meta)?;
            set(cx, &mut out.rename.contract, v, meta, RENAME);
        } else if is(meta, CLARIFY) {
            set(cx, &mut out.clarify, flag(meta)?, meta, CLARIFY);
        } else if is(meta, DECLINE) {
            set(cx, &mut out.decline, flag(meta)?, meta, DECLINE);
        } else if is(meta, WHEN) {
            out.whens.push(parse_when(meta)?);
        } else if is(meta, ORDER) {
            out.orders.push(parse_order(meta)?);
        } else if is(meta, MAX_CALLS) {
            let v = uint_value(meta)?;
            set(cx, &mut out.max_calls, v, meta, MAX_CALLS);
        } else {
            unknown(cx, meta, VARIANT)?;
        }
        Ok(())
    });
    out.rename.serde = serde_attrs(cx, attrs, SerdeScope::Variant).rename;
    out
}
