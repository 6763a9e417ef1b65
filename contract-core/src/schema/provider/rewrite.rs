//! The per-provider rewrite: which keywords each provider keeps, drops or
//! rewrites, and which local check enforces what is dropped.
use std::collections::BTreeSet;

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use super::formats::{Syntax, exact_pattern, syntax};
use super::words;
use super::{Dropped, ExportError, Provider};
use crate::pointer::child;
use crate::schema::{RULES_KEY, VERSION_KEY};

const OPENAI_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

const ANTHROPIC_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// The formats that llguidance and Outlines both compile (Outlines
/// refuses `duration`, `hostname`, `ipv4` and `ipv6`).
const LOCAL_FORMATS: &[&str] = &["date-time", "time", "date", "email", "uri", "uuid"];

/// Gemini documents `format` for strings as `date-time`, `date` and `time`
/// only.
const GEMINI_FORMATS: &[&str] = &["date-time", "date", "time"];

const WHEN_RULES: &str = "from_json, rule stage: the `when` rules (`required` / `forbidden`)";

const ANNOTATION: &str =
    "nothing to enforce: an annotation (the referenced definition keeps its own)";

pub(super) struct Exporter {
    pub(super) provider: Provider,
    pub(super) dropped: Vec<Dropped>,
    pub(super) made_required: Vec<String>,
    /// Pointers of the `allOf`s of `when` rules lowered into `anyOf`.
    pub(super) lowered: Vec<String>,
    /// Whether `when` rules may be lowered (not when that exceeds a limit).
    pub(super) lower_rules: bool,
}

impl Exporter {
    pub(super) fn drop(&mut self, ptr: &str, keyword: &str, enforced_by: impl Into<String>) {
        self.dropped.push(Dropped {
            pointer: child(ptr, keyword),
            keyword: keyword.to_owned(),
            enforced_by: enforced_by.into(),
        });
    }

    pub(super) fn node(&mut self, node: &Value, ptr: &str) -> Result<Value, ExportError> {
        let Value::Object(map) = node else {
            return Ok(node.clone());
        };
        if map.contains_key("$ref") {
            return Ok(self.reference(map, ptr));
        }
        if self.null_as_branch(map) {
            return self.null_branch(map, ptr);
        }
        let mut out = Map::new();
        // Where a dropped `allOf` goes in `dropped`: in the full schema's order.
        let mut all_of_at = None;
        for (key, value) in map {
            if key == "allOf" {
                all_of_at = Some(self.dropped.len());
            }
            self.keyword(map, key, value, ptr, &mut out)?;
        }
        if let Some(syntax) = self.local_syntax(map) {
            words::append(&mut out, &words::format_syntax(syntax));
        }
        let lowered = match map.get("allOf") {
            Some(rules) if self.lowers(ptr) => self.lower(map, rules, ptr, &mut out)?,
            _ => false,
        };
        if let Some(at) = all_of_at
            && !lowered
        {
            self.drop(ptr, "allOf", WHEN_RULES);
            if let Some(entry) = self.dropped.pop() {
                self.dropped.insert(at.min(self.dropped.len()), entry);
            }
        }
        words::state_local_rules(map, lowered, &mut out);
        Ok(Value::Object(out))
    }

    /// Whether `when` rules are lowered into an `anyOf` at `ptr`: OpenAI
    /// forbids `anyOf` at the root.
    fn lowers(&self, ptr: &str) -> bool {
        self.lower_rules && !(self.provider == Provider::OpenAi && ptr.is_empty())
    }

    /// Whether a nullable schema goes out as `anyOf` of the schema and
    /// `{"type": "null"}`: a nullable `enum` everywhere but Anthropic (whose
    /// client sends an `enum` that holds `null` as it is); a type array
    /// for Anthropic (its client raises on one) and local engines.
    fn null_as_branch(&self, map: &Map<String, Value>) -> bool {
        let null_enum = matches!(map.get("enum"), Some(Value::Array(values)) if values.iter().any(Value::is_null));
        let null_type = matches!(map.get("type"), Some(Value::Array(types)) if types.len() > 1 && types.iter().any(|t| t == "null"));
        match self.provider {
            Provider::OpenAi | Provider::Gemini => null_enum,
            Provider::Anthropic => null_type && !null_enum && !map.contains_key("const"),
            Provider::Local => null_enum || null_type,
        }
    }

    /// A `$ref` alone: every provider reads a `$ref` without siblings.
    fn reference(&mut self, map: &Map<String, Value>, ptr: &str) -> Value {
        let mut out = Map::new();
        for (key, value) in map {
            if key == "$ref" {
                out.insert(key.clone(), value.clone());
            } else {
                self.drop(ptr, key, ANNOTATION);
            }
        }
        Value::Object(out)
    }

    /// `{"type": [T, "null"], "enum": [.., null]}` as
    /// `{"anyOf": [{"type": T, "enum": [..]}, {"type": "null"}]}`.
    fn null_branch(&mut self, map: &Map<String, Value>, ptr: &str) -> Result<Value, ExportError> {
        let mut core = Map::new();
        let mut notes = Map::new();
        for (key, value) in map {
            match (key.as_str(), value) {
                ("description" | "title", _) => {
                    notes.insert(key.clone(), value.clone());
                }
                ("type", Value::Array(types)) => {
                    let types: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
                    let t = match types.as_slice() {
                        [one] => (*one).clone(),
                        _ => Value::Array(types.into_iter().cloned().collect()),
                    };
                    core.insert(key.clone(), t);
                }
                ("enum", Value::Array(values)) => {
                    let mut values: Vec<Value> =
                        values.iter().filter(|v| !v.is_null()).cloned().collect();
                    // One value left is a `const` (Gemini's rewrite makes it
                    // a one-value `enum` again).
                    match (values.pop(), values.is_empty()) {
                        (Some(only), true) => core.insert("const".into(), only),
                        (last, _) => {
                            values.extend(last);
                            core.insert(key.clone(), Value::Array(values))
                        }
                    };
                }
                _ => {
                    core.insert(key.clone(), value.clone());
                }
            }
        }
        let mut core = self.node(&Value::Object(core), ptr)?;
        // What the conversion said in words goes beside the branches, with
        // the notes (the core kept no description of its own).
        if let Value::Object(core) = &mut core
            && let Some(Value::String(text)) = core.remove("description")
        {
            words::append(&mut notes, &text);
        }
        let mut out = Map::new();
        out.insert("anyOf".into(), json!([core, { "type": "null" }]));
        out.extend(notes);
        Ok(Value::Object(out))
    }

    fn keyword(
        &mut self,
        node: &Map<String, Value>,
        key: &str,
        value: &Value,
        ptr: &str,
        out: &mut Map<String, Value>,
    ) -> Result<(), ExportError> {
        let provider = self.provider;
        match key {
            // Document metadata, not a check: not reported.
            "$schema" | VERSION_KEY if ptr.is_empty() => {}
            "properties" => {
                let Value::Object(props) = value else {
                    self.drop(ptr, key, "from_json: the full contract");
                    return Ok(());
                };
                let mut converted = Map::new();
                for (name, sub) in props {
                    let at = child(&child(ptr, "properties"), name);
                    converted.insert(name.clone(), self.node(sub, &at)?);
                }
                out.insert(key.into(), Value::Object(converted));
                let names: Vec<Value> = props.keys().map(|k| json!(k)).collect();
                match provider {
                    Provider::OpenAi => {
                        let required = required_of(node);
                        for name in props.keys() {
                            if !required.contains(name.as_str()) {
                                self.made_required
                                    .push(child(&child(ptr, "properties"), name));
                            }
                        }
                        out.insert("required".into(), Value::Array(names));
                    }
                    Provider::Gemini => {
                        out.insert("propertyOrdering".into(), Value::Array(names));
                    }
                    Provider::Anthropic | Provider::Local => {}
                }
            }
            "required" => {
                // OpenAI's `required` (every property) went out with `properties`.
                if provider != Provider::OpenAi || !node.contains_key("properties") {
                    out.insert(key.into(), value.clone());
                }
            }
            "items" => {
                let sub = self.node(value, &child(ptr, key))?;
                out.insert(key.into(), sub);
            }
            "additionalProperties" => match value {
                Value::Bool(false) => {
                    out.insert(key.into(), value.clone());
                }
                _ if matches!(provider, Provider::Gemini | Provider::Local) => {
                    let sub = self.node(value, &child(ptr, key))?;
                    out.insert(key.into(), sub);
                }
                _ => {
                    return Err(ExportError::Unsupported {
                        provider,
                        pointer: child(ptr, key),
                        reason: "a map (`BTreeMap<String, T>`, `additionalProperties` with a schema): this provider needs `additionalProperties: false` on every object; declare a contract struct, or a `Vec` of key/value structs",
                    });
                }
            },
            // A `oneOf` is a tagged union's (the derive emits no other): its
            // branches exclude each other by the tag's `const`, so `anyOf`,
            // which every provider takes, says the same.
            "anyOf" | "oneOf" => {
                let Value::Array(branches) = value else {
                    self.drop(ptr, key, "from_json: the full contract");
                    return Ok(());
                };
                let mut converted = Vec::with_capacity(branches.len());
                for (i, branch) in branches.iter().enumerate() {
                    converted.push(self.node(branch, &child(&child(ptr, key), &i.to_string()))?);
                }
                out.insert("anyOf".into(), Value::Array(converted));
            }
            "$defs" => {
                let Value::Object(defs) = value else {
                    self.drop(ptr, key, "from_json: the full contract");
                    return Ok(());
                };
                let mut converted = Map::new();
                for (name, def) in defs {
                    converted.insert(
                        name.clone(),
                        self.node(def, &child(&child(ptr, key), name))?,
                    );
                }
                out.insert(key.into(), Value::Object(converted));
            }
            // Lowered or dropped by `node`, once the properties are converted.
            "allOf" => {}
            RULES_KEY => self.drop(ptr, key, rules_enforced_by(value)),
            "format" | "pattern" if self.exact_format(node).is_some() => {
                self.exact(node, key, value, ptr, out);
            }
            // Kept, but read by the provider its own way: the decoder's
            // syntax stays local.
            "format" if self.allows(key, value) && self.local_syntax(node).is_some() => {
                out.insert(key.into(), value.clone());
                self.drop(ptr, key, read_loosely(node));
            }
            // Anthropic's client sends an `enum` or `const` without the
            // `type` beside it; the values say the type.
            "type" if provider == Provider::Anthropic && anthropic_literal(node) => {}
            "const" if provider == Provider::Gemini => match value {
                Value::String(_) | Value::Number(_) => {
                    out.insert("enum".into(), json!([value]));
                }
                _ => self.drop(ptr, key, enforced_by(key, node)),
            },
            _ if self.allows(key, value) => {
                out.insert(key.into(), value.clone());
            }
            _ => self.drop(ptr, key, enforced_by(key, node)),
        }
        Ok(())
    }

    /// The exact pattern of `node`'s `format`, for a provider that
    /// enforces `pattern` (OpenAI, Local; see [`formats`]).
    fn exact_format(&self, node: &Map<String, Value>) -> Option<&'static str> {
        if !matches!(self.provider, Provider::OpenAi | Provider::Local) {
            return None;
        }
        node.get("format")
            .and_then(Value::as_str)
            .and_then(exact_pattern)
    }

    /// The decoder's syntax for `node`'s `format` when the export does not
    /// send it as the exact pattern: under Gemini and Anthropic, which take
    /// no `pattern`, and beside a pattern of the contract's own. Reported
    /// in `dropped` at the `format` (kept or not) and said in words in the
    /// node's `description`.
    fn local_syntax(&self, node: &Map<String, Value>) -> Option<Syntax> {
        let syntax = node
            .get("format")
            .and_then(Value::as_str)
            .and_then(syntax)?;
        let sent = self.exact_format(node).is_some() && own_pattern(node).is_none();
        (!sent).then_some(syntax)
    }

    /// `format` and `pattern` of a node whose format has an exact pattern:
    /// the exact pattern goes out in the place of the `format` (Local,
    /// whose engines each read `format` their own way) or beside it
    /// (OpenAI), and replaces a date's shape pattern, which it implies. A
    /// pattern of the contract's own is kept as it is; then Local leaves
    /// the `format` to the decoder (one pattern only fits in a schema).
    fn exact(
        &mut self,
        node: &Map<String, Value>,
        key: &str,
        value: &Value,
        ptr: &str,
        out: &mut Map<String, Value>,
    ) {
        let Some(exact) = self.exact_format(node) else {
            return;
        };
        match (key, own_pattern(node)) {
            ("format", own) => {
                if self.provider == Provider::OpenAi {
                    out.insert(key.into(), value.clone());
                }
                match own {
                    None => {
                        out.insert("pattern".into(), json!(exact));
                    }
                    Some(_) if self.provider == Provider::Local => {
                        self.drop(ptr, key, enforced_by(key, node));
                    }
                    Some(_) => self.drop(ptr, key, read_loosely(node)),
                }
            }
            // The contract's own pattern; a date's shape pattern went out
            // as the exact one.
            (_, Some(_)) if self.allows(key, value) => {
                out.insert(key.into(), value.clone());
            }
            (_, Some(_)) => self.drop(ptr, key, enforced_by(key, node)),
            (_, None) => {}
        }
    }

    /// Whether a keyword with no subschemas is kept as it is.
    fn allows(&self, key: &str, value: &Value) -> bool {
        match self.provider {
            Provider::OpenAi => match key {
                "format" => value.as_str().is_some_and(|f| OPENAI_FORMATS.contains(&f)),
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
                    exact_as_f64(value)
                }
                _ => matches!(
                    key,
                    "type"
                        | "enum"
                        | "const"
                        | "title"
                        | "description"
                        | "pattern"
                        | "multipleOf"
                        | "minItems"
                        | "maxItems"
                ),
            },
            Provider::Gemini => match key {
                "minimum" | "maximum" => exact_as_f64(value),
                "format" => value.as_str().is_some_and(|f| GEMINI_FORMATS.contains(&f)),
                _ => matches!(
                    key,
                    "$id"
                        | "$anchor"
                        | "type"
                        | "title"
                        | "description"
                        | "enum"
                        | "minItems"
                        | "maxItems"
                ),
            },
            Provider::Anthropic => match key {
                "format" => value
                    .as_str()
                    .is_some_and(|f| ANTHROPIC_FORMATS.contains(&f)),
                "minItems" => matches!(value.as_u64(), Some(0 | 1)),
                "const" => is_primitive(value),
                "enum" => value
                    .as_array()
                    .is_some_and(|v| !v.is_empty() && v.iter().all(is_primitive)),
                _ => matches!(key, "type" | "title" | "description"),
            },
            Provider::Local => match key {
                "format" => value.as_str().is_some_and(|f| LOCAL_FORMATS.contains(&f)),
                "pattern" => value.as_str().is_some_and(simple_pattern),
                "minimum" | "maximum" => exact_as_f64(value),
                _ => matches!(
                    key,
                    "type"
                        | "enum"
                        | "const"
                        | "title"
                        | "description"
                        | "minLength"
                        | "maxLength"
                        | "minItems"
                        | "maxItems"
                ),
            },
        }
    }
}

/// A `pattern` of the contract's own beside a `format` (a date's shape
/// pattern, which the exact pattern implies, is not one).
fn own_pattern(node: &Map<String, Value>) -> Option<&Value> {
    node.get("pattern")
        .filter(|p| p.as_str() != Some(crate::Date::PATTERN))
}

/// A JSON value Anthropic's client keeps in an `enum` or `const`.
fn is_primitive(value: &Value) -> bool {
    !matches!(value, Value::Array(_) | Value::Object(_))
}

/// Whether Anthropic keeps this schema's `enum` or `const`, and so leaves
/// out its `type`.
fn anthropic_literal(node: &Map<String, Value>) -> bool {
    let kept_enum = matches!(node.get("enum"), Some(Value::Array(v)) if !v.is_empty() && v.iter().all(is_primitive));
    let kept_const = node.get("const").is_some_and(is_primitive);
    kept_enum || kept_const
}

/// Whether a numeric bound is a number an `f64` holds exactly: a float, or
/// an integer within ±2^53. Beyond that the 64-bit ranges of `u64` and
/// `i64` (`18446744073709551615`) would arrive rounded, or be refused, by a
/// provider that reads numbers as doubles.
fn exact_as_f64(value: &Value) -> bool {
    const EXACT: u64 = 1 << 53;
    match value {
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u <= EXACT,
            (None, Some(i)) => i.unsigned_abs() <= EXACT,
            (None, None) => true,
        },
        _ => true,
    }
}

pub(super) fn required_of(node: &Map<String, Value>) -> BTreeSet<&str> {
    match node.get("required") {
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => BTreeSet::new(),
    }
}

/// The local check behind a `format` the export sends, but whose exact
/// syntax it does not.
fn read_loosely(node: &Map<String, Value>) -> Cow<'static, str> {
    match node.get("format").and_then(Value::as_str).and_then(syntax) {
        Some(Syntax { code, rule }) => Cow::Owned(format!(
            "from_json, schema stage: `{code}` (the exact syntax: {rule}; the target reads `format` its own way, more loosely)"
        )),
        None => Cow::Borrowed("from_json: the full contract"),
    }
}

/// The local check behind a dropped keyword.
fn enforced_by(keyword: &str, node: &Map<String, Value>) -> Cow<'static, str> {
    let format = node.get("format").and_then(Value::as_str);
    let date = format == Some("date");
    // A date's shape pattern stands for the date's syntax; a pattern of
    // the contract's own is its own check.
    let shape = keyword == "pattern" && date && own_pattern(node).is_none();
    if (keyword == "format" || shape)
        && let Some(Syntax { code, rule }) = format.and_then(syntax)
    {
        return Cow::Owned(format!(
            "from_json, schema stage: `{code}` (the exact syntax: {rule})"
        ));
    }
    Cow::Borrowed(match keyword {
        "minLength" | "minItems" => "from_json, schema stage: `too_short`",
        "maxLength" | "maxItems" => "from_json, schema stage: `too_long`",
        "minimum" | "exclusiveMinimum" => {
            "from_json, schema stage: `below_minimum` (`out_of_range` for the Rust type's own range)"
        }
        "maximum" | "exclusiveMaximum" => {
            "from_json, schema stage: `above_maximum` (`out_of_range` for the Rust type's own range)"
        }
        "pattern" => "from_json, schema stage: `pattern_mismatch`",
        "const" => "from_json, schema stage: `not_equal`",
        "enum" => "from_json, schema stage: `not_one_of`",
        _ => "from_json: the full contract",
    })
}

/// What enforces the entries of `x-contract-rules`.
fn rules_enforced_by(rules: &Value) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for rule in rules.as_array().into_iter().flatten() {
        let part = match rule.get("rule").and_then(Value::as_str) {
            Some("order") => "from_json, rule stage: `order`",
            Some("evidence") => "check_with, business stage: `evidence_not_found`",
            Some("quarantine") => {
                "the decoder: a quarantined value that fails becomes null with a `review` reason"
            }
            Some("check") => "check_with, business stage: the `check` function",
            _ => "the local checks of the contract",
        };
        if !parts.contains(&part) {
            parts.push(part);
        }
    }
    parts.join("; ")
}

/// A regular expression without backreferences, lookaround or word
/// boundaries (Anthropic's supported subset).
pub(super) fn simple_pattern(pattern: &str) -> bool {
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some('1'..='9' | 'k' | 'b' | 'B') = chars.next() {
                    return false;
                }
            }
            '(' if chars.peek() == Some(&'?') => {
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with("?=")
                    || rest.starts_with("?!")
                    || rest.starts_with("?<=")
                    || rest.starts_with("?<!")
                {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}
