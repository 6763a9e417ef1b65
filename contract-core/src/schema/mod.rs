//! JSON Schema (draft 2020-12) generation, and exports for model providers.
//!
//! [`Contract::json_schema`] returns the *full*
//! schema: every key in `required` (absent only for `optional` fields),
//! `additionalProperties: false`, nullable fields as `"type": [T, "null"]`
//! (or `anyOf` with `{"type": "null"}` around a `$ref`), `when` rules as
//! `allOf` of `if`/`then`, nested contracts under `$defs` (a contract that
//! contains itself refers to the root as `"#"`), field order kept, doc
//! comments as `description`, and every integer field's range as `minimum`
//! and `maximum` — the Rust type's own (`u64`: 0 to 18446744073709551615,
//! `i64`: -9223372036854775808 to 9223372036854775807), or the field's
//! `min`/`max` where they are tighter — so the schema refuses what the
//! decoder refuses as `out_of_range`.
//!
//! ```
//! use contract_runtime::Contract;
//!
//! /// A ticket to close.
//! #[derive(Contract)]
//! #[contract(version = 2)]
//! struct CloseTicket {
//!     #[contract(min = 1)]
//!     ticket_id: u64,
//!     /// Why the ticket can be closed.
//!     #[contract(min_len = 1, max_len = 200)]
//!     reason: String,
//! }
//!
//! let schema = CloseTicket::json_schema();
//! assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
//! assert_eq!(schema["x-contract-version"], 2);
//! assert_eq!(schema["properties"]["ticket_id"]["minimum"], 1);
//! assert_eq!(schema["properties"]["reason"]["description"], "Why the ticket can be closed.");
//! assert_eq!(schema["required"], serde_json::json!(["ticket_id", "reason"]));
//! assert_eq!(schema["additionalProperties"], false);
//! ```
//!
//! # Extension keys
//!
//! | key | where | what |
//! |---|---|---|
//! | `x-contract-version` ([`VERSION_KEY`]) | a struct's schema | the integer of `#[contract(version = N)]`; read it with [`version`] |
//! | `x-contract-rules` ([`RULES_KEY`]) | a struct's schema, a union variant's object, a union's schema (its `check`) | the rules there that JSON Schema cannot say |
//!
//! Validators ignore unknown keywords, so both keep the schema valid; a
//! reader (or another language's validator) sees what stays checked locally.
//! Each entry of `x-contract-rules` is an object with `rule` and a
//! `description`, and `pointers` (the fields concerned) or `function`:
//!
//! | `rule` | checked by | JSON Schema cannot say it because |
//! |---|---|---|
//! | `order` | `from_json`, rule stage (`order`) | it compares two values of the document |
//! | `evidence` | `check_with`, business stage (`evidence_not_found`) | it needs the source text |
//! | `quarantine` | the decoder | a failing value is dropped to `null` with a `review` reason instead of rejecting the document, so `from_json` *accepts* documents the schema rejects |
//! | `check` | `check_with`, business stage | it needs trusted context |
//!
//! # Checks that stay local in every contract
//!
//! The decoder reads the text, the schema reads a parsed value, so a few
//! checks cannot be in any schema. They are listed, with names, in
//! [`LOCAL_ONLY`]:
//!
//! | name | what the decoder does that the schema does not |
//! |---|---|
//! | `strict_parse` | the parse policy: duplicate keys, size and depth limits, BOM, trailing data, lone surrogates (a parsed value cannot show them) |
//! | `integer_syntax` | `7.0` and `7e0` are not integers (JSON Schema counts them as integers) |
//! | `integer_precision` | an integer is compared as written; a validator that reads numbers as `f64` rounds integers beyond 2^53, so it may accept one just past a 64-bit bound (`-9223372036854775809` rounds to `i64::MIN`; in JavaScript `18446744073709551616` equals `u64::MAX`) |
//! | `float32_range` | an `f32` field rejects a number beyond `f32::MAX` |
//! | `calendar_date` | dates are calendar-valid; the schema says so with `format: "date"`, which validators treat as an annotation unless format assertion is on (the `pattern` still checks the shape) |
//! | `date_time` | a `DateTime` refuses leap seconds (`23:59:60`) and more than 9 fraction digits, which RFC 3339 (`format: "date-time"`) allows; the format itself is an annotation unless format assertion is on |
//! | `email_format` | `format = "email"` is WHATWG HTML's valid e-mail address, stricter than RFC 5321's (JSON Schema's `email`): no quoted local part, no IP literal, ASCII only |
//! | `uuid_format` | `format = "uuid"` is checked; JSON Schema's `uuid` is an annotation unless format assertion is on |
//!
//! # Provider exports
//!
//! Model providers accept subsets of JSON Schema. [`export`] turns the full
//! schema into what one [`Provider`] accepts (a local engine's subset
//! included, [`Provider::Local`]), lowers `when` rules into it where the
//! target takes them, and reports each keyword it had to leave out
//! ([`Dropped`]), with the local check that still enforces it. The
//! [`provider`] module lists what each provider keeps, drops and refuses;
//! [`request_fragment`] wraps an export in the request each API takes;
//! [`pin`] pins an edit policy's baseline into the schema.
//!
//! [`Contract::json_schema`]: crate::Contract::json_schema
use std::any::TypeId;
use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

pub mod bound;
pub mod grammar;
pub(crate) mod object;
pub mod pin;
pub mod provider;
#[cfg(feature = "schemars")]
#[cfg_attr(docsrs, doc(cfg(feature = "schemars")))]
pub mod schemars;

// Without the `schemars` feature, the derive's `impl_json_schema!` line
// expands to nothing (with it, `schemars.rs` defines the impl).
#[cfg(not(feature = "schemars"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_json_schema {
    ($($tokens:tt)*) => {};
}

pub use provider::{
    Api, Dropped, Export, ExportError, Provider, UnknownApi, UnknownProvider, export,
    export_schema, export_schema_unrolled, export_unrolled, request_fragment, schema_name,
};

/// The draft 2020-12 meta-schema URI.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// The extension key that lists rules JSON Schema cannot express.
pub const RULES_KEY: &str = "x-contract-rules";

/// The extension key that records `#[contract(version = N)]`.
pub const VERSION_KEY: &str = "x-contract-version";

/// A check the decoder makes that no schema can carry (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalCheck {
    /// A stable snake_case name.
    pub name: &'static str,
    /// What the decoder checks, and why the schema cannot.
    pub description: &'static str,
}

/// The checks every contract makes locally that its schema cannot say.
pub const LOCAL_ONLY: &[LocalCheck] = &[
    LocalCheck {
        name: "strict_parse",
        description: "the parse policy (duplicate keys, max_bytes, max_depth, BOM, trailing data, lone surrogates): a parsed value cannot show these",
    },
    LocalCheck {
        name: "integer_syntax",
        description: "an integer field refuses 7.0 and 7e0; JSON Schema counts any number with a zero fraction as an integer",
    },
    LocalCheck {
        name: "integer_precision",
        description: "an integer field compares the number as written; a validator that reads numbers as f64 rounds integers beyond 2^53 and may accept one just past a 64-bit bound (-9223372036854775809 rounds to i64::MIN)",
    },
    LocalCheck {
        name: "float32_range",
        description: "an f32 field refuses numbers beyond f32::MAX; the schema says only `number`",
    },
    LocalCheck {
        name: "calendar_date",
        description: "a date is calendar-valid; `format: date` is an annotation unless the validator asserts formats (the pattern still checks YYYY-MM-DD)",
    },
    LocalCheck {
        name: "date_time",
        description: "a date-time refuses leap seconds (23:59:60) and more than 9 fraction digits, which RFC 3339 allows; `format: date-time` is an annotation unless the validator asserts formats",
    },
    LocalCheck {
        name: "email_format",
        description: "an email is WHATWG HTML's valid e-mail address, stricter than RFC 5321 (no quoted local part, no IP literal, ASCII only); `format: email` is an annotation unless the validator asserts formats",
    },
    LocalCheck {
        name: "uuid_format",
        description: "a uuid is 8-4-4-4-12 hexadecimal digits; `format: uuid` is an annotation unless the validator asserts formats",
    },
];

/// Seals [`Definition`]: the contract layer implements [`sealed::Sealed`]
/// for every contract, and nothing outside the crate can name it.
pub(crate) mod sealed {
    /// A contract, as the schema builder sees it.
    pub trait Sealed {}
}

#[doc(hidden)]
/// A type with its own `$defs` entry: its name and its schema body.
/// Every [`Contract`](crate::Contract) is one; the schema builder needs no
/// more of it, so it does not depend on the contract layer. Sealed: only
/// contracts implement it (the contract layer's blanket impl).
pub trait Definition: sealed::Sealed + 'static {
    /// The type's Rust name.
    const NAME: &'static str;
    /// The `$defs` key (and the root's `title`): [`Definition::NAME`], or
    /// for a generic type its [`generic_name`].
    fn name() -> Cow<'static, str> {
        Cow::Borrowed(Self::NAME)
    }
    /// The schema body (`type`, `properties`, …), nested types added to `defs`.
    fn body(defs: &mut SchemaGen) -> Value;
}

/// The `$defs` key of a generic contract instantiated with `args` (their
/// own keys): the Rust name, then `-`, the number of arguments, and each
/// argument after a `-`. `Page<Ticket>` is `Page-1-Ticket`,
/// `Pair<Page<A>, B>` is `Pair-2-Page-1-A-B` and `Pair<Page<A, B>>` is
/// `Pair-1-Page-2-A-B`.
///
/// The scheme is injective: a Rust name holds no `-` and does not start
/// with a digit, so reading a key from the left, a part after a name is
/// either a count (a generic type follows with that many arguments) or the
/// next name, and each key reads back to exactly one type. `Page<Ticket>`
/// and a type named `PageTicket` never share a key. Keys use only
/// `A-Z a-z 0-9 _ -` (what providers accept in `$defs` keys and schema
/// names).
///
/// ```
/// use contract_runtime::schema::generic_name;
///
/// assert_eq!(generic_name("Page", &["Ticket".into()]), "Page-1-Ticket");
/// let inner = generic_name("Page", &["A".into()]);
/// assert_eq!(generic_name("Pair", &[inner, "B".into()]), "Pair-2-Page-1-A-B");
/// ```
pub fn generic_name(name: &str, args: &[Cow<'static, str>]) -> Cow<'static, str> {
    let mut out = format!("{name}-{}", args.len());
    for arg in args {
        out.push('-');
        out.push_str(arg);
    }
    Cow::Owned(out)
}

#[doc(hidden)]
/// Collects `$defs` while a schema is built.
#[derive(Debug, Default)]
pub struct SchemaGen {
    defs: BTreeMap<String, Value>,
    /// The `$defs` name given to each contract type (two types may share a
    /// Rust name; the second becomes `Name2`).
    names: Vec<(TypeId, String)>,
    /// The type at the root of the document, referred to as `"#"`.
    root: Option<TypeId>,
}

impl SchemaGen {
    /// A `$ref` to `T`, adding `T`'s schema to `$defs` the first time.
    #[inline]
    pub fn reference<T: Definition>(&mut self) -> Value {
        // One copy of the work for every type: only the type's identity,
        // name and body differ.
        self.reference_to(TypeId::of::<T>(), T::name, T::body)
    }

    fn reference_to(
        &mut self,
        id: TypeId,
        type_name: fn() -> Cow<'static, str>,
        body: fn(&mut SchemaGen) -> Value,
    ) -> Value {
        if self.root == Some(id) {
            return json!({ "$ref": "#" });
        }
        let name = match self.names.iter().find(|(t, _)| *t == id) {
            Some((_, name)) => name.clone(),
            None => {
                let name = self.fresh_name(&type_name());
                self.names.push((id, name.clone()));
                // Placeholder first, so that a type reached again while its
                // own body is built is not built twice.
                self.defs.insert(name.clone(), Value::Null);
                let body = tidy(body(self));
                self.defs.insert(name.clone(), body);
                name
            }
        };
        json!({ "$ref": crate::pointer::child("#/$defs", &name) })
    }

    fn fresh_name(&self, base: &str) -> String {
        let taken = |n: &str| self.names.iter().any(|(_, used)| used == n);
        if !taken(base) {
            return base.to_owned();
        }
        (2..)
            .map(|i| format!("{base}{i}"))
            .find(|n| !taken(n))
            .unwrap_or_else(|| base.to_owned())
    }
}

#[doc(hidden)]
/// The full schema of `T`: its body at the root, nested contracts in `$defs`.
///
/// This is what [`Contract::json_schema`](crate::Contract::json_schema) returns.
pub fn document<T: Definition>() -> Value {
    let mut defs = SchemaGen {
        root: Some(TypeId::of::<T>()),
        ..SchemaGen::default()
    };
    let body = tidy(T::body(&mut defs));
    let mut root = Map::new();
    root.insert("$schema".into(), json!(DRAFT_2020_12));
    root.insert("title".into(), json!(T::name()));
    if let Value::Object(body) = body {
        root.extend(body);
    }
    if !defs.defs.is_empty() {
        root.insert(
            "$defs".into(),
            Value::Object(defs.defs.into_iter().collect()),
        );
    }
    Value::Object(root)
}

/// The `#[contract(version = N)]` recorded in a schema, if any.
///
/// ```
/// use serde_json::json;
/// use contract_runtime::schema::version;
///
/// assert_eq!(version(&json!({"x-contract-version": 3, "type": "object"})), Some(3));
/// assert_eq!(version(&json!({"type": "object"})), None);
/// ```
pub fn version(schema: &Value) -> Option<u64> {
    schema.get(VERSION_KEY).and_then(Value::as_u64)
}

#[doc(hidden)]
/// A tagged union variant's schema: `body` (a closed object schema) with the
/// `tag` member first, as the constant `name` and required.
pub fn tagged(body: Value, tag: &str, name: &str, description: Option<&str>) -> Value {
    let mut body = match tidy(body) {
        Value::Object(body) => body,
        other => return other,
    };
    let mut properties = Map::new();
    properties.insert(tag.into(), json!({ "type": "string", "const": name }));
    let mut required = vec![json!(tag)];
    if let Some(Value::Object(props)) = body.remove("properties") {
        properties.extend(props);
    }
    if let Some(Value::Array(names)) = body.remove("required") {
        required.extend(names);
    }
    let description = description
        .map(|d| json!(d))
        .or_else(|| body.remove("description"));
    body.remove("description");
    body.remove("type");
    body.remove("additionalProperties");
    let mut out = Map::new();
    if let Some(description) = description {
        out.insert("description".into(), description);
    }
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), Value::Object(properties));
    out.insert("required".into(), Value::Array(required));
    out.insert("additionalProperties".into(), json!(false));
    // `allOf` of `when` rules, the rules JSON Schema cannot say.
    out.extend(body);
    Value::Object(out)
}

#[doc(hidden)]
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

#[doc(hidden)]
/// Adds a constraint keyword to a field's schema; with `nullable`, a
/// `const`/`enum` also admits `null`. Whole floats are written as integers
/// (`minimum: 0`, not `0.0`): JSON Schema compares numbers by value.
pub fn constrain(schema: &mut Value, keyword: &str, value: Value, nullable: bool) {
    let Value::Object(map) = schema else { return };
    let value = whole_numbers(value);
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
    if matches!(keyword, "const" | "enum") {
        drop_implied_bounds(map);
    }
}

/// With an `enum` (or `const`), a bound that every allowed value meets says
/// nothing more (`u8` with `one_of = [1, 2, 3]` needs no `maximum: 255`).
fn drop_implied_bounds(map: &mut Map<String, Value>) {
    let values: Vec<Value> = match (map.get("enum"), map.get("const")) {
        (Some(Value::Array(values)), _) => {
            values.iter().filter(|v| !v.is_null()).cloned().collect()
        }
        (_, Some(c)) => vec![c.clone()],
        _ => return,
    };
    /// A bound keyword, whether a measure meets it, and what it measures.
    type Check = (
        &'static str,
        fn(f64, f64) -> bool,
        fn(&Value) -> Option<f64>,
    );
    let number: fn(&Value) -> Option<f64> = Value::as_f64;
    let length: fn(&Value) -> Option<f64> = |v| v.as_str().map(|s| s.chars().count() as f64);
    let checks: [Check; 4] = [
        ("minimum", |v, b| v >= b, number),
        ("maximum", |v, b| v <= b, number),
        ("minLength", |v, b| v >= b, length),
        ("maxLength", |v, b| v <= b, length),
    ];
    for (keyword, holds, measure) in checks {
        let Some(bound) = map.get(keyword).and_then(Value::as_f64) else {
            continue;
        };
        let implied = values
            .iter()
            .all(|v| measure(v).is_some_and(|m| holds(m, bound)));
        if implied {
            map.remove(keyword);
        }
    }
}

/// `2.0` as `2` (numbers and arrays of numbers); anything else unchanged.
fn whole_numbers(value: Value) -> Value {
    /// Beyond 2^53 an f64 no longer stands for one integer.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    match value {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() <= EXACT => Value::from(f as i64),
            _ => Value::Number(n),
        },
        Value::Array(values) => Value::Array(values.into_iter().map(whole_numbers).collect()),
        other => other,
    }
}

#[doc(hidden)]
/// The `then` of a `when` rule's `if`/`then`: required fields not null,
/// forbidden fields null.
pub fn when_then(required: &[&str], forbidden: &[&str]) -> Value {
    let mut properties = Map::new();
    for name in required {
        properties.insert((*name).into(), json!({ "not": { "type": "null" } }));
    }
    for name in forbidden {
        properties.insert((*name).into(), json!({ "type": "null" }));
    }
    let mut then = Map::new();
    then.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        then.insert("required".into(), json!(required));
    }
    Value::Object(then)
}

/// Makes a struct's schema minimal: no empty `required`; in `when` rules, a
/// single condition value as `const`, and no `required` entry that the
/// struct already requires (a document without the key fails anyway).
fn tidy(mut body: Value) -> Value {
    let Value::Object(map) = &mut body else {
        return body;
    };
    if matches!(map.get("required"), Some(Value::Array(r)) if r.is_empty()) {
        map.remove("required");
    }
    let required: Vec<Value> = match map.get("required") {
        Some(Value::Array(r)) => r.clone(),
        _ => Vec::new(),
    };
    if let Some(Value::Array(rules)) = map.get_mut("allOf") {
        for rule in rules {
            if let Some(Value::Object(cond)) = rule.get_mut("if") {
                if let Some(Value::Object(props)) = cond.get_mut("properties") {
                    for prop in props.values_mut() {
                        single_value_as_const(prop);
                    }
                }
                prune_required(cond, &required);
            }
            if let Some(Value::Object(then)) = rule.get_mut("then") {
                prune_required(then, &required);
            }
        }
    }
    body
}

fn single_value_as_const(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    if let Some(Value::Array(values)) = map.get("enum")
        && let [only] = values.as_slice()
    {
        let only = only.clone();
        map.remove("enum");
        map.insert("const".into(), only);
    }
}

fn prune_required(map: &mut Map<String, Value>, already: &[Value]) {
    if let Some(Value::Array(r)) = map.get_mut("required") {
        r.retain(|k| !already.contains(k));
        if r.is_empty() {
            map.remove("required");
        }
    }
}

/// The definitions of `defs` that `schema` reaches through `$ref`s,
/// directly or through other definitions.
pub(crate) fn used_defs(schema: &Value, defs: &Map<String, Value>) -> Map<String, Value> {
    fn refs(schema: &Value, out: &mut Vec<String>) {
        match schema {
            Value::Object(map) => {
                for (key, value) in map {
                    match (key.as_str(), value) {
                        ("$ref", Value::String(r)) => {
                            if let Some(name) = r.strip_prefix("#/$defs/") {
                                out.push(
                                    crate::pointer::unescape(name)
                                        .map_or_else(|_| name.to_owned(), |n| n.into_owned()),
                                );
                            }
                        }
                        ("const" | "enum" | "default" | "examples", _) => {}
                        _ => refs(value, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| refs(item, out)),
            _ => {}
        }
    }
    let mut used = Map::new();
    let mut pending = Vec::new();
    refs(schema, &mut pending);
    while let Some(name) = pending.pop() {
        if used.contains_key(&name) {
            continue;
        }
        if let Some(def) = defs.get(&name) {
            refs(def, &mut pending);
            used.insert(name, def.clone());
        }
    }
    // In the contract's order.
    defs.iter()
        .filter(|(name, _)| used.contains_key(*name))
        .map(|(name, def)| (name.clone(), def.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_floats_become_integers() {
        assert_eq!(whole_numbers(json!(0.0)), json!(0));
        assert_eq!(whole_numbers(json!(-3.0)), json!(-3));
        assert_eq!(whole_numbers(json!(0.5)), json!(0.5));
        assert_eq!(whole_numbers(json!(1e300)), json!(1e300));
        assert_eq!(whole_numbers(json!([1.0, 2.5])), json!([1, 2.5]));
        assert_eq!(whole_numbers(json!("1.0")), json!("1.0"));
    }

    #[test]
    fn tidy_drops_empty_required_and_redundant_rule_parts() {
        let body = json!({
            "type": "object",
            "properties": {"s": {"type": "string"}, "a": {"type": ["string", "null"]}, "o": {"type": ["string", "null"]}},
            "required": ["s", "a"],
            "allOf": [{
                "if": {"properties": {"s": {"enum": ["x"]}}, "required": ["s"]},
                "then": {"properties": {"a": {"not": {"type": "null"}}, "o": {"not": {"type": "null"}}}, "required": ["a", "o"]}
            }]
        });
        let tidied = tidy(body);
        assert_eq!(
            tidied["allOf"][0],
            json!({
                "if": {"properties": {"s": {"const": "x"}}},
                "then": {"properties": {"a": {"not": {"type": "null"}}, "o": {"not": {"type": "null"}}}, "required": ["o"]}
            })
        );
        let empty = tidy(json!({"type": "object", "required": []}));
        assert_eq!(empty, json!({"type": "object"}));
    }

    #[test]
    fn an_enum_makes_met_bounds_redundant() {
        let mut s = json!({"type": "integer", "minimum": 0, "maximum": 255});
        constrain(&mut s, "enum", json!([1, 2, 3]), false);
        assert_eq!(s, json!({"type": "integer", "enum": [1, 2, 3]}));
        let mut s = json!({"type": ["string", "null"], "maxLength": 3, "minLength": 2});
        constrain(&mut s, "enum", json!(["ab", "abcd"]), true);
        assert_eq!(
            s,
            json!({"type": ["string", "null"], "maxLength": 3, "enum": ["ab", "abcd", null]})
        );
    }

    #[test]
    fn nullable_forms() {
        assert_eq!(
            nullable(json!({"type": "string"})),
            json!({"type": ["string", "null"]})
        );
        assert_eq!(
            nullable(json!({"$ref": "#/$defs/A"})),
            json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]})
        );
        assert_eq!(
            nullable(json!({"type": "string", "enum": ["a"]})),
            json!({"type": ["string", "null"], "enum": ["a", null]})
        );
    }
}
