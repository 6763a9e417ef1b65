//! A contract's checks as the stream scanner reads them, compiled once per
//! type from the contract's own JSON Schema (which the schema/decoder
//! agreement tests keep equal to what the decoder accepts).
//!
//! Only what is understood is compiled: `type`, `properties`, `required`,
//! `additionalProperties`, `items`, `minItems`/`maxItems`,
//! `minLength`/`maxLength`, `minimum`/`maximum`, `enum`/`const`,
//! `format` (`date`, `date-time`, `email`, `uuid`), `pattern` (read as the
//! decoder's matcher reads it), `$ref` (cycles included: each target is
//! compiled once), a nullable `anyOf`, a tagged `oneOf`, the `when` rules
//! of `allOf` and the `order` and `quarantine` entries of
//! `x-contract-rules` ([`rules`]). Any other keyword can only make the decoder refuse
//! more, so a node that carries one is marked `unsure` (it may fail where
//! the plan sees nothing) and never rejects on it; a schema that is not
//! understood at all becomes [`ANY`]: nothing is decided there.
use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::date::Date;

mod keywords;
pub(crate) mod rules;
use keywords::{any, count, engine_form, set, type_bits, when_rules};
use rules::Rule;

/// A node's index in [`Plan::nodes`].
pub(crate) type NodeId = usize;

/// The node that decides nothing: every plan has it at index 0.
pub(crate) const ANY: NodeId = 0;

/// JSON types a node admits, as bits.
pub(crate) mod types {
    pub(crate) const NULL: u8 = 1;
    pub(crate) const BOOL: u8 = 2;
    /// A number written as an integer.
    pub(crate) const INTEGER: u8 = 4;
    /// Any number (implies `INTEGER`).
    pub(crate) const NUMBER: u8 = 8;
    pub(crate) const STRING: u8 = 16;
    pub(crate) const ARRAY: u8 = 32;
    pub(crate) const OBJECT: u8 = 64;
    pub(crate) const ALL: u8 = 127;
}

/// The compiled checks of one contract.
#[derive(Debug)]
pub(crate) struct Plan {
    pub(crate) nodes: Vec<Node>,
    pub(crate) root: NodeId,
}

/// The checks of one schema.
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// The JSON types admitted ([`types`] bits).
    pub(crate) types: u8,
    /// A value of a type outside `types` is checked against this node
    /// instead (`anyOf: [X, {"type": "null"}]` is `null` or X).
    pub(crate) or: Option<NodeId>,
    /// Keywords not evaluated here could still refuse a value.
    pub(crate) unsure: bool,
    pub(crate) text: Text,
    pub(crate) number: Numeric,
    pub(crate) items: Option<Items>,
    pub(crate) object: Option<Object>,
    pub(crate) union: Option<Union>,
}

/// String checks.
#[derive(Debug, Default)]
pub(crate) struct Text {
    pub(crate) min_len: Option<usize>,
    pub(crate) max_len: Option<usize>,
    /// `enum`/`const` strings, and the code a value outside them gets
    /// (`None` when the schema cannot tell `not_equal` from `not_one_of`).
    pub(crate) allowed: Option<(Vec<String>, Option<&'static str>)>,
    pub(crate) date: bool,
    /// `format`: `date-time`, `email` or `uuid`.
    pub(crate) format: Option<Format>,
    /// `pattern`, as the decoder's matcher reads it.
    pub(crate) pattern: Option<regex_lite::Regex>,
}

/// A string `format` other than `date`, decided on the whole string (a
/// `date-time`'s date also on its prefix).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    DateTime,
    Email,
    Uuid,
}

impl Text {
    /// Whether the string's decoded text is needed.
    pub(crate) fn reads_text(&self) -> bool {
        self.allowed.is_some() || self.date || self.format.is_some() || self.pattern.is_some()
    }

    /// Whether the string is checked at all.
    pub(crate) fn checks(&self) -> bool {
        self.reads_text() || self.max_len.is_some() || self.min_len.is_some()
    }
}

/// Number checks.
#[derive(Debug, Default)]
pub(crate) struct Numeric {
    pub(crate) minimum: Option<Bound>,
    pub(crate) maximum: Option<Bound>,
    /// Integer `enum`/`const` values and their code (as for [`Text`]).
    pub(crate) allowed: Option<(Vec<i128>, Option<&'static str>)>,
}

/// A `minimum` or `maximum`: exact when it is an integer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bound {
    pub(crate) int: Option<i128>,
    pub(crate) float: f64,
}

impl Bound {
    pub(crate) fn integer(v: i128) -> Bound {
        Bound {
            int: Some(v),
            float: v as f64,
        }
    }

    fn of(value: &Value) -> Option<Bound> {
        let int = value
            .as_i64()
            .map(i128::from)
            .or_else(|| value.as_u64().map(i128::from));
        match int {
            Some(v) => Some(Bound::integer(v)),
            None => value.as_f64().map(|float| Bound { int: None, float }),
        }
    }

    /// `self >= lo`.
    pub(crate) fn at_least(self, lo: i128) -> bool {
        match self.int {
            Some(b) => b >= lo,
            None => self.float >= lo as f64,
        }
    }

    /// `self <= hi`.
    pub(crate) fn at_most(self, hi: i128) -> bool {
        match self.int {
            Some(b) => b <= hi,
            None => self.float <= hi as f64,
        }
    }

    /// `v < self` (below a minimum).
    pub(crate) fn above(self, v: i128) -> bool {
        match self.int {
            Some(b) => v < b,
            None => (v as f64) < self.float,
        }
    }

    /// `v > self` (above a maximum).
    pub(crate) fn below(self, v: i128) -> bool {
        match self.int {
            Some(b) => v > b,
            None => (v as f64) > self.float,
        }
    }
}

/// Array checks.
#[derive(Debug)]
pub(crate) struct Items {
    pub(crate) node: NodeId,
    pub(crate) min: Option<usize>,
    pub(crate) max: Option<usize>,
}

/// Object checks: a struct (declared members, closed), a map (any key, one
/// value schema) or an open object.
#[derive(Debug, Default)]
pub(crate) struct Object {
    pub(crate) members: Vec<Member>,
    /// No other key is allowed.
    pub(crate) closed: bool,
    /// The schema of every other key's value (a map).
    pub(crate) other: Option<NodeId>,
    /// The `when` and `order` rules over the members.
    pub(crate) rules: Vec<Rule>,
}

/// A declared member.
#[derive(Debug)]
pub(crate) struct Member {
    pub(crate) name: String,
    pub(crate) node: NodeId,
    pub(crate) required: bool,
    /// Value failures below it are review reasons, not errors.
    pub(crate) quarantine: bool,
    /// The rules (indices into [`Object::rules`]) that read its value.
    pub(crate) rules: Vec<usize>,
}

/// A tagged union: the tag member and one object node per variant.
#[derive(Debug)]
pub(crate) struct Union {
    pub(crate) tag: String,
    pub(crate) variants: Vec<(String, NodeId)>,
}

impl Plan {
    /// Compiles `schema` (a contract's full schema, `$defs` at its root).
    pub(crate) fn compile(schema: &Value) -> Plan {
        let mut compiler = Compiler {
            root: schema,
            nodes: vec![Node {
                types: types::ALL,
                unsure: true,
                ..Node::default()
            }],
            refs: HashMap::new(),
        };
        let root = compiler.reference("#");
        Plan {
            nodes: compiler.nodes,
            root,
        }
    }

    /// The plan that decides nothing: JSON's grammar only.
    pub(crate) fn any() -> Plan {
        Plan::compile(&Value::Bool(true))
    }

    /// Whether a value of node `id` may be null.
    pub(crate) fn admits_null(&self, id: NodeId) -> bool {
        let mut id = id;
        for _ in 0..16 {
            let node = self.node(id);
            if node.types & types::NULL != 0 {
                return true;
            }
            match node.or {
                Some(next) => id = next,
                None => return false,
            }
        }
        false
    }

    pub(crate) fn node(&self, id: NodeId) -> &Node {
        self.nodes.get(id).unwrap_or(&self.nodes[ANY])
    }
}

struct Compiler<'a> {
    root: &'a Value,
    nodes: Vec<Node>,
    /// `$ref` targets compiled (or being compiled): a cycle ends here.
    refs: HashMap<String, NodeId>,
}

// Keywords that say nothing about which values are accepted.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$defs",
    "title",
    "description",
    "x-contract-version",
    "examples",
    "default",
];

impl<'a> Compiler<'a> {
    fn reference(&mut self, target: &str) -> NodeId {
        if let Some(&id) = self.refs.get(target) {
            return id;
        }
        let schema = match target.strip_prefix('#') {
            Some(pointer) => self.root.pointer(pointer),
            None => None,
        };
        let Some(schema) = schema else {
            return ANY;
        };
        // The slot is taken before the body is compiled, so that a `$ref`
        // back to it resolves to this id.
        let id = self.nodes.len();
        self.nodes.push(Node::default());
        self.refs.insert(target.to_owned(), id);
        let node = self.node(schema);
        if let Some(slot) = self.nodes.get_mut(id) {
            *slot = node;
        }
        id
    }

    fn compile(&mut self, schema: &'a Value) -> NodeId {
        if let Some(Value::String(target)) = schema.get("$ref") {
            return self.reference(target);
        }
        let node = self.node(schema);
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn node(&mut self, schema: &'a Value) -> Node {
        let Value::Object(map) = schema else {
            return any();
        };
        if let Some(Value::String(target)) = map.get("$ref") {
            let id = self.reference(target);
            return Node {
                types: 0,
                or: Some(id),
                ..Node::default()
            };
        }
        if let Some(any_of) = map.get("anyOf") {
            return self.nullable(any_of);
        }
        if let Some(one_of) = map.get("oneOf") {
            return self.union(one_of);
        }
        let mut node = Node {
            types: type_bits(map.get("type")),
            ..Node::default()
        };
        for (keyword, value) in map {
            let understood = match keyword.as_str() {
                "type" | "required" | "properties" | "additionalProperties" => true,
                "allOf" => when_rules(value),
                "x-contract-rules" => true,
                "minLength" => set(&mut node.text.min_len, value),
                "maxLength" => set(&mut node.text.max_len, value),
                "format" => {
                    node.text.date = value == "date";
                    node.text.format = match value.as_str() {
                        Some("date-time") => Some(Format::DateTime),
                        Some("email") => Some(Format::Email),
                        Some("uuid") => Some(Format::Uuid),
                        _ => None,
                    };
                    node.text.date || node.text.format.is_some()
                }
                "pattern" if map.get("format").is_some_and(|f| f == "date") => {
                    value == Date::PATTERN
                }
                "pattern" => {
                    node.text.pattern = value
                        .as_str()
                        .and_then(|p| regex_lite::Regex::new(&engine_form(p)).ok());
                    node.text.pattern.is_some()
                }
                "minimum" => {
                    node.number.minimum = Bound::of(value);
                    node.number.minimum.is_some()
                }
                "maximum" => {
                    node.number.maximum = Bound::of(value);
                    node.number.maximum.is_some()
                }
                "enum" | "const" => self.allowed(&mut node, keyword == "const", value),
                "items" => {
                    let items = self.compile(value);
                    node.items = Some(Items {
                        node: items,
                        min: None,
                        max: None,
                    });
                    true
                }
                "minItems" | "maxItems" => true,
                _ => ANNOTATIONS.contains(&keyword.as_str()),
            };
            node.unsure |= !understood;
        }
        if let Some(items) = &mut node.items {
            items.min = count(map.get("minItems"));
            items.max = count(map.get("maxItems"));
        } else if map.contains_key("minItems") || map.contains_key("maxItems") {
            node.unsure = true;
        }
        if map.contains_key("properties") || map.contains_key("additionalProperties") {
            node.object = Some(self.object(map));
        }
        node
    }

    // `anyOf: [X, {"type": "null"}]`: null, or X. Any other `anyOf` is not
    // understood.
    fn nullable(&mut self, any_of: &'a Value) -> Node {
        let null = serde_json::json!({ "type": "null" });
        match any_of.as_array().map(Vec::as_slice) {
            Some([x, n]) | Some([n, x]) if *n == null && *x != null => {
                let id = self.compile(x);
                Node {
                    types: types::NULL,
                    or: Some(id),
                    ..Node::default()
                }
            }
            _ => any(),
        }
    }

    // `oneOf` of closed objects that share a required member whose value is
    // a `const` string in each: a tagged union. Anything else is not
    // understood.
    fn union(&mut self, one_of: &'a Value) -> Node {
        let Some(alternatives) = one_of.as_array() else {
            return any();
        };
        let resolved: Vec<&Value> = alternatives
            .iter()
            .map(|a| match a.get("$ref").and_then(Value::as_str) {
                Some(target) => target
                    .strip_prefix('#')
                    .and_then(|p| self.root.pointer(p))
                    .unwrap_or(&Value::Null),
                None => a,
            })
            .collect();
        let Some(first) = resolved.first() else {
            return any();
        };
        let tag_of = |alternative: &Value, name: &str| -> Option<String> {
            let required = alternative.get("required")?.as_array()?;
            if !required.iter().any(|r| r == name) {
                return None;
            }
            let value = alternative.get("properties")?.get(name)?.get("const")?;
            value.as_str().map(str::to_owned)
        };
        let names: Vec<String> = first
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        let Some(tag) = names
            .into_iter()
            .find(|name| resolved.iter().all(|a| tag_of(a, name).is_some()))
        else {
            return any();
        };
        let mut variants = Vec::new();
        for (alternative, schema) in resolved.iter().zip(alternatives) {
            let Some(value) = tag_of(alternative, &tag) else {
                return any();
            };
            variants.push((value, self.compile(schema)));
        }
        Node {
            types: types::OBJECT,
            union: Some(Union { tag, variants }),
            ..Node::default()
        }
    }

    fn object(&mut self, map: &'a Map<String, Value>) -> Object {
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let quarantined: Vec<String> = map
            .get(crate::schema::RULES_KEY)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|rule| rule.get("rule").is_some_and(|r| r == "quarantine"))
            .filter_map(|rule| rule.get("pointers").and_then(Value::as_array))
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        let mut object = Object::default();
        if let Some(Value::Object(properties)) = map.get("properties") {
            for (name, schema) in properties {
                let pointer = crate::pointer::child("", name);
                object.members.push(Member {
                    name: name.clone(),
                    node: self.compile(schema),
                    required: required.contains(&name.as_str()),
                    quarantine: quarantined.contains(&pointer),
                    rules: Vec::new(),
                });
            }
        }
        let names: Vec<&str> = object.members.iter().map(|m| m.name.as_str()).collect();
        let quarantine: Vec<bool> = object.members.iter().map(|m| m.quarantine).collect();
        let root = self.root;
        let resolve = |schema: &'a Value| -> &'a Value {
            match schema.get("$ref").and_then(Value::as_str) {
                Some(target) => target
                    .strip_prefix('#')
                    .and_then(|p| root.pointer(p))
                    .unwrap_or(schema),
                None => schema,
            }
        };
        object.rules = rules::compile(map, &names, &quarantine, &resolve);
        for (i, member) in object.members.iter_mut().enumerate() {
            let reading = object.rules.iter().enumerate().filter(|(_, r)| r.reads(i));
            member.rules = reading.map(|(r, _)| r).collect();
        }
        match map.get("additionalProperties") {
            Some(Value::Bool(false)) => object.closed = true,
            Some(other @ Value::Object(_)) => object.other = Some(self.compile(other)),
            _ => {}
        }
        object
    }

    fn allowed(&mut self, node: &mut Node, is_const: bool, value: &Value) -> bool {
        let values: Vec<&Value> = match value {
            Value::Array(values) if !is_const => values.iter().collect(),
            other => vec![other],
        };
        let nullable = values.iter().any(|v| v.is_null());
        let listed: Vec<&Value> = values.into_iter().filter(|v| !v.is_null()).collect();
        // `equals` is `const`, `one_of` and enums are `enum`; a nullable
        // `equals` becomes an `enum` of one value and null, like a nullable
        // `one_of` of one value: the code is then unknown.
        let code = if is_const {
            Some(crate::code::NOT_EQUAL)
        } else if nullable && listed.len() == 1 {
            None
        } else {
            Some(crate::code::NOT_ONE_OF)
        };
        if listed.iter().all(|v| v.is_string()) {
            let strings = listed.iter().filter_map(|v| v.as_str().map(str::to_owned));
            node.text.allowed = Some((strings.collect(), code));
            true
        } else if listed
            .iter()
            .all(|v| v.as_i64().is_some() || v.as_u64().is_some())
        {
            let numbers = listed.iter().filter_map(|v| {
                v.as_i64()
                    .map(i128::from)
                    .or_else(|| v.as_u64().map(i128::from))
            });
            node.number.allowed = Some((numbers.collect(), code));
            true
        } else {
            false
        }
    }
}
