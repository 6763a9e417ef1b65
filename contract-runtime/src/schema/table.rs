//! An object's schema from a `&'static` description the derive writes once
//! per struct (or union variant): its members' constraint keywords,
//! descriptions and `required` list, walked here, instead of a tree of
//! `json!` calls per type. Only the members' own schemas, which depend on
//! their types, are computed by the generated code and handed in.
use serde_json::{Map, Value};

use super::constrain;

/// A constant JSON value of a constraint keyword.
#[derive(Debug, Clone, Copy)]
pub enum Json {
    /// A non-negative integer.
    U64(u64),
    /// A negative integer.
    I64(i64),
    /// A number of a float field (whole ones are written as integers by
    /// [`constrain`]).
    F64(f64),
    /// A string.
    Str(&'static str),
    /// A boolean.
    Bool(bool),
    /// An array (`enum`).
    Array(&'static [Json]),
}

impl Json {
    fn value(self) -> Value {
        match self {
            Json::U64(n) => Value::from(n),
            Json::I64(n) => Value::from(n),
            Json::F64(f) => Value::from(f),
            Json::Str(s) => Value::from(s),
            Json::Bool(b) => Value::Bool(b),
            Json::Array(items) => Value::Array(items.iter().map(|j| j.value()).collect()),
        }
    }
}

/// One member of an object schema.
#[derive(Debug)]
pub struct Property {
    /// The member's JSON name.
    pub name: &'static str,
    /// Whether the field is an `Option` (a `const`/`enum` admits `null`).
    pub nullable: bool,
    /// Constraint keywords and their values, in order.
    pub constraints: &'static [(&'static str, Json)],
    /// `pattern` on the items of a `Vec<String>` (`items.pattern`).
    pub items_pattern: Option<&'static str>,
    /// The field's doc comment.
    pub doc: Option<&'static str>,
}

/// An object schema's constant part.
#[derive(Debug)]
pub struct ObjectTable {
    /// The doc comment of the struct.
    pub description: Option<&'static str>,
    /// `#[contract(version = N)]`.
    pub version: Option<u64>,
    /// The members, in declaration order.
    pub properties: &'static [Property],
    /// The names of the members that are not `optional`.
    pub required: &'static [&'static str],
}

/// The object schema of `table`, each member's own schema taken in order
/// from `schemas` (one per property; the caller computed them with the
/// same [`SchemaGen`](super::SchemaGen), in the same order). Keywords are
/// inserted in the order `description`, `x-contract-version`, `type`,
/// `properties`, `required`, `additionalProperties`; the caller adds
/// `allOf` and the extension key after them.
pub fn object_schema(table: &'static ObjectTable, schemas: &mut [Value]) -> Map<String, Value> {
    let mut props = Map::new();
    for (property, schema) in table.properties.iter().zip(schemas.iter_mut()) {
        let mut schema = std::mem::take(schema);
        for (keyword, value) in property.constraints {
            constrain(&mut schema, keyword, value.value(), property.nullable);
        }
        if let Some(pattern) = property.items_pattern
            && let Some(items) = schema.get_mut("items")
        {
            constrain(items, "pattern", Value::from(pattern), false);
        }
        if let Some(doc) = property.doc {
            constrain(&mut schema, "description", Value::from(doc), false);
        }
        props.insert(property.name.into(), schema);
    }
    let mut object = Map::new();
    if let Some(description) = table.description {
        object.insert("description".into(), Value::from(description));
    }
    if let Some(version) = table.version {
        object.insert("x-contract-version".into(), Value::from(version));
    }
    object.insert("type".into(), Value::from("object"));
    object.insert("properties".into(), Value::Object(props));
    let required = table.required.iter().map(|r| Value::from(*r)).collect();
    object.insert("required".into(), Value::Array(required));
    object.insert("additionalProperties".into(), Value::Bool(false));
    object
}
