//! A tools enum (`#[contract(tools)]`): each variant is a tool, its
//! members the arguments. The members' own attributes and the tools'
//! `when`/`order` rules are checked by the derive of each tool's hidden
//! arguments struct; this checks what only a set of tools has.
use quote::ToTokens;

use super::{Named, check_json_names, check_limits, check_outcome_flags, member};
use crate::checked::{self, Members, UnionVariant};
use crate::ctxt::Ctxt;
use crate::model::{Container, Variant, VariantFields};

/// Whether the container says `tools`.
pub fn is_tools(cont: &Container<'_>) -> bool {
    cont.attrs.tools.is_some()
}

/// Checks a tools enum; its checked model (complete only without errors).
pub fn check_tools<'c>(
    cx: &Ctxt,
    cont: &'c Container<'c>,
    variants: &'c [Variant<'c>],
) -> checked::Tools<'c> {
    let a = &cont.attrs;
    // `tools` is the JSON form `{"name", "arguments"}`: no tag of its own.
    if let Some(tag) = a.tag.as_ref().or(a.serde_tag.as_ref()) {
        cx.error_spanned_by(tag.attr(), "a tools enum's JSON form is a call, `{\"name\": .., \"arguments\": {..}}`: the tool's name is the tag; remove `tag`");
    }
    // What a struct or union says about its members goes on a tool.
    for w in &a.whens {
        cx.error_spanned_by(
            &w.tokens,
            "`when` on a tools enum: declare it on the tool (the variant) whose arguments it reads",
        );
    }
    for o in &a.orders {
        cx.error_spanned_by(&o.tokens, "`order` on a tools enum: declare it on the tool (the variant) whose arguments it reads");
    }
    if let Some(outcome) = &a.outcome {
        cx.error_spanned_by(outcome, "`outcome` on a tools enum: a tool's own `clarify` or `decline` decides a call's outcome; remove it");
    }
    for e in &a.edits {
        cx.error_spanned_by(
            &e.tokens,
            "`edit` on a tools enum: a call is not edited; declare edit policies on a struct",
        );
    }
    if let Some(v) = &a.version {
        cx.error_spanned_by(
            v.attr(),
            "`version` on a tools enum: version the struct that holds the calls; remove it",
        );
    }
    if let Some(param) = cont.generics.params.first() {
        cx.error_spanned_by(param, "a tools enum cannot be generic: each tool's arguments are a schema sent to the provider as is; use concrete types");
    }
    if variants.is_empty() {
        cx.error_spanned_by(cont.ident, "a tools enum needs at least one tool (variant)");
    }
    check_limits(cx, cont);
    check_json_names(cx, variants.iter().map(Named::from));
    check_outcome_flags(cx, variants);
    let max_calls = check_max_calls(cx, cont, variants);
    // `batch_check` runs against the trusted context only.
    if let (Some(path), None) = (&a.batch_check, &a.context) {
        cx.error_spanned_by(path, "`batch_check` runs against the trusted context: declare `context = Type` on the enum too");
    }
    if let (Some(path), None) = (&a.check_fn, &a.context) {
        cx.error_spanned_by(
            path,
            "`check` runs against the trusted context: declare `context = Type` on the enum too",
        );
    }
    let tools = variants.iter().map(|v| check_tool(cx, v)).collect();
    checked::Tools {
        tools,
        max_calls,
        max_bytes: a.max_bytes.as_ref().map(|l| l.value),
        max_depth: a.max_depth.as_ref().map(|l| l.value),
        context: a.context.as_ref(),
        check_fn: a.check_fn.as_ref(),
        batch_check: a.batch_check.as_ref(),
    }
}

// `max_calls` is at least 1, and a tool's at most the enum's.
fn check_max_calls(cx: &Ctxt, cont: &Container<'_>, variants: &[Variant<'_>]) -> Option<u64> {
    let enum_max = cont.attrs.max_calls.as_ref();
    if let Some(m) = enum_max.filter(|m| m.value == 0) {
        cx.error_spanned_by(
            m.attr(),
            "`max_calls = 0` allows no call at all: write at least 1, or remove it",
        );
    }
    for v in variants {
        let Some(m) = &v.attrs.max_calls else {
            continue;
        };
        if m.value == 0 {
            cx.error_spanned_by(
                m.attr(),
                format!(
                    "`max_calls = 0` on `{}` allows no call of it: remove the tool instead",
                    v.ident
                ),
            );
        } else if let Some(e) = enum_max.filter(|e| m.value > e.value && e.value > 0) {
            cx.error_spanned_by(m.attr(), format!(
                "`max_calls = {}` on `{}` is above the enum's `max_calls = {}`, which a batch never passes: lower it, or raise the enum's",
                m.value, v.ident, e.value
            ));
        }
    }
    enum_max.map(|m| m.value)
}

// A tool's name is what every provider takes; it holds named arguments,
// one contract struct, or nothing.
fn check_tool<'c>(cx: &Ctxt, v: &'c Variant<'c>) -> checked::Tool<'c> {
    let name = &v.json_name;
    let valid = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !valid {
        let at = v
            .attrs
            .rename
            .explicit()
            .map_or_else(|| v.ident.to_token_stream(), |r| r.attr().clone());
        cx.error_spanned_by(at, format!(
            "the tool name `{name}` is outside `^[a-zA-Z0-9_-]{{1,64}}$`, the names every provider accepts: rename the tool (`#[contract(rename = \"..\")]`)"
        ));
    }
    let members = match &v.fields {
        VariantFields::Unit => Members::Unit,
        VariantFields::Newtype(ty) => Members::Newtype(ty),
        VariantFields::Tuple(fields) => {
            cx.error_spanned_by(fields, format!(
                "a tool holds named arguments or one contract struct: write `{} {{ name: Type, .. }}` or `{}(SomeStruct)`",
                v.ident, v.ident
            ));
            Members::Unit
        }
        VariantFields::Struct(fields) => {
            Members::Struct(fields.iter().map(member::checked).collect())
        }
    };
    if matches!(members, Members::Newtype(_)) {
        for w in &v.attrs.whens {
            cx.error_spanned_by(
                &w.tokens,
                "a newtype tool's arguments are its struct's: declare `when` on that struct",
            );
        }
        for o in &v.attrs.orders {
            cx.error_spanned_by(
                &o.tokens,
                "a newtype tool's arguments are its struct's: declare `order` on that struct",
            );
        }
    }
    checked::Tool {
        union: UnionVariant {
            variant: v,
            members,
            whens: Vec::new(),
            orders: Vec::new(),
        },
        max_calls: v.attrs.max_calls.as_ref().map(|m| m.value),
    }
}

/// `tools`, `max_calls` and `batch_check` on anything but a tools enum.
pub fn check_not_tools(cx: &Ctxt, cont: &Container<'_>) {
    let a = &cont.attrs;
    if let Some(t) = &a.tools {
        cx.error_spanned_by(t, "`tools` goes on an enum whose variants are the tools a model may call, not on a struct: make it an enum, or remove `tools`");
    }
    if let Some(m) = &a.max_calls {
        cx.error_spanned_by(m.attr(), "`max_calls` bounds a batch of tool calls: it goes on a `#[contract(tools)]` enum or its variants");
    }
    if let Some(b) = &a.batch_check {
        cx.error_spanned_by(
            b,
            "`batch_check` checks a batch of tool calls: it goes on a `#[contract(tools)]` enum",
        );
    }
    if let crate::model::Body::Enum(variants) = &cont.data {
        for v in variants {
            if let Some(m) = &v.attrs.max_calls {
                cx.error_spanned_by(m.attr(), "`max_calls` on a variant bounds the calls of a tool: it needs `#[contract(tools)]` on the enum");
            }
        }
    }
}
