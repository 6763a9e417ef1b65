//! A full schema with every value outside an edit policy's allowlist
//! pinned to its baseline, for [`EditPolicy::json_schema_for`]: a model
//! editing the document under this schema cannot change what the policy
//! forbids.
//!
//! Along the path to an allowed pointer, objects keep their schema (with
//! `$ref`s and nullable or union branches resolved by the baseline's
//! value, and every member the baseline holds required unless it is
//! allowed); every member off that path is pinned: a string, number or
//! boolean as `const` beside its `type`, `null` as `{"type": "null"}`, an
//! object member by member (closed, every member required), an array as a
//! whole `const` (arrays are atomic in edits). An allowed pointer keeps its
//! schema as it is, whatever it holds (a map, a `Box`ed or recursive
//! value, a nested contract): as the edit check, it changes as a whole. A
//! recursive root's `"#"` is pointed at an unpinned copy of the root in
//! `$defs`, so that such a free subtree is not pinned with the root.
//!
//! JSON Schema compares numbers by value: `"const": 1.0` takes `1`, which
//! the edit check counts as a change. Such pins (a number with a zero
//! fraction outside an integer field, whose decoder refuses `1.0` itself)
//! are listed in [`Pinned::written_form`], and reported as `dropped`.
//!
//! [`EditPolicy::json_schema_for`]: crate::EditPolicy::json_schema_for
use serde_json::{Map, Value, json};

use crate::pointer::child;

/// One value pinned: where its `const` is in the pinned schema, and the
/// document pointer it pins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pin {
    /// Pointer of the keyword that pins the value, in the pinned schema
    /// (`/properties/retry_limit/const`).
    pub schema_pointer: String,
    /// The document pointer whose value is pinned (`/retry_limit`).
    pub pointer: String,
}

/// A pinned schema and what its pins leave to the edit check.
#[derive(Debug, Clone, PartialEq)]
pub struct Pinned {
    /// `full` with the values of the baseline outside the allowlist pinned.
    pub schema: Value,
    /// The pins made.
    pub pins: Vec<Pin>,
    /// The members that could not be pinned (a member the baseline lacks:
    /// its absence cannot be stated), with the pointer of their schema.
    pub unpinned: Vec<Pin>,
    /// The pins of a number with a zero fraction in a field that is not an
    /// integer field: JSON Schema's `const` compares numbers by value, so
    /// `"const": 1.0` accepts `1` (and `"const": 1` accepts `1.0`), which
    /// the edit check counts as a change (`1` is not `1.0`).
    pub written_form: Vec<Pin>,
}

/// `full` with the values of `baseline` outside `allowed` pinned (see
/// [`Pinned`]).
pub fn pinned(full: &Value, baseline: &Value, allowed: &[&str]) -> Pinned {
    let mut pinner = Pinner {
        root: full,
        allowed,
        pins: Vec::new(),
        unpinned: Vec::new(),
        written_form: Vec::new(),
    };
    let mut schema = pinner.walk(full, baseline, "", "");
    keep_root_reachable(full, &mut schema);
    Pinned {
        schema,
        pins: pinner.pins,
        unpinned: pinner.unpinned,
        written_form: pinner.written_form,
    }
}

/// A recursive root refers to itself as `"#"`; in the pinned schema `"#"`
/// would be the pinned root, so a free subtree (an allowed `next` holding
/// the root type) would be pinned too. The unpinned root is kept as a
/// definition (named by its `title`, made unique) and every `"#"` points
/// at it.
pub(crate) fn keep_root_reachable(full: &Value, out: &mut Value) {
    if !refers_to_root(out) {
        return;
    }
    let defs = full.get("$defs");
    let base = full.get("title").and_then(Value::as_str).unwrap_or("Root");
    let mut name = base.to_owned();
    let mut n = 2;
    while defs.and_then(|d| d.get(&name)).is_some() {
        name = format!("{base}{n}");
        n += 1;
    }
    let target = format!("#{}", child("/$defs", &name));
    let mut root = full.clone();
    if let Value::Object(map) = &mut root {
        map.remove("$defs");
        map.remove("$schema");
    }
    retarget_root(&mut root, &target);
    retarget_root(out, &target);
    if let Value::Object(map) = out {
        let defs = map
            .entry("$defs")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(defs) = defs {
            defs.insert(name, root);
        }
    }
}

/// Keywords whose value is a JSON value, not a schema: a pinned baseline
/// value may hold `{"$ref": "#"}` as data.
const VALUE_KEYWORDS: [&str; 4] = ["const", "enum", "default", "examples"];

/// Whether some `$ref` in `schema` is `"#"`.
fn refers_to_root(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, value)| {
            (key == "$ref" && value == "#")
                || (!VALUE_KEYWORDS.contains(&key.as_str()) && refers_to_root(value))
        }),
        Value::Array(items) => items.iter().any(refers_to_root),
        _ => false,
    }
}

/// Every `"$ref": "#"` in `schema` made `"$ref": target`.
fn retarget_root(schema: &mut Value, target: &str) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if key == "$ref" && *value == "#" {
                    *value = Value::String(target.to_owned());
                } else if !VALUE_KEYWORDS.contains(&key.as_str()) {
                    retarget_root(value, target);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                retarget_root(item, target);
            }
        }
        _ => {}
    }
}

struct Pinner<'a> {
    root: &'a Value,
    allowed: &'a [&'a str],
    pins: Vec<Pin>,
    unpinned: Vec<Pin>,
    written_form: Vec<Pin>,
}

impl<'a> Pinner<'a> {
    /// Whether an allowed pointer lies strictly below `at`.
    fn allowed_below(&self, at: &str) -> bool {
        self.allowed
            .iter()
            .any(|p| p.len() > at.len() && p.starts_with(at) && p.as_bytes()[at.len()] == b'/')
    }

    /// The object schema `schema` stands for when the value is `value`:
    /// `$ref`s followed, a nullable or union branch chosen by the value.
    fn resolve<'v>(&self, schema: &'v Value, value: &Value) -> Option<&'v Value>
    where
        'a: 'v,
    {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let target = self.root.pointer(reference.strip_prefix('#')?)?;
            return self.resolve(target, value);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = schema.get(key) {
                return branches
                    .iter()
                    .filter_map(|b| self.resolve(b, value))
                    .find(|b| holds_consts(b, value));
            }
        }
        schema.get("properties").is_some().then_some(schema)
    }

    fn walk(&mut self, schema: &Value, value: &Value, at: &str, sp: &str) -> Value {
        if self.allowed.contains(&at) {
            return schema.clone();
        }
        let object = match value {
            Value::Object(members) if self.allowed_below(at) => {
                self.resolve(schema, value).map(|s| (s, members))
            }
            _ => None,
        };
        let Some((resolved, members)) = object else {
            return self.pin(schema, value, at, sp);
        };
        let mut out = resolved.as_object().cloned().unwrap_or_default();
        let mut properties = Map::new();
        if let Some(Value::Object(props)) = resolved.get("properties") {
            for (name, sub) in props {
                let (here, sub_sp) = (child(at, name), child(&child(sp, "properties"), name));
                let converted = match members.get(name) {
                    Some(member) => self.walk(sub, member, &here, &sub_sp),
                    None => {
                        if !self.allowed.contains(&here.as_str()) {
                            self.unpinned.push(Pin {
                                schema_pointer: sub_sp.clone(),
                                pointer: here,
                            });
                        }
                        sub.clone()
                    }
                };
                properties.insert(name.clone(), converted);
            }
        }
        out.insert("properties".into(), Value::Object(properties));
        // A member the baseline holds may not go away unless it is allowed
        // to change (an `optional` field is not required in `full`).
        let mut required: Vec<Value> = match resolved.get("required") {
            Some(Value::Array(names)) => names.clone(),
            _ => Vec::new(),
        };
        if let Some(Value::Object(props)) = resolved.get("properties") {
            for name in props.keys() {
                let kept = members.contains_key(name)
                    && !self.allowed.contains(&child(at, name).as_str())
                    && !required.iter().any(|r| r == name);
                if kept {
                    required.push(json!(name));
                }
            }
        }
        if !required.is_empty() {
            out.insert("required".into(), Value::Array(required));
        }
        if sp.is_empty() {
            // The root keeps its `$defs` (free subtrees refer to them).
            if let Some(defs) = self.root.get("$defs") {
                out.insert("$defs".into(), defs.clone());
            }
        }
        Value::Object(out)
    }

    /// `value` pinned, with the annotations of `schema`.
    fn pin(&mut self, schema: &Value, value: &Value, at: &str, sp: &str) -> Value {
        let mut out = Map::new();
        let notes = self.resolve(schema, value).unwrap_or(schema);
        for key in ["title", "description"] {
            if let Some(note) = notes.get(key).or_else(|| schema.get(key)) {
                out.insert(key.into(), note.clone());
            }
        }
        match value {
            Value::Null => {
                out.insert("type".into(), json!("null"));
            }
            Value::Object(members) => {
                out.insert("type".into(), json!("object"));
                let mut properties = Map::new();
                for (name, member) in members {
                    let sub = notes
                        .get("properties")
                        .and_then(|p| p.get(name))
                        .unwrap_or(&Value::Null);
                    let (here, sub_sp) = (child(at, name), child(&child(sp, "properties"), name));
                    properties.insert(name.clone(), self.pin(sub, member, &here, &sub_sp));
                }
                let names: Vec<Value> = members.keys().map(|k| json!(k)).collect();
                out.insert("properties".into(), Value::Object(properties));
                if !names.is_empty() {
                    out.insert("required".into(), Value::Array(names));
                }
                out.insert("additionalProperties".into(), json!(false));
            }
            other => {
                let t = match other {
                    Value::Bool(_) => "boolean",
                    Value::String(_) => "string",
                    Value::Array(_) => "array",
                    Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
                    _ => "number",
                };
                out.insert("type".into(), json!(t));
                out.insert("const".into(), other.clone());
                let pin = Pin {
                    schema_pointer: child(sp, "const"),
                    pointer: at.to_owned(),
                };
                if let Value::Number(n) = other
                    && has_zero_fraction(n)
                    && !is_integer_field(notes)
                {
                    self.written_form.push(pin.clone());
                }
                self.pins.push(pin);
            }
        }
        Value::Object(out)
    }
}

/// Whether `n` is an integer or a float with a zero fraction (`1`, `1.0`):
/// a number JSON Schema's `const` cannot hold in one written form.
fn has_zero_fraction(n: &serde_json::Number) -> bool {
    n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// Whether `schema` is an integer field's (`"type": "integer"`, nullable
/// or not): there the decoder itself refuses `1.0` (`integer_syntax`).
fn is_integer_field(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(types)) => {
            types.iter().any(|t| t == "integer") && !types.iter().any(|t| t == "number")
        }
        _ => false,
    }
}

/// Whether every `const` member of an object schema (a union's tag) holds
/// in `value`.
fn holds_consts(schema: &Value, value: &Value) -> bool {
    let Some(Value::Object(props)) = schema.get("properties") else {
        return true;
    };
    props.iter().all(|(name, sub)| match sub.get("const") {
        Some(c) => value.get(name) == Some(c),
        None => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_off_the_allowlist_are_pinned() {
        let full = json!({
            "type": "object",
            "properties": {
                "notifications": {"$ref": "#/$defs/N"},
                "retry_limit": {"type": "integer", "minimum": 0},
                "channels": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["notifications", "retry_limit", "channels"],
            "additionalProperties": false,
            "$defs": {"N": {"type": "object", "properties": {"email": {"type": "boolean"}, "sms": {"type": "boolean"}}, "required": ["email", "sms"], "additionalProperties": false}},
        });
        let baseline = json!({"notifications": {"email": true, "sms": false}, "retry_limit": 3, "channels": ["email"]});
        let Pinned {
            schema: out,
            pins,
            unpinned,
            ..
        } = pinned(&full, &baseline, &["/notifications/email"]);
        assert_eq!(
            out["properties"]["retry_limit"],
            json!({"type": "integer", "const": 3})
        );
        assert_eq!(out["properties"]["channels"]["const"], json!(["email"]));
        let n = &out["properties"]["notifications"];
        assert_eq!(n["properties"]["email"], json!({"type": "boolean"}));
        assert_eq!(
            n["properties"]["sms"],
            json!({"type": "boolean", "const": false})
        );
        // In the schema's order of `properties`: as written with serde_json's
        // `preserve_order`, by name without it.
        let pointers: Vec<&str> = pins.iter().map(|p| p.pointer.as_str()).collect();
        let expected = if cfg!(feature = "preserve_order") {
            ["/notifications/sms", "/retry_limit", "/channels"]
        } else {
            ["/channels", "/notifications/sms", "/retry_limit"]
        };
        assert_eq!(pointers, expected);
        let retry = pins.iter().find(|p| p.pointer == "/retry_limit");
        assert_eq!(
            retry.map(|p| p.schema_pointer.as_str()),
            Some("/properties/retry_limit/const")
        );
        assert!(unpinned.is_empty());
    }

    /// A root that holds itself (`next`) under a policy allowing `/next`.
    fn recursive_root() -> Value {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Chain",
            "type": "object",
            "properties": {
                "v": {"type": "integer"},
                "next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]},
            },
            "required": ["v"],
            "additionalProperties": false,
        })
    }

    #[test]
    fn a_recursive_root_stays_free_under_an_allowed_field() {
        let baseline = json!({"v": 1, "next": null});
        let out = pinned(&recursive_root(), &baseline, &["/next"]).schema;
        assert_eq!(
            out["properties"]["next"]["anyOf"][0],
            json!({"$ref": "#/$defs/Chain"})
        );
        let kept = &out["$defs"]["Chain"];
        assert_eq!(kept["properties"]["v"], json!({"type": "integer"}));
        assert_eq!(
            kept["properties"]["next"]["anyOf"][0]["$ref"],
            "#/$defs/Chain"
        );
        assert!(kept.get("$schema").is_none());
        assert_eq!(out["properties"]["v"]["const"], 1);
    }

    #[test]
    fn a_pinned_value_holding_a_root_reference_as_data_stays_as_written() {
        let mut full = recursive_root();
        full["properties"]["tags"] = json!({"type": "array"});
        let baseline = json!({"v": 1, "next": null, "tags": [{"$ref": "#"}]});
        let out = pinned(&full, &baseline, &["/next"]).schema;
        assert_eq!(out["properties"]["tags"]["const"], json!([{"$ref": "#"}]));
        assert_eq!(
            out["properties"]["next"]["anyOf"][0]["$ref"],
            "#/$defs/Chain"
        );
    }

    #[test]
    fn a_member_the_baseline_holds_is_required_unless_allowed() {
        let baseline = json!({"v": 1, "next": {"v": 2, "next": null}});
        let out = pinned(&recursive_root(), &baseline, &["/next/v"]).schema;
        assert_eq!(out["required"], json!(["v", "next"]));
        let out = pinned(&recursive_root(), &baseline, &["/next"]).schema;
        assert_eq!(out["required"], json!(["v"]));
    }
}
