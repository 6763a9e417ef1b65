//! Exports bound to one request: the values a member declared with
//! `one_of = ctx.FIELD` may take, read from the trusted context, written
//! into the schema as an `enum`.
//!
//! A [`Binding`] is one such member: its pointer into the full schema (the
//! member's value, or a `Vec`'s `items`) and the context's values, encoded
//! as the member encodes them. [`bind_schema`] writes every binding into a
//! full schema; [`bind`] does it for one provider around any export
//! function, so every export of a schema (a contract's, a tool's
//! arguments, an edit policy's pinned schema) binds the same way:
//!
//! - values go out in the context's order, duplicates removed; an empty
//!   set is [`ExportError::EmptyBinding`] (no value could be accepted),
//!   but for an `Option` member, which is then bound to `null` alone;
//! - the `enum` replaces nothing: the member's other keywords stay beside
//!   it, so the bound schema accepts exactly what the unbound one accepts
//!   and the binding allows (a contract enum's `$ref` is replaced by a
//!   string `enum` of the bound variants, all of which it allows; `null`
//!   stays allowed where it was);
//! - past a provider's enum limits ([`limit`]) the binding stays local
//!   (`check_with`'s `not_in_context`) and is reported in
//!   [`Export::dropped`] at the pointer of the `enum` it would have added;
//!   so is one the provider's own size limits refuse once bound (the
//!   largest first, until the export passes);
//! - [`Export::bound`] lists the pointers bound, in schema order.
//!
//! Only the members that declare `one_of = ctx.FIELD` are bound, and only
//! their values leave the process: nothing else of the context is read.
//! A contract held in a member (in an `Option`, a `Vec`, a map, a `Box`,
//! or a union's newtype variant) is bound where its schema is: its one
//! `$defs` entry, which all its uses share (`/$defs/Pick/properties/id`),
//! or inline at `/oneOf/<index>` for a newtype variant.
use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Value, json};

use super::provider::{Dropped, Export, ExportError, Provider};

/// One member bound to a field of the context: where its values go in the
/// full schema, and the values (as JSON, in the context's order).
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    /// RFC 6901 pointer into the full schema to the schema of the bound
    /// value (`/properties/ticket_id`, `/properties/tags/items`).
    pub pointer: Cow<'static, str>,
    /// The context's values, duplicates not yet removed.
    pub values: Vec<Value>,
}

impl Binding {
    /// A binding at `pointer` of `values`.
    pub fn new(pointer: impl Into<Cow<'static, str>>, values: Vec<Value>) -> Self {
        Binding {
            pointer: pointer.into(),
            values,
        }
    }

    /// The values without duplicates, in their first order.
    fn distinct(&self) -> Vec<Value> {
        self.distinct_at_most(usize::MAX).unwrap_or_default()
    }

    /// The values without duplicates, in their first order, or `None` as
    /// soon as more than `most` are found (a provider's limit: the rest of
    /// a large context is not read).
    fn distinct_at_most(&self, most: usize) -> Option<Vec<Value>> {
        let mut seen = HashSet::with_capacity(self.values.len().min(most.saturating_add(1)));
        let mut out = Vec::with_capacity(self.values.len().min(most));
        for value in &self.values {
            if seen.insert(Key::of(value)) {
                if out.len() == most {
                    return None;
                }
                out.push(value.clone());
            }
        }
        Some(out)
    }
}

/// A bound value as a set key: strings and numbers (what bound members
/// hold) by reference, anything else by its text. Two keys are equal
/// exactly when the values' JSON texts are.
#[derive(PartialEq, Eq, Hash)]
enum Key<'v> {
    String(&'v str),
    Number(&'v serde_json::Number),
    Other(String),
}

impl<'v> Key<'v> {
    fn of(value: &'v Value) -> Self {
        match value {
            Value::String(s) => Key::String(s),
            Value::Number(n) => Key::Number(n),
            other => Key::Other(other.to_string()),
        }
    }
}

/// A value of the context as the bound member writes it in JSON.
#[doc(hidden)]
pub trait BoundValue {
    /// The JSON value.
    fn bound_value(&self) -> Value;
}

impl<T: BoundValue + ?Sized> BoundValue for &T {
    fn bound_value(&self) -> Value {
        (**self).bound_value()
    }
}

impl BoundValue for str {
    fn bound_value(&self) -> Value {
        Value::String(self.to_owned())
    }
}

impl BoundValue for String {
    fn bound_value(&self) -> Value {
        Value::String(self.clone())
    }
}

macro_rules! bound_ints {
    ($($t:ty)*) => {$(
        impl BoundValue for $t {
            fn bound_value(&self) -> Value {
                Value::from(*self)
            }
        }
    )*};
}

bound_ints!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize);

/// The values of a context field, as JSON.
#[doc(hidden)]
pub fn bound_values<I>(allowed: I) -> Vec<Value>
where
    I: IntoIterator,
    I::Item: BoundValue,
{
    allowed.into_iter().map(|v| v.bound_value()).collect()
}

/// A provider's limits on one bound `enum`: at most `values` values, and,
/// past `many` values, at most `characters` characters of string values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnumLimit {
    /// The most values.
    pub values: usize,
    /// How many values a string enum may have before `characters` applies.
    pub many: usize,
    /// The most characters of a string enum's values, past `many` values.
    pub characters: usize,
}

/// The enum limits a binding must keep within for `provider`, or `None`
/// where there are none to keep.
///
/// - OpenAI documents them (Structured Outputs, "Supported schemas"): 1,000
///   enum values in all, and 15,000 characters for one string enum of more
///   than 250 values. The export checks the total ("in all") as well.
/// - Gemini and Anthropic document no number (a schema too large or too
///   complex is refused); a binding keeps to OpenAI's figures for them, a
///   stated bound, so that a request does not fail on the provider's side
///   for the size of a context.
/// - Local engines (llguidance, XGrammar, Outlines) compile an `enum` as
///   an alternation of literals: none.
pub const fn limit(provider: Provider) -> Option<EnumLimit> {
    match provider {
        Provider::OpenAi | Provider::Gemini | Provider::Anthropic => Some(EnumLimit {
            values: 1000,
            many: 250,
            characters: 15_000,
        }),
        Provider::Local => None,
    }
}

impl EnumLimit {
    /// Why `values` pass the limit, or `None` when they keep within it.
    fn passed_by(&self, values: &[Value]) -> Option<String> {
        if values.len() > self.values {
            return Some(format!(
                "{} values, past the provider's {} enum values",
                values.len(),
                self.values
            ));
        }
        let characters: usize = values
            .iter()
            .filter_map(Value::as_str)
            .map(|s| s.chars().count())
            .sum();
        (values.len() > self.many && characters > self.characters).then(|| {
            format!(
                "{} values of {characters} characters, past the provider's {} characters for an enum of more than {} values",
                values.len(),
                self.characters,
                self.many
            )
        })
    }
}

/// `full` with every binding written in as an `enum` (all of them, with no
/// provider's limits): what [`Contract::json_schema_with`](crate::Contract::json_schema_with) returns.
pub fn bind_schema(full: &Value, bindings: &[Binding]) -> Result<Value, ExportError> {
    let mut out = full.clone();
    for b in bindings {
        let values = b.distinct();
        write(&mut out, &b.pointer, values)?;
    }
    Ok(out)
}

/// The export of `full` for `provider` with `bindings` bound: `export` is
/// the export function to run on the bound schema (such as
/// [`export_schema`](super::export_schema)). See the module docs.
pub fn bind(
    full: &Value,
    bindings: &[Binding],
    provider: Provider,
    export: impl Fn(&Value) -> Result<Export, ExportError>,
) -> Result<Export, ExportError> {
    // Each binding kept, its distinct values and how many they are.
    let mut kept: Vec<(&Binding, Vec<Value>, usize)> = Vec::new();
    let mut local: Vec<(&Binding, String)> = Vec::new();
    for b in bindings {
        let Some(l) = limit(provider) else {
            let values = b.distinct();
            let n = values.len();
            kept.push((b, values, n));
            continue;
        };
        let Some(values) = b.distinct_at_most(l.values) else {
            local.push((
                b,
                format!(
                    "more than {} distinct values (of {}), past the provider's {} enum values",
                    l.values,
                    b.values.len(),
                    l.values
                ),
            ));
            continue;
        };
        match l.passed_by(&values) {
            Some(why) => local.push((b, why)),
            None => {
                let n = values.len();
                kept.push((b, values, n));
            }
        }
    }
    let mut export = loop {
        let mut schema = full.clone();
        for (b, values, _) in &mut kept {
            // Moved into the schema; read again only if the export is
            // tried again (once the values have gone into a schema).
            let values = match std::mem::take(values) {
                taken if taken.is_empty() => b.distinct(),
                taken => taken,
            };
            write(&mut schema, &b.pointer, values)?;
        }
        match export(&schema) {
            Err(ExportError::Limit {
                limit, max, found, ..
            }) if !kept.is_empty() => {
                // The largest binding stays local, and the export is tried again.
                let largest = (0..kept.len()).max_by_key(|&i| kept[i].2).unwrap_or(0);
                let (b, _, _) = kept.remove(largest);
                local.push((
                    b,
                    format!("the bound schema passes the provider's {max} {limit} ({found})"),
                ));
            }
            result => break result?,
        }
    };
    export.bound = kept.iter().map(|(b, ..)| b.pointer.to_string()).collect();
    for (b, why) in local {
        export.dropped.push(Dropped {
            pointer: format!("{}/enum", b.pointer),
            keyword: "enum".to_owned(),
            enforced_by: format!(
                "check_with: not_in_context (the context's values stay local: {why})"
            ),
        });
    }
    Ok(export)
}

/// The pointer into `full` of the schema a logical pointer names (see
/// [`crate::business::Nested`]): each step taken where `full` has it, else
/// through the node's `$ref` (`#` or `#/$defs/..`) or one of its `anyOf` /
/// `oneOf` branches that has it; `None` where nothing does. A pointer with
/// no such hop is itself.
pub(crate) fn resolve(full: &Value, logical: &str) -> Option<String> {
    let steps: Vec<&str> = match logical.strip_prefix('/') {
        Some(rest) => rest.split('/').collect(),
        None if logical.is_empty() => Vec::new(),
        None => return None,
    };
    walk(full, full, String::new(), &steps, 0)
}

// The rest of `steps` from `node`, which lies at `here` in `root`; `hops`
// counts the `$ref`s and branches taken (a schema that refers to itself
// without a step between would otherwise never end).
fn walk(root: &Value, node: &Value, here: String, steps: &[&str], hops: usize) -> Option<String> {
    let Some((step, rest)) = steps.split_first() else {
        return Some(here);
    };
    let key = step.replace("~1", "/").replace("~0", "~");
    let child = match node {
        Value::Object(map) => map.get(&key),
        Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    };
    if let Some(child) = child
        && let Some(found) = walk(root, child, format!("{here}/{step}"), rest, hops)
    {
        return Some(found);
    }
    if hops >= 64 {
        return None;
    }
    if let Some(Value::String(reference)) = node.get("$ref") {
        let target = reference.strip_prefix('#')?;
        return walk(
            root,
            root.pointer(target)?,
            target.to_owned(),
            steps,
            hops + 1,
        );
    }
    for keyword in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = node.get(keyword) {
            for (i, branch) in branches.iter().enumerate() {
                let at = format!("{here}/{keyword}/{i}");
                if let Some(found) = walk(root, branch, at, steps, hops + 1) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// Writes `values` as the `enum` of the schema at `pointer`; no value at
/// all is an error unless the member may be `null` (then only `null` is left).
fn write(schema: &mut Value, pointer: &str, values: Vec<Value>) -> Result<(), ExportError> {
    let empty = || ExportError::EmptyBinding {
        pointer: pointer.to_owned(),
    };
    let Some(node) = schema.pointer_mut(pointer) else {
        return Err(empty());
    };
    if values.is_empty() {
        if !may_be_null(node) {
            return Err(empty());
        }
        let mut only_null = Map::new();
        only_null.insert("type".to_owned(), json!("null"));
        if let Some(d) = node.get("description") {
            only_null.insert("description".to_owned(), d.clone());
        }
        *node = Value::Object(only_null);
        return Ok(());
    }
    bind_node(node, values);
    Ok(())
}

/// A nullable member: `"type": [.., "null"]`, or `anyOf` with `null`.
fn may_be_null(node: &Value) -> bool {
    let null = json!("null");
    if let Some(Value::Array(types)) = node.get("type") {
        return types.contains(&null);
    }
    node.get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|b| b.iter().any(|b| b.get("type") == Some(&null)))
}

fn bind_node(node: &mut Value, values: Vec<Value>) {
    let Some(object) = node.as_object_mut() else {
        return;
    };
    if object.contains_key("$ref") {
        // A contract enum: a string enum of the bound variants, with the
        // member's own annotations.
        let mut bound = Map::new();
        bound.insert("type".to_owned(), json!("string"));
        bound.insert("enum".to_owned(), Value::Array(values));
        for key in ["title", "description"] {
            if let Some(v) = object.get(key) {
                bound.insert(key.to_owned(), v.clone());
            }
        }
        *object = bound;
        return;
    }
    if let Some(Value::Array(branches)) = object.get_mut("anyOf") {
        // A nullable contract enum: `anyOf` of its `$ref` and `null`.
        for branch in branches.iter_mut() {
            if branch.get("type") != Some(&json!("null")) {
                bind_node(branch, values.clone());
            }
        }
        return;
    }
    let nullable =
        matches!(object.get("type"), Some(Value::Array(types)) if types.contains(&json!("null")));
    let mut values = values;
    if nullable {
        values.push(Value::Null);
    }
    object.insert("enum".to_owned(), Value::Array(values));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logical_pointer_resolves_through_refs_and_branches() {
        let full = json!({
            "properties": {
                "x": {"type": "string"},
                "first": {"$ref": "#/$defs/Pick"},
                "maybe": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/Pick"}]},
                "more": {"type": "array", "items": {"$ref": "#"}},
                "odd~/key": {"$ref": "#/$defs/Pick"}
            },
            "$defs": {
                "Pick": {"properties": {"id": {"type": "integer"}}},
                "Loop": {"$ref": "#/$defs/Loop"}
            }
        });
        let r = |p: &str| resolve(&full, p);
        assert_eq!(r("/properties/x").as_deref(), Some("/properties/x"));
        assert_eq!(r("").as_deref(), Some(""));
        let id = Some("/$defs/Pick/properties/id");
        assert_eq!(r("/properties/first/properties/id").as_deref(), id);
        assert_eq!(r("/properties/maybe/properties/id").as_deref(), id);
        assert_eq!(r("/properties/odd~0~1key/properties/id").as_deref(), id);
        assert_eq!(
            r("/properties/more/items/properties/x").as_deref(),
            Some("/properties/x")
        );
        assert_eq!(r("/properties/first/properties/nope"), None);
        assert_eq!(r("no-slash"), None);
        // A definition that refers to itself ends, unresolved.
        assert_eq!(r("/$defs/Loop/properties/id"), None);
    }

    #[test]
    fn values_keep_the_context_order_without_duplicates() {
        let b = Binding::new(
            "/properties/x",
            vec![json!(3), json!(1), json!(3), json!(2)],
        );
        assert_eq!(b.distinct(), [json!(3), json!(1), json!(2)]);
    }

    #[test]
    fn values_are_distinct_by_their_json_text() {
        let b = Binding::new(
            "/properties/x",
            vec![
                json!(1),
                json!("1"),
                json!(1.0),
                json!(1),
                json!("1"),
                json!(true),
            ],
        );
        assert_eq!(
            b.distinct(),
            [json!(1), json!("1"), json!(1.0), json!(true)]
        );
        assert_eq!(b.distinct_at_most(4).map(|v| v.len()), Some(4));
        assert_eq!(b.distinct_at_most(3), None);
    }

    #[test]
    fn a_nullable_member_keeps_null() {
        let full = json!({"properties": {"x": {"type": ["string", "null"]}}});
        let bound = bind_schema(&full, &[Binding::new("/properties/x", vec![json!("a")])]);
        assert_eq!(
            bound.ok(),
            Some(json!({"properties": {"x": {"type": ["string", "null"], "enum": ["a", null]}}}))
        );
    }

    #[test]
    fn openai_limits() {
        let Some(l) = limit(Provider::OpenAi) else {
            panic!("OpenAI has limits");
        };
        let many: Vec<Value> = (0..1001).map(Value::from).collect();
        assert!(l.passed_by(&many).is_some());
        assert!(l.passed_by(&many[..1000]).is_none());
        let long: Vec<Value> = (0..251).map(|i| json!(format!("{i:060}"))).collect();
        assert!(l.passed_by(&long).is_some());
        assert!(l.passed_by(&long[..250]).is_none());
        assert_eq!(limit(Provider::Local), None);
    }
}
