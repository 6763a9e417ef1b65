//! Cross-attribute consistency: every rule the DSL promises to enforce at
//! compile time. Each check reports into the context and carries on, so one
//! compile shows every mistake; the checks that resolve a name return what
//! it resolved to, and together they make the checked model.
//!
//! `field` checks each field's attributes against its type, `rules` the
//! container's `when`/`order`/`outcome`/`check`, `edit` the edit policies.
use std::collections::BTreeMap;

use crate::attr::Rename;
use crate::checked;
use crate::ctxt::Ctxt;
use crate::model::{Body, Container, Member, Variant};

mod edit;
mod field;
mod member;
mod rules;
mod strings;
mod tools;
mod union;

pub use tools::{check_tools, is_tools};

use edit::check_edit;
use field::check_field;
use rules::{Scope, check_context, check_order, check_outcome, check_when};

/// Checks the raw model and returns the checked model. Only errors in `cx`
/// make the result incomplete, and then nothing generates from it.
pub fn contract<'c>(cx: &Ctxt, cont: &'c Container<'c>) -> checked::Contract<'c> {
    tools::check_not_tools(cx, cont);
    check_serde_agreement(cx, cont);
    let body = match &cont.data {
        Body::Struct(members) => {
            check_misplaced_outcome_flags(cx, cont);
            if let Some(tag) = &cont.attrs.tag {
                cx.error_spanned_by(tag.attr(), "`tag` names the member that picks a variant of a tagged union: it goes on an enum with data, not on a struct; remove it");
            }
            check_limits(cx, cont);
            check_version(cx, cont);
            check_json_names(cx, members.iter().map(Named::from));
            let checked_members = check_members(cx, cont, members);
            let a = &cont.attrs;
            let scope = Scope {
                owner: cont
                    .attrs
                    .owner
                    .clone()
                    .unwrap_or_else(|| cont.ident.to_string()),
                members,
                checked: &checked_members,
            };
            let whens = check_when(cx, &scope, &a.whens);
            let orders = check_order(cx, &scope, &a.orders);
            let outcome = check_outcome(cx, cont, &scope);
            check_context(cx, cont);
            let policies = check_edit(cx, cont, &checked_members);
            check_generic_edit(cx, cont);
            checked::Body::Struct(checked::Struct {
                members: checked_members,
                max_bytes: a.max_bytes.as_ref().map(|l| l.value),
                max_depth: a.max_depth.as_ref().map(|l| l.value),
                version: a.version.as_ref().map(|l| l.value),
                whens,
                orders,
                outcome,
                context: a.context.as_ref(),
                check_fn: a.check_fn.as_ref(),
                policies,
            })
        }
        Body::Enum(variants) if union::is_union(cont, variants) => {
            checked::Body::Union(union::check_union(cx, cont, variants))
        }
        Body::Enum(variants) => {
            check_enum_attrs(cx, cont, false);
            if variants.is_empty() {
                cx.error_spanned_by(cont.ident, "a contract enum needs at least one variant");
            }
            check_json_names(cx, variants.iter().map(Named::from));
            check_outcome_flags(cx, variants);
            check_unit_enum_generics(cx, cont);
            checked::Body::Enum(variants)
        }
    };
    let context = match &body {
        checked::Body::Struct(s) => s.context,
        checked::Body::Union(u) => u.context,
        checked::Body::Enum(_) => None,
    };
    checked::Contract {
        ident: cont.ident,
        generics: bounded(cont.generics, context),
        lifetime: cont.lifetime,
        doc: cont.doc.as_deref(),
        body,
    }
}

// Each member's attributes against its type, and the member as the checked
// model holds it.
fn check_members<'c>(
    cx: &Ctxt,
    cont: &Container<'_>,
    members: &'c [Member<'c>],
) -> Vec<checked::Member<'c>> {
    members
        .iter()
        .map(|m| {
            check_field(cx, cont.attrs.context.is_some(), m);
            member::checked(m)
        })
        .collect()
}

// A type parameter is a contract (as serde bounds its parameters by
// `Deserialize`), and with a context its values run their business checks
// with it; the user's own bounds and `where` clause are kept.
fn bounded(generics: &syn::Generics, context: Option<&syn::Type>) -> syn::Generics {
    let mut generics = generics.clone();
    let params: Vec<syn::Ident> = generics.type_params().map(|t| t.ident.clone()).collect();
    if !params.is_empty() {
        let clause = generics.make_where_clause();
        for t in params {
            clause
                .predicates
                .push(syn::parse_quote!(#t: ::contract_runtime::__private::Contract));
            if let Some(context) = context {
                clause.predicates.push(syn::parse_quote!(
                    #t: ::contract_runtime::__private::Business<#context>
                ));
            }
        }
    }
    generics
}

// An enum of unit variants is a JSON string: no member for a type
// parameter to type.
fn check_unit_enum_generics(cx: &Ctxt, cont: &Container<'_>) {
    if let Some(l) = cont.lifetime {
        cx.error_spanned_by(
            l,
            format!(
                "`{}` has only unit variants (a JSON string it matches, not keeps), so nothing could borrow from the text: remove the lifetime",
                cont.ident
            ),
        );
    }
    for t in cont.generics.type_params() {
        cx.error_spanned_by(
            t,
            format!(
                "`{}` has only unit variants (a JSON string), so no member could have the type `{}`: remove the type parameter, or give a variant members and the enum a `tag` (a tagged union can be generic)",
                cont.ident, t.ident
            ),
        );
    }
}

// Edit pointers are checked against the field types' shapes by a `const`
// item, which cannot name a type parameter: a generic contract declares no
// edit policy (a concrete struct holding the instantiation can).
fn check_generic_edit(cx: &Ctxt, cont: &Container<'_>) {
    if cont.lifetime.is_some() {
        // An edit's candidate is checked against a baseline `Value`, by
        // the `'static` form: a borrowed contract declares no policy.
        for e in &cont.attrs.edits {
            cx.error_spanned_by(
                &e.tokens,
                format!(
                    "a contract with a lifetime cannot declare edit policies: declare `edit({} = [..])` on its owned twin (`String` fields)",
                    e.name
                ),
            );
        }
        return;
    }
    if cont.generics.type_params().next().is_none() {
        return;
    }
    for e in &cont.attrs.edits {
        cx.error_spanned_by(
            &e.tokens,
            format!(
                "a generic contract cannot declare edit policies: declare `edit({} = [..])` on a struct that holds a concrete `{}<..>`",
                e.name, cont.ident
            ),
        );
    }
}

// A variant cannot both ask for clarification and decline.
pub(super) fn check_outcome_flags(cx: &Ctxt, variants: &[Variant<'_>]) {
    for v in variants {
        if let (Some(_), Some(decline)) = (&v.attrs.clarify, &v.attrs.decline) {
            cx.error_spanned_by(
                decline,
                "a variant is `clarify` or `decline`, not both: remove one",
            );
        }
    }
}

// `#[serde(rename/rename_all)]` beside `#[contract(..)]` must name the same
// JSON, or serde and the contract would disagree on the wire format.
fn check_serde_agreement(cx: &Ctxt, cont: &Container<'_>) {
    if let (Some(ours), Some(theirs)) = (&cont.attrs.rename_all, &cont.attrs.serde_rename_all)
        && ours.value != theirs.value
    {
        cx.error_spanned_by(ours.attr(), "`rename_all` disagrees with `#[serde(rename_all)]` on this type: make them the same, or drop one (the contract reads serde's)");
    }
    check_member_serde(cx, cont.members());
    if let Body::Enum(variants) = &cont.data {
        check_renames(cx, variants.iter().map(|v| &v.attrs.rename));
    }
}

// A member's serde `rename` and `default` agree with the contract.
pub(super) fn check_member_serde(cx: &Ctxt, members: &[Member<'_>]) {
    for f in members {
        if let Some(default) = &f.attrs.serde_default
            && f.attrs.optional.is_none()
        {
            cx.error_spanned_by(default, format!(
                "`#[serde(default)]` lets the key `{}` be absent, and the contract requires it: add `#[contract(optional{})]`, or remove the serde attribute",
                f.json_name,
                if f.kind.is_option() { "" } else { ", default" }
            ));
        }
    }
    check_renames(cx, members.iter().map(|m| &m.attrs.rename));
}

fn check_renames<'a>(cx: &Ctxt, renames: impl Iterator<Item = &'a Rename>) {
    for rename in renames {
        if let (Some(ours), Some(theirs)) = (&rename.contract, &rename.serde)
            && ours.value != theirs.value
        {
            cx.error_spanned_by(ours.attr(), format!(
                    "`rename = \"{}\"` disagrees with `#[serde(rename = \"{}\")]`: make them the same, or drop one (the contract reads serde's)",
                    ours.value, theirs.value
                ));
        }
    }
}

/// A struct member or enum variant, by its names.
pub(super) struct Named<'a> {
    ident: &'a syn::Ident,
    json_name: &'a str,
    rename: &'a Rename,
}

impl<'a> From<&'a Member<'a>> for Named<'a> {
    fn from(m: &'a Member<'a>) -> Self {
        Named {
            ident: m.ident,
            json_name: &m.json_name,
            rename: &m.attrs.rename,
        }
    }
}

impl<'a> From<&'a Variant<'a>> for Named<'a> {
    fn from(v: &'a Variant<'a>) -> Self {
        Named {
            ident: v.ident,
            json_name: &v.json_name,
            rename: &v.attrs.rename,
        }
    }
}

// Two members with one JSON name would make one of them unreachable. The
// error points at the `rename` that made the clash, if either has one.
pub(super) fn check_json_names<'a>(cx: &Ctxt, members: impl Iterator<Item = Named<'a>>) {
    let mut seen: BTreeMap<&str, Named<'a>> = BTreeMap::new();
    for m in members {
        let Some(first) = seen.get(m.json_name) else {
            seen.insert(m.json_name, m);
            continue;
        };
        let message = format!(
            "`{}` and `{}` both have the JSON name `{}`: give one a different `rename`",
            first.ident, m.ident, m.json_name
        );
        match (m.rename.explicit(), first.rename.explicit()) {
            (Some(r), _) | (None, Some(r)) => cx.error_spanned_by(r.attr(), message),
            (None, None) => cx.error_spanned_by(m.ident, message),
        }
    }
}

// `max_bytes`/`max_depth` of 0 would reject every document; a huge
// `max_depth` would let a document exhaust the stack.
pub(super) fn check_limits(cx: &Ctxt, cont: &Container<'_>) {
    for limit in [&cont.attrs.max_bytes, &cont.attrs.max_depth]
        .into_iter()
        .flatten()
    {
        if limit.value == 0 {
            cx.error_spanned_by(
                limit.attr(),
                "a limit of 0 rejects every document: write at least 1, or remove it for the default",
            );
        }
    }
    // Decoders of recursive contracts, and dropping a parsed value, recurse
    // once per nesting level: a depth beyond this risks the thread's stack.
    if let Some(depth) = &cont.attrs.max_depth
        && depth.value > MAX_DEPTH_LIMIT
    {
        cx.error_spanned_by(
            depth.attr(),
            format!(
                "`max_depth` above {MAX_DEPTH_LIMIT} risks overflowing the stack (decoding recurses per level): write at most {MAX_DEPTH_LIMIT}"
            ),
        );
    }
}

/// The deepest `max_depth` a contract may declare.
const MAX_DEPTH_LIMIT: u64 = 1024;

// `version = N` names the contract's version in schemas and idempotency
// keys: a positive number that fits `u32`.
fn check_version(cx: &Ctxt, cont: &Container<'_>) {
    if let Some(v) = &cont.attrs.version
        && (v.value == 0 || v.value > u64::from(u32::MAX))
    {
        cx.error_spanned_by(
            v.attr(),
            "`version` is a number from 1 to 4294967295: versions count up from 1",
        );
    }
}

// `clarify`/`decline` mark enum variants; on a struct they mean nothing.
fn check_misplaced_outcome_flags(cx: &Ctxt, cont: &Container<'_>) {
    for flag in &cont.attrs.misplaced {
        cx.error_spanned_by(flag, format!(
            "`{flag}` marks a variant of a contract enum, not a struct: put it on the variant (`#[contract({flag})] NeedsClarification`) and name the enum field with `outcome = FIELD`"
        ));
    }
}

// Rules, edits and context belong to structs. A tagged union's rules go on
// its variants; it takes document limits (it can be the decoded root) and
// a context with its `check`.
pub(super) fn check_enum_attrs(cx: &Ctxt, cont: &Container<'_>, union: bool) {
    let a = &cont.attrs;
    let (when, order) = if union {
        (
            "`when` on a tagged union goes on the variant whose members it names: `#[contract(when(..))] Variant { .. }`",
            "`order` on a tagged union goes on the variant whose members it names: `#[contract(order(a <= b))] Variant { .. }`",
        )
    } else {
        (
            "`when` applies to contract structs, not enums: move it to the struct that holds this enum",
            "`order` applies to contract structs, not enums: move it to the struct that holds this enum",
        )
    };
    for w in &a.whens {
        cx.error_spanned_by(&w.tokens, when);
    }
    for o in &a.orders {
        cx.error_spanned_by(&o.tokens, order);
    }
    for e in &a.edits {
        cx.error_spanned_by(&e.tokens, "`edit` applies to contract structs, not enums: move it to the struct that holds this enum");
    }
    if let Some(o) = &a.outcome {
        cx.error_spanned_by(o, "`outcome` applies to contract structs: on the enum, mark variants with `clarify` / `decline`");
    }
    if let Some(v) = &a.version {
        cx.error_spanned_by(
            v.attr(),
            "`version` applies to contract structs: put it on the struct whose schema you send",
        );
    }
    // A union runs its `check` and its members' `evidence` as a struct does.
    if !union {
        let struct_only = |name: &str| {
            format!(
                "`{name}` applies to contract structs and tagged unions, not to an enum of names: move it to the struct that holds this enum"
            )
        };
        if let Some(c) = &a.context {
            cx.error_spanned_by(c, struct_only("context"));
        }
        if let Some(c) = &a.check_fn {
            cx.error_spanned_by(c, struct_only("check"));
        }
    }
    for flag in &a.misplaced {
        cx.error_spanned_by(
            flag,
            format!("`{flag}` goes on a variant, not on the enum: `#[contract({flag})] Variant`"),
        );
    }
    if union {
        return;
    }
    for limit in [&a.max_bytes, &a.max_depth].into_iter().flatten() {
        cx.error_spanned_by(limit.attr(), "document limits apply to the contract struct that is decoded, not to an enum: move this to the struct");
    }
}
