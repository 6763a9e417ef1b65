//! Bounded unrolling of a recursive export, for a target without recursion
//! (Anthropic; Gemini through required properties): each recursive
//! definition gets one copy per level, `$defs/<name>-depth-<k>` (level 1
//! is the definition itself, or the root), whose references into the
//! recursion point at the next level's copies. At the last level a
//! reference into the recursion is cut, and with it what cannot be without
//! it: an `anyOf` branch (a variant, the non-null side of an `Option`), an
//! optional property (its key is then forbidden), an array's items (the
//! array is then empty: `maxItems: 0`). A required member that has nothing
//! left makes its object impossible at that level, and so the reference to
//! it one level up is cut too; a definition impossible at its first level
//! is an [`ExportError::Unsupported`].
//!
//! Copies per level, rather than the references replaced by the
//! definitions' text, keep the schema's size linear in the depth: a binary
//! tree inlined to depth `N` would have `2^N` copies.
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::limits::{deref, references};
use super::{Export, ExportError, Provider, export_at_depth};
use crate::pointer::child;
use crate::schema::Definition;

/// `T`'s schema prepared for `provider`, its recursion unrolled to `depth`
/// levels (0 counts as 1, and more than the 1,024 levels of JSON nesting
/// any document may have as 1,024): for a provider that takes no
/// recursion (Anthropic, Gemini through required properties), an explicit
/// bound instead of an [`ExportError::Recursive`].
///
/// Each recursive definition is copied once per level
/// (`$defs/<name>-depth-<k>`; level 1 is the definition itself, or the
/// root), each level's references into the recursion pointing at the next
/// level. At level `depth` the references are cut and only the
/// alternatives without them remain: `null` for an `Option<Box<T>>`, the
/// other variants of a tagged union, no key for an `optional` member, `[]`
/// (`maxItems: 0`) for a `Vec<T>`. Each cut reference is in
/// [`Export::dropped`] (keyword `$ref`): the contract takes deeper
/// documents, and `from_json` checks them. A definition with nothing left
/// at its first level (every alternative needs the recursion: a non-empty
/// array of itself, a required member that is not nullable), and an empty
/// array under Anthropic (which takes no `maxItems`), are an
/// [`ExportError::Unsupported`]. A contract without recursion exports as
/// with [`export`](super::export).
///
/// ```
/// use contract_runtime::Contract;
/// use contract_runtime::schema::{export_unrolled, ExportError, Provider};
///
/// /// A condition, with an exception that is a condition again.
/// #[derive(Contract)]
/// struct Cond {
///     field: String,
///     unless: Option<Box<Cond>>,
/// }
///
/// assert!(matches!(
///     Cond::json_schema_for(Provider::Anthropic),
///     Err(ExportError::Recursive { .. })
/// ));
/// let e = export_unrolled::<Cond>(Provider::Anthropic, 3).unwrap();
/// // Levels 2 and 3 are copies; level 3's `unless` can only be null.
/// let last = &e.schema["$defs"]["Cond-depth-3"]["properties"]["unless"];
/// assert_eq!(last["anyOf"], serde_json::json!([{"type": "null"}]));
/// assert_eq!(e.dropped.last().map(|d| d.keyword.as_str()), Some("$ref"));
/// ```
pub fn export_unrolled<T: Definition>(
    provider: Provider,
    depth: usize,
) -> Result<Export, ExportError> {
    export_schema_unrolled(&crate::schema::document::<T>(), provider, depth)
}

/// A full schema prepared for `provider` with its recursion unrolled to
/// `depth` levels; see [`export_unrolled`].
pub fn export_schema_unrolled(
    schema: &Value,
    provider: Provider,
    depth: usize,
) -> Result<Export, ExportError> {
    export_at_depth(schema, provider, Some(depth))
}

/// Names `$defs` copies are made under: `<name>-depth-<k>`. A generic
/// instantiation's name has a number after its first `-`, so no
/// definition the derive names ends this way.
fn copy_name(name: &str, level: usize) -> String {
    format!("{name}-depth-{level}")
}

/// Why a recursive definition cannot be unrolled.
const IMPOSSIBLE: &str = "every document of this definition nests it again (a required member that is not nullable, or an array that may not be empty, on each alternative), so no depth bound leaves a document: make one member an `Option`, or let an array be empty";

/// Why an array cut at the last level cannot be stated.
const NO_EMPTY_ARRAY: &str = "past the unrolled depth this array can only be empty, which this provider cannot state (it takes no `maxItems`): unroll a contract whose recursion goes through an `Option`, or use a provider that keeps recursion";

/// The definitions of an export (the root as `""`).
fn definitions(schema: &Value) -> Vec<String> {
    let mut out = vec![String::new()];
    if let Some(Value::Object(defs)) = schema.get("$defs") {
        out.extend(defs.keys().map(|name| child("/$defs", name)));
    }
    out
}

/// The definitions each definition refers to, directly.
fn graph(schema: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for at in definitions(schema) {
        let mut body = schema.pointer(&at).cloned().unwrap_or(Value::Null);
        if let Value::Object(map) = &mut body {
            map.remove("$defs");
        }
        let mut refs = Vec::new();
        references(&body, true, &mut refs);
        let targets = refs
            .into_iter()
            .filter_map(|(r, _)| deref(schema, r).map(|(_, at)| at))
            .collect();
        out.insert(at, targets);
    }
    out
}

/// The definitions that reach themselves.
pub(super) fn recursive(schema: &Value) -> BTreeSet<String> {
    let graph = graph(schema);
    let mut out = BTreeSet::new();
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&String> = graph[start].iter().collect();
        while let Some(at) = stack.pop() {
            if at == start {
                out.insert(start.clone());
                break;
            }
            if seen.insert(at.clone())
                && let Some(next) = graph.get(at)
            {
                stack.extend(next);
            }
        }
    }
    out
}

struct Unroller<'s> {
    schema: &'s Value,
    provider: Provider,
    depth: usize,
    recursive: BTreeSet<String>,
    /// Per definition, the `$defs` name of its copies (the root's title).
    names: BTreeMap<String, String>,
    /// The recursive definitions impossible at each level (index `k - 1`).
    impossible: Vec<BTreeSet<String>>,
}

impl Unroller<'_> {
    /// Where a reference into the recursion at `level` points, or `None`
    /// where it is cut.
    fn target(&self, at: &str, level: usize) -> Option<String> {
        let next = level + 1;
        let impossible = self.impossible.get(next - 1)?;
        if next > self.depth || impossible.contains(at) {
            return None;
        }
        let name = self.names.get(at)?;
        Some(format!(
            "#/$defs/{}",
            pointer_segment(&copy_name(name, next))
        ))
    }

    /// `node` at `level`: its references into the recursion pointed at the
    /// next level, or cut. `None` if nothing is left of it.
    fn prune(&self, node: &Value, level: usize) -> Result<Option<Value>, ExportError> {
        let Value::Object(map) = node else {
            return Ok(Some(node.clone()));
        };
        if let Some(r) = map.get("$ref").and_then(Value::as_str) {
            let Some((_, at)) = deref(self.schema, r) else {
                return Ok(Some(node.clone()));
            };
            if !self.recursive.contains(&at) {
                return Ok(Some(node.clone()));
            }
            return Ok(self.target(&at, level).map(|t| json!({ "$ref": t })));
        }
        let mut out = Map::new();
        let mut removed: Vec<String> = Vec::new();
        for (key, value) in map {
            match (key.as_str(), value) {
                ("$defs", _) => {}
                ("properties", Value::Object(props)) => {
                    let required = names(map.get("required"));
                    let mut kept = Map::new();
                    for (name, sub) in props {
                        match self.prune(sub, level)? {
                            Some(sub) => {
                                kept.insert(name.clone(), sub);
                            }
                            None if required.contains(name) => return Ok(None),
                            None => removed.push(name.clone()),
                        }
                    }
                    out.insert(key.clone(), Value::Object(kept));
                }
                ("items", _) => match self.prune(value, level)? {
                    Some(sub) => {
                        out.insert(key.clone(), sub);
                    }
                    None if map.get("minItems").and_then(Value::as_u64).unwrap_or(0) > 0 => {
                        return Ok(None);
                    }
                    None if self.provider == Provider::Anthropic => {
                        return Err(ExportError::Unsupported {
                            provider: self.provider,
                            pointer: String::new(),
                            reason: NO_EMPTY_ARRAY,
                        });
                    }
                    None => {
                        out.insert("maxItems".into(), json!(0));
                    }
                },
                ("maxItems", _) if out.get("maxItems") == Some(&json!(0)) => {}
                ("additionalProperties", Value::Object(_)) => {
                    let sub = self.prune(value, level)?.unwrap_or(Value::Bool(false));
                    out.insert(key.clone(), sub);
                }
                ("anyOf", Value::Array(branches)) => {
                    let mut kept = Vec::new();
                    for branch in branches {
                        kept.extend(self.prune(branch, level)?);
                    }
                    if kept.is_empty() {
                        return Ok(None);
                    }
                    out.insert(key.clone(), Value::Array(kept));
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        for key in ["required", "propertyOrdering"] {
            if let Some(Value::Array(list)) = out.get_mut(key) {
                list.retain(|n| !n.as_str().is_some_and(|n| removed.iter().any(|r| r == n)));
            }
        }
        // An empty array: the items a cut left out come after `maxItems`.
        if out.get("maxItems") == Some(&json!(0)) {
            out.remove("items");
        }
        Ok(Some(Value::Object(out)))
    }
}

/// RFC 6901 escaping of one segment.
fn pointer_segment(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

fn names(list: Option<&Value>) -> BTreeSet<String> {
    list.and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The levels an unrolling makes of `depth`: at least 1, and at most
/// [`Limits::MAX_DEPTH`](crate::Limits::MAX_DEPTH), since each level nests
/// the JSON at least once more and no document nests deeper than that.
pub(super) fn levels(depth: usize) -> usize {
    depth.clamp(1, crate::Limits::MAX_DEPTH)
}

/// `schema` (an export) with its recursion unrolled to [`levels`]`(depth)`
/// levels; unchanged if it has none.
pub(super) fn unroll(
    schema: &Value,
    provider: Provider,
    depth: usize,
) -> Result<Value, ExportError> {
    let recursive = recursive(schema);
    if recursive.is_empty() {
        return Ok(schema.clone());
    }
    let depth = levels(depth);
    let mut names = BTreeMap::new();
    for at in &recursive {
        let name = match at.strip_prefix("/$defs/") {
            Some(name) => name.replace("~1", "/").replace("~0", "~"),
            None => schema
                .get("title")
                .and_then(Value::as_str)
                .unwrap_or("root")
                .to_owned(),
        };
        names.insert(at.clone(), name);
    }
    let mut unroller = Unroller {
        schema,
        provider,
        depth,
        recursive,
        names,
        impossible: vec![BTreeSet::new(); depth],
    };
    // Deepest first: a level's references depend on the next one's.
    let mut copies: BTreeMap<(usize, String), Value> = BTreeMap::new();
    for level in (1..=depth).rev() {
        for at in unroller.recursive.clone() {
            let body = schema.pointer(&at).unwrap_or(&Value::Null);
            let pruned = unroller
                .prune(body, level)
                .map_err(|e| at_pointer(e, &at))?;
            match pruned {
                Some(copy) => {
                    copies.insert((level, at), copy);
                }
                None if level == 1 => {
                    return Err(ExportError::Unsupported {
                        provider,
                        pointer: at,
                        reason: IMPOSSIBLE,
                    });
                }
                None => {
                    if let Some(impossible) = unroller.impossible.get_mut(level - 1) {
                        impossible.insert(at);
                    }
                }
            }
        }
    }
    let mut out = match copies.remove(&(1, String::new())) {
        Some(Value::Object(root)) => root,
        _ => match schema {
            Value::Object(root) => {
                let mut root = root.clone();
                root.remove("$defs");
                root
            }
            _ => return Ok(schema.clone()),
        },
    };
    let mut defs = Map::new();
    if let Some(Value::Object(original)) = schema.get("$defs") {
        for (name, def) in original {
            let at = child("/$defs", name);
            let def = copies.remove(&(1, at)).unwrap_or_else(|| def.clone());
            defs.insert(name.clone(), def);
        }
    }
    for ((level, at), copy) in copies {
        if let Some(name) = unroller.names.get(&at) {
            defs.insert(copy_name(name, level), copy);
        }
    }
    out.insert("$defs".into(), Value::Object(defs));
    let mut out = Value::Object(out);
    keep_reachable(&mut out);
    Ok(out)
}

/// Leaves out the definitions no reference reaches from the root (a
/// definition's first level when the recursion enters it at level 2 from
/// the root, a level past the one where a cut ends the path).
fn keep_reachable(schema: &mut Value) {
    let graph = graph(schema);
    let mut reached = BTreeSet::new();
    let mut stack = vec![String::new()];
    while let Some(at) = stack.pop() {
        for target in graph.get(&at).into_iter().flatten() {
            if reached.insert(target.clone()) {
                stack.push(target.clone());
            }
        }
    }
    if let Some(Value::Object(defs)) = schema.get_mut("$defs") {
        defs.retain(|name, _| reached.contains(&child("/$defs", name)));
        if defs.is_empty()
            && let Value::Object(root) = schema
        {
            root.remove("$defs");
        }
    }
}

/// An error of a definition's copy, at the definition's pointer.
fn at_pointer(e: ExportError, at: &str) -> ExportError {
    match e {
        ExportError::Unsupported {
            provider, reason, ..
        } => ExportError::Unsupported {
            provider,
            pointer: at.to_owned(),
            reason,
        },
        other => other,
    }
}

/// The `$ref`s inside the full schema's recursive definitions that point
/// into the recursion, as pointers to their `$ref` keyword: what an
/// unrolled export cuts at its last level.
pub(super) fn recursive_references(full: &Value) -> Vec<String> {
    fn walk(
        full: &Value,
        node: &Value,
        ptr: &str,
        cx: (&BTreeSet<String>, bool),
        out: &mut Vec<String>,
    ) {
        let (recursive, inside) = cx;
        let Value::Object(map) = node else {
            return;
        };
        if let Some(r) = map.get("$ref").and_then(Value::as_str)
            && inside
            && deref(full, r).is_some_and(|(_, at)| recursive.contains(&at))
        {
            out.push(child(ptr, "$ref"));
        }
        for (key, value) in map {
            match (key.as_str(), value) {
                ("$defs", Value::Object(defs)) if ptr.is_empty() => {
                    for (name, def) in defs {
                        let at = child("/$defs", name);
                        let inside = recursive.contains(&at);
                        walk(full, def, &at, (recursive, inside), out);
                    }
                }
                ("properties", Value::Object(subs)) => {
                    for (name, sub) in subs {
                        walk(full, sub, &child(&child(ptr, key), name), cx, out);
                    }
                }
                ("items" | "additionalProperties", sub @ Value::Object(_)) => {
                    walk(full, sub, &child(ptr, key), cx, out);
                }
                ("anyOf" | "oneOf" | "allOf", Value::Array(subs)) => {
                    for (i, sub) in subs.iter().enumerate() {
                        walk(full, sub, &child(&child(ptr, key), &i.to_string()), cx, out);
                    }
                }
                _ => {}
            }
        }
    }
    let recursive = recursive(full);
    let mut out = Vec::new();
    if !recursive.is_empty() {
        walk(
            full,
            full,
            "",
            (&recursive, recursive.contains("")),
            &mut out,
        );
    }
    out
}
