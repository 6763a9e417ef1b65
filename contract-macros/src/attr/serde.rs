//! What the contract reads from `#[serde(..)]`: names and a field's `default`.
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{Attribute, Token};

use super::{Located, is, rename_rule, skip_meta_value, string_value};
use crate::case::RenameRule;
use crate::ctxt::Ctxt;
use crate::symbol::*;

#[derive(Clone, Copy, PartialEq)]
pub(super) enum SerdeScope {
    Container,
    Field,
    Variant,
}

/// What the contract reads from `#[serde(..)]`.
#[derive(Default)]
pub(super) struct SerdeAttrs {
    pub rename: Option<Located<String>>,
    pub rename_all: Option<Located<RenameRule>>,
    pub default: Option<TokenStream>,
    /// A container's `tag = ".."` (an internally tagged enum).
    pub tag: Option<Located<String>>,
}

// The contract reads serde's names (`rename`, `rename_all`, a container's
// `tag`) and a field's `default` (checked against `optional` by `check`). Serde attributes that
// change nothing on the wire are skipped (`deny_unknown_fields`, `crate`,
// `bound`, `expecting`, a container's `rename`); any other would make serde's
// JSON differ from what the contract accepts, and is an error.
pub(super) fn serde_attrs(cx: &Ctxt, attrs: &[Attribute], scope: SerdeScope) -> SerdeAttrs {
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
            } else if is(&meta, TAG) && assigns && scope == SerdeScope::Container {
                out.tag = Some(string_value(&meta)?);
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
                    "remove it (the contract reads `rename`, `rename_all`, `tag` and a field's `default` from serde)"
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
