//! JSON Schema (draft 2020-12) generation.
//!
//! Rules JSON Schema cannot say are listed under the extension key
//! [`RULES_KEY`] (`x-contract-rules`): an array of objects with `rule`
//! (`order`, `evidence`, `check`), the pointers concerned and a description.
//! Validators ignore unknown keywords, so the schema stays valid; a reader
//! (or another language's validator) sees what stays checked locally.
use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::contract::Contract;

/// The draft 2020-12 meta-schema URI.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// The extension key that lists rules JSON Schema cannot express.
pub const RULES_KEY: &str = "x-contract-rules";

/// Collects `$defs` while a schema is built.
#[derive(Debug, Default)]
pub struct SchemaGen {
    defs: BTreeMap<&'static str, Value>,
}

impl SchemaGen {
    /// A `$ref` to `T`, adding `T`'s schema to `$defs` the first time.
    pub fn reference<T: Contract>(&mut self) -> Value {
        if !self.defs.contains_key(T::NAME) {
            // Placeholder first, so that a type reached again while its own
            // body is built is not built twice.
            self.defs.insert(T::NAME, Value::Null);
            let body = T::__schema_body(self);
            self.defs.insert(T::NAME, body);
        }
        json!({ "$ref": format!("#/$defs/{}", T::NAME) })
    }
}

/// The full schema of `T`: its body at the root, nested contracts in `$defs`.
pub fn document<T: Contract>() -> Value {
    let mut defs = SchemaGen::default();
    let body = T::__schema_body(&mut defs);
    let mut root = Map::new();
    root.insert("$schema".into(), json!(DRAFT_2020_12));
    root.insert("title".into(), json!(T::NAME));
    if let Value::Object(body) = body {
        root.extend(body);
    }
    if !defs.defs.is_empty() {
        let defs = defs
            .defs
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect();
        root.insert("$defs".into(), Value::Object(defs));
    }
    Value::Object(root)
}

/// `schema` that also accepts `null`.
pub fn nullable(schema: Value) -> Value {
    let Value::Object(mut map) = schema else {
        return schema;
    };
    if map.contains_key("$ref") {
        return json!({ "anyOf": [Value::Object(map), { "type": "null" }] });
    }
    match map.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            map.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(types)) if !types.iter().any(|t| t == "null") => {
            types.push(json!("null"));
        }
        _ => {}
    }
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && !values.iter().any(Value::is_null)
    {
        values.push(Value::Null);
    }
    if let Some(c) = map.remove("const") {
        map.insert("enum".into(), json!([c, null]));
    }
    Value::Object(map)
}

/// Adds a constraint keyword to a field's schema; with `nullable`, a
/// `const`/`enum` also admits `null`.
pub fn constrain(schema: &mut Value, keyword: &str, value: Value, nullable: bool) {
    let Value::Object(map) = schema else { return };
    match (keyword, nullable) {
        ("const", true) => {
            map.insert("enum".into(), json!([value, null]));
        }
        ("enum", true) => {
            let mut values = match value {
                Value::Array(values) => values,
                other => vec![other],
            };
            values.push(Value::Null);
            map.insert("enum".into(), Value::Array(values));
        }
        _ => {
            map.insert(keyword.into(), value);
        }
    }
}
