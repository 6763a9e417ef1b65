//! Tagged unions: an enum with data and `tag = ".."`. Each variant's members
//! are checked as a struct's members are, and its `when`/`order` rules
//! against those members.
use quote::ToTokens;

use super::field::check_field;
use super::member;
use super::rules::{Scope, check_context, check_order, check_when};
use super::{
    Named, check_enum_attrs, check_json_names, check_limits, check_member_serde,
    check_outcome_flags,
};
use crate::checked::{self, Members, UnionVariant};
use crate::ctxt::Ctxt;
use crate::model::{Container, Variant, VariantFields};

/// Whether the enum is a tagged union: it declares a tag, or a variant holds
/// data (an error without a tag, reported by `check_union`).
pub(super) fn is_union(cont: &Container<'_>, variants: &[Variant<'_>]) -> bool {
    cont.attrs.tag.is_some()
        || cont.attrs.serde_tag.is_some()
        || variants
            .iter()
            .any(|v| !matches!(v.fields, VariantFields::Unit))
}

pub(super) fn check_union<'c>(
    cx: &Ctxt,
    cont: &'c Container<'c>,
    variants: &'c [Variant<'c>],
) -> checked::Union<'c> {
    let tag = check_tag(cx, cont, variants);
    check_enum_attrs(cx, cont, true);
    check_limits(cx, cont);
    if variants.is_empty() {
        cx.error_spanned_by(cont.ident, "a tagged union needs at least one variant");
    }
    check_json_names(cx, variants.iter().map(Named::from));
    check_outcome_flags(cx, variants);
    check_context(cx, cont);
    let variants = variants
        .iter()
        .map(|v| check_variant(cx, cont, v, tag))
        .collect();
    let a = &cont.attrs;
    checked::Union {
        tag,
        tool_names: a.tool_names,
        variants,
        max_bytes: a.max_bytes.as_ref().map(|l| l.value),
        max_depth: a.max_depth.as_ref().map(|l| l.value),
        context: a.context.as_ref(),
        check_fn: a.check_fn.as_ref(),
    }
}

// The tag is declared (ours or serde's, the same if both): without it a data
// enum has no JSON form the contract could check.
fn check_tag<'c>(cx: &Ctxt, cont: &'c Container<'c>, variants: &[Variant<'_>]) -> &'c str {
    let a = &cont.attrs;
    if let (Some(ours), Some(theirs)) = (&a.tag, &a.serde_tag)
        && ours.value != theirs.value
    {
        cx.error_spanned_by(ours.attr(), format!(
            "`tag = \"{}\"` disagrees with `#[serde(tag = \"{}\")]`: make them the same, or drop one (the contract reads serde's)",
            ours.value, theirs.value
        ));
    }
    match a.tag.as_ref().or(a.serde_tag.as_ref()) {
        Some(tag) => &tag.value,
        None => {
            let culprit = variants
                .iter()
                .find(|v| !matches!(v.fields, VariantFields::Unit))
                .map_or_else(
                    || cont.ident.to_token_stream(),
                    |v| v.ident.to_token_stream(),
                );
            cx.error_spanned_by(culprit, format!(
                "`{}` has a variant with data, so it is a tagged union: name the member that says which variant an object is, with `#[contract(tag = \"type\")]` on the enum",
                cont.ident
            ));
            ""
        }
    }
}

// A variant's members are a struct's members beside the tag: field checks,
// distinct JSON names, none named like the tag; its rules name its own
// members; a tuple variant holds one contract struct or nothing.
fn check_variant<'c>(
    cx: &Ctxt,
    cont: &Container<'_>,
    v: &'c Variant<'c>,
    tag: &str,
) -> UnionVariant<'c> {
    let members = match &v.fields {
        VariantFields::Unit => Members::Unit,
        VariantFields::Newtype(ty) => Members::Newtype(ty),
        VariantFields::Tuple(fields) => {
            cx.error_spanned_by(fields, format!(
                "a variant of a tagged union holds named members or one contract struct: write `{} {{ name: Type, .. }}` or `{}(SomeStruct)`",
                v.ident, v.ident
            ));
            Members::Unit
        }
        VariantFields::Struct(members) => {
            check_member_serde(cx, members);
            check_json_names(cx, members.iter().map(Named::from));
            let checked = members
                .iter()
                .map(|m| {
                    check_field(cx, cont.attrs.context.is_some(), m);
                    if m.json_name == tag {
                        let at = m
                            .attrs
                            .rename
                            .explicit()
                            .map_or_else(|| m.ident.to_token_stream(), |r| r.attr().clone());
                        cx.error_spanned_by(at, format!(
                            "`{}` has the JSON name `{tag}`, the union's tag: the tag says which variant an object is, so no member may share its name; rename the member",
                            m.ident
                        ));
                    }
                    member::checked(m)
                })
                .collect();
            Members::Struct(checked)
        }
    };
    let scope = Scope {
        owner: format!("{}::{}", cont.ident, v.ident),
        members: match &v.fields {
            VariantFields::Struct(members) => members,
            _ => &[],
        },
        checked: match &members {
            Members::Struct(checked) => checked,
            _ => &[],
        },
    };
    if matches!(members, Members::Newtype(_)) {
        for w in &v.attrs.whens {
            cx.error_spanned_by(
                &w.tokens,
                "a newtype variant's members are its struct's: declare `when` on that struct",
            );
        }
        for o in &v.attrs.orders {
            cx.error_spanned_by(
                &o.tokens,
                "a newtype variant's members are its struct's: declare `order` on that struct",
            );
        }
    }
    let (whens, orders) = match members {
        Members::Newtype(_) => (Vec::new(), Vec::new()),
        _ => (
            check_when(cx, &scope, &v.attrs.whens),
            check_order(cx, &scope, &v.attrs.orders),
        ),
    };
    UnionVariant {
        variant: v,
        members,
        whens,
        orders,
    }
}
