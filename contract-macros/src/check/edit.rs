//! Edit policies: names, pointer lists, pointers.
use std::collections::{BTreeMap, BTreeSet};

use crate::checked::{Member, Policy, PolicyPointer};
use crate::ctxt::Ctxt;
use crate::model::Container;
use crate::pointer;
use crate::suggest;
use crate::ty::Ty;

// `edit(NAME = [..])`: names unique, lists non-empty and without repeats,
// pointers well-formed and resolving to a field. The first segment is
// checked here; deeper ones through nested contract types by a `const`
// assertion in the generated code.
pub(super) fn check_edit<'c>(
    cx: &Ctxt,
    cont: &'c Container<'c>,
    members: &[Member<'c>],
) -> Vec<Policy<'c>> {
    let mut policies = Vec::new();
    // Each policy is also an associated const, `Self::{NAME in upper case}`.
    let mut names: BTreeMap<String, &syn::Ident> = BTreeMap::new();
    for e in &cont.attrs.edits {
        let const_name = e.const_name();
        let const_ident = match syn::parse_str::<syn::Ident>(&const_name) {
            Ok(mut ident) => {
                ident.set_span(e.name.span());
                Some(ident)
            }
            Err(_) => {
                cx.error_spanned_by(
                    &e.name,
                    format!("the policy's const would be `{const_name}`, which is not an identifier: use an ASCII name such as `disable_email`"),
                );
                None
            }
        };
        let mut resolved = Vec::new();
        match names.get(&const_name) {
            Some(first) if **first == e.name => cx.error_spanned_by(
                &e.name,
                format!("two edit policies are named `{}`: rename one", e.name),
            ),
            Some(first) => cx.error_spanned_by(
                &e.name,
                format!(
                    "edit policies `{first}` and `{}` would both be the const `{}::{const_name}`: rename one",
                    e.name, cont.ident
                ),
            ),
            None => {
                names.insert(const_name, &e.name);
            }
        }
        if e.pointers.is_empty() {
            cx.error_spanned_by(
                &e.tokens,
                format!(
                    "edit policy `{}` allows nothing: list at least one pointer, or remove it",
                    e.name
                ),
            );
        }
        let mut seen = BTreeSet::new();
        for lit in &e.pointers {
            let pointer = lit.value();
            if !seen.insert(pointer.clone()) {
                cx.error_spanned_by(
                    lit,
                    format!(
                        "`{pointer}` is already listed in policy `{}`: remove it",
                        e.name
                    ),
                );
                continue;
            }
            let segments = match pointer::parse(&pointer) {
                Ok(s) => s,
                Err(why) => {
                    cx.error_spanned_by(lit, format!("malformed JSON Pointer `{pointer}`: {why}"));
                    continue;
                }
            };
            let Some(first) = segments.first() else {
                continue;
            };
            let Some(field) = members.iter().find(|m| m.json_name == *first) else {
                let names: Vec<&str> = members.iter().map(|f| f.json_name).collect();
                let instead = match suggest::closest(first, names.iter().copied()) {
                    Some(close) => format!("did you mean \"{}\"?", pointer::member(close)),
                    None => format!("its JSON keys are: {}", names.join(", ")),
                };
                cx.error_spanned_by(lit, format!(
                    "edit pointer `{pointer}` does not resolve: `{}` has no field `{first}`; {instead}",
                    cont.ident,
                ));
                continue;
            };
            if segments.len() > 1 {
                let first = pointer::member(first);
                match field.kind {
                    Ty::Contract => {} // checked through the nested type's shape
                    Ty::Boxed(_) => cx.error_spanned_by(lit, format!(
                        "edit pointer `{pointer}` points inside `{first}`, a `Box` (which may hold a recursive type): a boxed value changes as a whole; allow `{first}` instead"
                    )),
                    Ty::Vec(_) | Ty::Map(_) => cx.error_spanned_by(lit, format!(
                        "edit pointer `{pointer}` points inside `{first}`, an {}: collections change as a whole; allow `{first}` instead",
                        if matches!(field.kind, Ty::Vec(_)) { "array" } else { "object map" }
                    )),
                    _ => cx.error_spanned_by(lit, format!(
                        "edit pointer `{pointer}` does not resolve: `{first}` is {}, which has no fields; allow `{first}` instead",
                        field.kind.describe()
                    )),
                }
            }
            resolved.push(PolicyPointer {
                lit,
                text: pointer,
                segments,
                member: field.clone(),
            });
        }
        if let Some(const_ident) = const_ident {
            policies.push(Policy {
                name: e.name(),
                const_ident,
                pointers: resolved,
            });
        }
    }
    policies
}
