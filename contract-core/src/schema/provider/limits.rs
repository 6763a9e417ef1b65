//! What no rewrite can fix: recursion a provider refuses, and its size and
//! nesting limits.
use std::collections::BTreeSet;

use serde_json::Value;

use super::rewrite::required_of;
use super::{ExportError, Provider};
use crate::pointer::child;

/// OpenAI Structured Outputs: at most 5,000 object properties in all
/// (<https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>).
pub(crate) const OPENAI_MAX_PROPERTIES: usize = 5_000;
/// OpenAI: at most 1,000 enum values in all.
pub(crate) const OPENAI_MAX_ENUM_VALUES: usize = 1_000;
/// OpenAI: at most 120,000 characters of property names, definition names,
/// enum values and consts in all.
pub(crate) const OPENAI_MAX_TEXT: usize = 120_000;

/// The direct subschemas of a schema, with whether each is reached through
/// required properties only (`via_required` of the parent and, for a
/// property, being in `required`).
fn children(node: &Value, via_required: bool) -> Vec<(&Value, bool)> {
    let mut out = Vec::new();
    let Value::Object(map) = node else {
        return out;
    };
    if let Some(Value::Object(props)) = map.get("properties") {
        let required = required_of(map);
        for (name, sub) in props {
            out.push((sub, via_required && required.contains(name.as_str())));
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub @ Value::Object(_)) = map.get(key) {
            out.push((sub, via_required));
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = map.get(key) {
            out.extend(branches.iter().map(|b| (b, via_required)));
        }
    }
    out
}

/// Every schema in the document once (definitions included, references not
/// followed).
fn each_schema<'v>(node: &'v Value, f: &mut dyn FnMut(&'v Value)) {
    f(node);
    for (sub, _) in children(node, true) {
        each_schema(sub, f);
    }
    if let Some(Value::Object(defs)) = node.get("$defs") {
        for def in defs.values() {
            each_schema(def, f);
        }
    }
}

/// The definition a local `$ref` names, and its pointer.
pub(super) fn deref<'v>(root: &'v Value, reference: &str) -> Option<(&'v Value, String)> {
    let pointer = reference.strip_prefix('#')?;
    root.pointer(pointer)
        .map(|target| (target, pointer.to_owned()))
}

/// The `$ref`s below `node` (not inside other definitions), with whether
/// each is reached through required properties only.
pub(super) fn references<'v>(node: &'v Value, via_required: bool, out: &mut Vec<(&'v str, bool)>) {
    if let Some(r) = node.get("$ref").and_then(Value::as_str) {
        out.push((r, via_required));
    }
    for (sub, required) in children(node, via_required) {
        references(sub, required, out);
    }
}

/// Fails on a definition that reaches itself (for Gemini, only through
/// required properties).
pub(super) fn no_cycles(
    root: &Value,
    provider: Provider,
    required_only: bool,
) -> Result<(), ExportError> {
    fn visit(
        root: &Value,
        at: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        provider: Provider,
        required_only: bool,
    ) -> Result<(), ExportError> {
        if done.contains(at) {
            return Ok(());
        }
        path.push(at.to_owned());
        let node = root.pointer(at).unwrap_or(&Value::Null);
        let mut refs = Vec::new();
        references(node, true, &mut refs);
        for (reference, via_required) in refs {
            if required_only && !via_required {
                continue;
            }
            let Some((_, target)) = deref(root, reference) else {
                continue;
            };
            if path.contains(&target) {
                return Err(ExportError::Recursive {
                    provider,
                    pointer: target,
                });
            }
            visit(root, &target, path, done, provider, required_only)?;
        }
        path.pop();
        done.insert(at.to_owned());
        Ok(())
    }
    let mut done = BTreeSet::new();
    visit(
        root,
        "",
        &mut Vec::new(),
        &mut done,
        provider,
        required_only,
    )?;
    if let Some(Value::Object(defs)) = root.get("$defs") {
        for name in defs.keys() {
            let at = child("/$defs", name);
            visit(
                root,
                &at,
                &mut Vec::new(),
                &mut done,
                provider,
                required_only,
            )?;
        }
    }
    Ok(())
}

/// `found` against the provider's cap `max` on `limit`: an
/// [`ExportError::Limit`] past it.
pub(crate) fn limit(
    provider: Provider,
    limit: &'static str,
    max: usize,
    found: usize,
) -> Result<(), ExportError> {
    if found > max {
        return Err(ExportError::Limit {
            provider,
            limit,
            max,
            found,
        });
    }
    Ok(())
}

fn is_object(node: &Value) -> bool {
    match node.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => false,
    }
}

/// Levels of object nesting below and including `node`, following `$ref`s
/// (a definition already on the path counts once).
fn object_depth(root: &Value, node: &Value, path: &mut Vec<String>) -> usize {
    if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
        let Some((target, at)) = deref(root, reference) else {
            return 0;
        };
        if path.contains(&at) {
            return 0;
        }
        path.push(at);
        let depth = object_depth(root, target, path);
        path.pop();
        return depth;
    }
    let below = children(node, true)
        .into_iter()
        .map(|(sub, _)| object_depth(root, sub, path))
        .max()
        .unwrap_or(0);
    below + usize::from(is_object(node))
}

/// The characters of a string value (0 for any other value).
pub(crate) fn chars(value: &Value) -> usize {
    value.as_str().map_or(0, |s| s.chars().count())
}

pub(super) fn openai_limits(root: &Value) -> Result<(), ExportError> {
    let provider = Provider::OpenAi;
    let mut properties = 0;
    let mut enum_values = 0;
    let mut text = 0;
    let mut largest_enum_text = 0;
    each_schema(root, &mut |node| {
        if let Some(Value::Object(props)) = node.get("properties") {
            properties += props.len();
            text += props.keys().map(|k| k.chars().count()).sum::<usize>();
        }
        if let Some(Value::Object(defs)) = node.get("$defs") {
            text += defs.keys().map(|k| k.chars().count()).sum::<usize>();
        }
        if let Some(Value::Array(values)) = node.get("enum") {
            enum_values += values.len();
            let length: usize = values.iter().map(chars).sum();
            text += length;
            if values.len() > 250 {
                largest_enum_text = largest_enum_text.max(length);
            }
        }
        if let Some(c) = node.get("const") {
            text += chars(c);
        }
    });
    let depth = object_depth(root, root, &mut vec![String::new()]);
    limit(provider, "levels of object nesting", 10, depth)?;
    limit(
        provider,
        "object properties in all",
        OPENAI_MAX_PROPERTIES,
        properties,
    )?;
    limit(
        provider,
        "enum values in all",
        OPENAI_MAX_ENUM_VALUES,
        enum_values,
    )?;
    limit(
        provider,
        "characters of property names, definition names, enum values and consts",
        OPENAI_MAX_TEXT,
        text,
    )?;
    limit(
        provider,
        "characters in one string enum of more than 250 values",
        15_000,
        largest_enum_text,
    )
}

pub(super) fn anthropic_limits(root: &Value) -> Result<(), ExportError> {
    let provider = Provider::Anthropic;
    let mut optional = 0;
    let mut unions = 0;
    each_schema(root, &mut |node| {
        if let Some(Value::Object(props)) = node.get("properties")
            && let Value::Object(map) = node
        {
            let required = required_of(map);
            optional += props
                .keys()
                .filter(|k| !required.contains(k.as_str()))
                .count();
        }
        let type_union = matches!(node.get("type"), Some(Value::Array(t)) if t.len() > 1);
        if type_union || node.get("anyOf").is_some() {
            unions += 1;
        }
    });
    limit(provider, "optional properties", 24, optional)?;
    limit(
        provider,
        "union-typed schemas (anyOf or a type array)",
        16,
        unions,
    )
}
