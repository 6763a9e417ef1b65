//! The full schema rewritten for one model provider's structured-output mode.
//!
//! An export is never *looser than the provider needs* in a way that goes
//! unreported: each keyword it leaves out is listed in [`Export::dropped`]
//! with the local check that still enforces it, and each key it makes
//! required although the contract lets it be absent is listed in
//! [`Export::made_required`]. A document valid under the export is valid
//! under the full schema except for the dropped keywords — which
//! `from_json` checks anyway. An export that would need more than dropping
//! (a map under OpenAI, a recursive contract under Anthropic, a limit
//! exceeded) is an [`ExportError`], never a silent truncation.
//!
//! Rewrites that keep the meaning are not reported: a nullable `enum` as
//! `anyOf` of the enum and `{"type": "null"}` (OpenAI, Gemini), a `const` as
//! a one-value `enum` (Gemini). `$schema` and `x-contract-version` are
//! document metadata and are left out of every export.
//!
//! # OpenAI (Structured Outputs, `strict: true`)
//!
//! - the root is an object (not `anyOf`): otherwise [`ExportError::RootNotObject`];
//! - every object has `additionalProperties: false` (a map —
//!   `BTreeMap<String, T>` — is [`ExportError::Unsupported`]) and every
//!   property is in `required`: an `optional` key becomes required
//!   ([`Export::made_required`]). The field's type is left as it is: an
//!   `Option` field is already nullable, and the model writes `null` where it
//!   would have left the key out (the decoder reads `null` and absent alike);
//!   a non-`Option` field with `default` is not made nullable, since the
//!   decoder would refuse `null` — the model always writes a value;
//! - kept: `type` (with `"null"` in a type array), `properties`, `required`,
//!   `additionalProperties`, `items`, `enum`, `const`, `anyOf`, `$ref`,
//!   `$defs`, `title`, `description`, `pattern`, `format` (`date-time`,
//!   `time`, `date`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`, `uuid`),
//!   `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (within
//!   ±2^53), `multipleOf`, `minItems`, `maxItems`;
//! - dropped: `allOf` (with its `if`/`then`/`not`), `minLength`, `maxLength`,
//!   `x-contract-rules`, sibling keywords of `$ref`, a numeric bound beyond
//!   ±2^53 (the 64-bit ranges of `u64`, `i64`, `usize`, `isize`: OpenAI does
//!   not document reading integers past 2^53 exactly, and a rounded bound
//!   or a refused schema is worse than a local check), anything else;
//! - limits, each an [`ExportError::Limit`]: 10 levels of object nesting,
//!   5,000 properties in all, 1,000 enum values in all, 120,000 characters of
//!   property names, definition names, enum values and consts, and 15,000
//!   characters for one string enum of more than 250 values.
//!
//! # Gemini (`responseJsonSchema`)
//!
//! - kept: `$id`, `$defs`, `$ref`, `$anchor`, `type`, `format`, `title`,
//!   `description`, `enum` (strings and numbers), `items`, `minItems`,
//!   `maxItems`, `minimum` and `maximum` (within ±2^53), `anyOf`, `oneOf`,
//!   `properties`, `additionalProperties`, `required`, and
//!   `propertyOrdering`, which the export adds to every object, in field
//!   order;
//! - a numeric bound beyond ±2^53 (the 64-bit ranges of `u64`, `i64`,
//!   `usize`, `isize`) is dropped: the schema travels as a protobuf `Value`,
//!   whose numbers are doubles, so `18446744073709551615` would arrive as
//!   2^64;
//! - a `const` string or number becomes a one-value `enum` (a boolean `const`
//!   is dropped); a nullable `enum` becomes `anyOf` with `{"type": "null"}`;
//! - a `$ref` carries no sibling keywords (they are dropped);
//! - no `default` is ever emitted;
//! - a contract that contains itself through required properties only is
//!   [`ExportError::Recursive`] (Gemini unrolls cycles only through
//!   non-required properties).
//!
//! # Anthropic (`output_config.format`, `json_schema`)
//!
//! - every object has `additionalProperties: false` (a map is
//!   [`ExportError::Unsupported`]);
//! - kept: `type`, `properties`, `required`, `additionalProperties`, `items`,
//!   `enum`, `const`, `anyOf`, `$ref`, `$defs`, `title`, `description`,
//!   `format` (`date-time`, `time`, `date`, `duration`, `email`, `hostname`,
//!   `uri`, `ipv4`, `ipv6`, `uuid`), `minItems` of 0 or 1, `pattern` without
//!   backreferences, lookaround or word boundaries;
//! - dropped: numeric bounds (the integer types' own ranges included),
//!   `minLength`, `maxLength`, `maxItems`, other `minItems`, `allOf`,
//!   `x-contract-rules`, sibling keywords of `$ref`;
//! - no recursion ([`ExportError::Recursive`]);
//! - at most 24 optional properties and 16 union-typed schemas (`anyOf`, or a
//!   type array such as `["string", "null"]`) in all: [`ExportError::Limit`].
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::{RULES_KEY, VERSION_KEY};
use crate::contract::Contract;
use crate::pointer::escape;

/// A model provider whose structured-output mode takes a JSON Schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// OpenAI Structured Outputs (`response_format` `json_schema`, `strict: true`).
    OpenAi,
    /// Google Gemini (`generationConfig.responseJsonSchema`).
    Gemini,
    /// Anthropic (`output_config.format`, type `json_schema`).
    Anthropic,
}

impl Provider {
    /// Every provider.
    pub const ALL: [Provider; 3] = [Provider::OpenAi, Provider::Gemini, Provider::Anthropic];

    /// The provider's name as parsed and serialized: `"openai"`, `"gemini"`, `"anthropic"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Provider::OpenAi => "openai",
            Provider::Gemini => "gemini",
            Provider::Anthropic => "anthropic",
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A provider name that [`Provider::from_str`] does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownProvider(pub String);

impl fmt::Display for UnknownProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown provider `{}`; expected one of: openai, gemini, anthropic",
            self.0
        )
    }
}

impl std::error::Error for UnknownProvider {}

impl FromStr for Provider {
    type Err = UnknownProvider;

    /// `openai`, `gemini` or `anthropic`, in any case.
    ///
    /// ```
    /// use contract_runtime::schema::Provider;
    ///
    /// assert_eq!("OpenAI".parse::<Provider>(), Ok(Provider::OpenAi));
    /// assert!("bard".parse::<Provider>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Provider::ALL
            .into_iter()
            .find(|p| p.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownProvider(s.to_owned()))
    }
}

/// A schema prepared for one provider, and what it leaves to local checks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Export {
    /// The provider it is for.
    pub provider: Provider,
    /// The schema to send.
    pub schema: Value,
    /// The keywords left out, each still enforced locally.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<Dropped>,
    /// Pointers (into the full schema) of properties that the export
    /// requires although the contract lets the key be absent (`optional`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub made_required: Vec<String>,
}

/// One keyword an export leaves out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dropped {
    /// RFC 6901 pointer to the keyword in the full schema
    /// (`/properties/reason/maxLength`): `full.pointer(&dropped.pointer)` is
    /// its value.
    pub pointer: String,
    /// The keyword (`maxLength`).
    pub keyword: String,
    /// The local check that still enforces it, with its error codes.
    pub enforced_by: String,
}

/// Why a schema cannot be exported for a provider.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportError {
    /// The provider needs an object at the root (OpenAI).
    RootNotObject {
        /// The provider.
        provider: Provider,
    },
    /// A construct the provider cannot take, and that cannot be dropped
    /// without changing what the model may produce.
    Unsupported {
        /// The provider.
        provider: Provider,
        /// RFC 6901 pointer into the full schema.
        pointer: String,
        /// What is unsupported and what to do instead.
        reason: &'static str,
    },
    /// The contract contains itself, and the provider does not take that.
    Recursive {
        /// The provider.
        provider: Provider,
        /// Pointer of the definition that refers back to itself (`""` is the root).
        pointer: String,
    },
    /// A size limit of the provider is exceeded.
    Limit {
        /// The provider.
        provider: Provider,
        /// Which limit (`"levels of object nesting"`).
        limit: &'static str,
        /// The provider's maximum.
        max: usize,
        /// What the schema has.
        found: usize,
    },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::RootNotObject { provider } => write!(
                f,
                "{provider} needs an object at the root of the schema: wrap the value in a contract struct"
            ),
            ExportError::Unsupported {
                provider,
                pointer,
                reason,
            } => write!(
                f,
                "{provider} cannot take the schema at `{pointer}`: {reason}"
            ),
            ExportError::Recursive { provider, pointer } => write!(
                f,
                "{provider} does not take this recursive schema (the definition at `{pointer}` contains itself)"
            ),
            ExportError::Limit {
                provider,
                limit,
                max,
                found,
            } => write!(
                f,
                "{provider} takes at most {max} {limit}; this schema has {found}"
            ),
        }
    }
}

impl std::error::Error for ExportError {}

/// `T`'s schema prepared for `provider`.
///
/// ```
/// use contract_runtime::Contract;
/// use contract_runtime::schema::{export, Provider};
///
/// #[derive(Contract)]
/// struct Reply {
///     #[contract(min_len = 1, max_len = 200)]
///     text: String,
///     #[contract(optional)]
///     mood: Option<String>,
/// }
///
/// let openai = export::<Reply>(Provider::OpenAi).unwrap();
/// assert_eq!(openai.schema["required"], serde_json::json!(["text", "mood"]));
/// assert_eq!(openai.made_required, ["/properties/mood"]);
/// let dropped: Vec<_> = openai.dropped.iter().map(|d| d.pointer.as_str()).collect();
/// assert_eq!(dropped, ["/properties/text/minLength", "/properties/text/maxLength"]);
/// assert!(openai.dropped[0].enforced_by.contains("too_short"));
///
/// let gemini = export::<Reply>(Provider::Gemini).unwrap();
/// assert_eq!(gemini.schema["propertyOrdering"], serde_json::json!(["text", "mood"]));
/// ```
pub fn export<T: Contract>(provider: Provider) -> Result<Export, ExportError> {
    export_schema(&T::json_schema(), provider)
}

/// A full schema (as [`document`](super::document) builds it) prepared for
/// `provider`; see [`export`].
pub fn export_schema(schema: &Value, provider: Provider) -> Result<Export, ExportError> {
    let mut exporter = Exporter {
        provider,
        dropped: Vec::new(),
        made_required: Vec::new(),
    };
    let out = exporter.node(schema, "")?;
    match provider {
        Provider::OpenAi => {
            if out.get("type") != Some(&json!("object")) || out.get("anyOf").is_some() {
                return Err(ExportError::RootNotObject { provider });
            }
            openai_limits(&out)?;
        }
        Provider::Gemini => no_cycles(&out, provider, true)?,
        Provider::Anthropic => {
            no_cycles(&out, provider, false)?;
            anthropic_limits(&out)?;
        }
    }
    Ok(Export {
        provider,
        schema: out,
        dropped: exporter.dropped,
        made_required: exporter.made_required,
    })
}

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

const WHEN_RULES: &str = "from_json, rule stage: the `when` rules (`required` / `forbidden`)";
const ANNOTATION: &str =
    "nothing to enforce: an annotation (the referenced definition keeps its own)";

struct Exporter {
    provider: Provider,
    dropped: Vec<Dropped>,
    made_required: Vec<String>,
}

fn child(ptr: &str, segment: &str) -> String {
    format!("{ptr}/{}", escape(segment))
}

impl Exporter {
    fn drop(&mut self, ptr: &str, keyword: &str, enforced_by: impl Into<String>) {
        self.dropped.push(Dropped {
            pointer: child(ptr, keyword),
            keyword: keyword.to_owned(),
            enforced_by: enforced_by.into(),
        });
    }

    fn node(&mut self, node: &Value, ptr: &str) -> Result<Value, ExportError> {
        let Value::Object(map) = node else {
            return Ok(node.clone());
        };
        if map.contains_key("$ref") {
            return Ok(self.reference(map, ptr));
        }
        if self.provider != Provider::Anthropic
            && matches!(map.get("enum"), Some(Value::Array(values)) if values.iter().any(Value::is_null))
        {
            return self.null_branch(map, ptr);
        }
        let mut out = Map::new();
        for (key, value) in map {
            self.keyword(map, key, value, ptr, &mut out)?;
        }
        Ok(Value::Object(out))
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
                    let values = values.iter().filter(|v| !v.is_null()).cloned().collect();
                    core.insert(key.clone(), Value::Array(values));
                }
                _ => {
                    core.insert(key.clone(), value.clone());
                }
            }
        }
        let core = self.node(&Value::Object(core), ptr)?;
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
                    Provider::Anthropic => {}
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
                _ if provider == Provider::Gemini => {
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
            "anyOf" | "oneOf" if key == "anyOf" || provider == Provider::Gemini => {
                let Value::Array(branches) = value else {
                    self.drop(ptr, key, "from_json: the full contract");
                    return Ok(());
                };
                let mut converted = Vec::with_capacity(branches.len());
                for (i, branch) in branches.iter().enumerate() {
                    converted.push(self.node(branch, &child(&child(ptr, key), &i.to_string()))?);
                }
                out.insert(key.into(), Value::Array(converted));
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
            "allOf" => self.drop(ptr, key, WHEN_RULES),
            RULES_KEY => self.drop(ptr, key, rules_enforced_by(value)),
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
                _ => matches!(
                    key,
                    "$id"
                        | "$anchor"
                        | "type"
                        | "format"
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
                "pattern" => value.as_str().is_some_and(simple_pattern),
                "minItems" => matches!(value.as_u64(), Some(0 | 1)),
                _ => matches!(key, "type" | "enum" | "const" | "title" | "description"),
            },
        }
    }
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

fn required_of(node: &Map<String, Value>) -> BTreeSet<&str> {
    match node.get("required") {
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => BTreeSet::new(),
    }
}

/// The local check behind a dropped keyword.
fn enforced_by(keyword: &str, node: &Map<String, Value>) -> &'static str {
    let date = node.get("format").and_then(Value::as_str) == Some("date");
    match keyword {
        "minLength" | "minItems" => "from_json, schema stage: `too_short`",
        "maxLength" | "maxItems" => "from_json, schema stage: `too_long`",
        "minimum" | "exclusiveMinimum" => {
            "from_json, schema stage: `below_minimum` (`out_of_range` for the Rust type's own range)"
        }
        "maximum" | "exclusiveMaximum" => {
            "from_json, schema stage: `above_maximum` (`out_of_range` for the Rust type's own range)"
        }
        "pattern" | "format" if date => {
            "from_json, schema stage: `invalid_date` (a strict, calendar-valid YYYY-MM-DD)"
        }
        "const" => "from_json, schema stage: `not_equal`",
        "enum" => "from_json, schema stage: `not_one_of`",
        _ => "from_json: the full contract",
    }
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
fn simple_pattern(pattern: &str) -> bool {
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
fn resolve<'v>(root: &'v Value, reference: &str) -> Option<(&'v Value, String)> {
    let pointer = reference.strip_prefix('#')?;
    root.pointer(pointer)
        .map(|target| (target, pointer.to_owned()))
}

/// The `$ref`s below `node` (not inside other definitions), with whether
/// each is reached through required properties only.
fn references<'v>(node: &'v Value, via_required: bool, out: &mut Vec<(&'v str, bool)>) {
    if let Some(r) = node.get("$ref").and_then(Value::as_str) {
        out.push((r, via_required));
    }
    for (sub, required) in children(node, via_required) {
        references(sub, required, out);
    }
}

/// Fails on a definition that reaches itself (for Gemini, only through
/// required properties).
fn no_cycles(root: &Value, provider: Provider, required_only: bool) -> Result<(), ExportError> {
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
            let Some((_, target)) = resolve(root, reference) else {
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

fn limit(
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
        let Some((target, at)) = resolve(root, reference) else {
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

fn chars(value: &Value) -> usize {
    value.as_str().map_or(0, |s| s.chars().count())
}

fn openai_limits(root: &Value) -> Result<(), ExportError> {
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
    limit(provider, "object properties in all", 5_000, properties)?;
    limit(provider, "enum values in all", 1_000, enum_values)?;
    limit(
        provider,
        "characters of property names, definition names, enum values and consts",
        120_000,
        text,
    )?;
    limit(
        provider,
        "characters in one string enum of more than 250 values",
        15_000,
        largest_enum_text,
    )
}

fn anthropic_limits(root: &Value) -> Result<(), ExportError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        assert!(simple_pattern("^[0-9]{4}-[0-9]{2}-[0-9]{2}$"));
        assert!(simple_pattern(r"^\d+(\.\d+)?$"));
        assert!(simple_pattern(r"(?:ab)+"));
        assert!(!simple_pattern(r"(a)\1"));
        assert!(!simple_pattern(r"(?<n>a)\k<n>"));
        assert!(!simple_pattern(r"a(?=b)"));
        assert!(!simple_pattern(r"a(?!b)"));
        assert!(!simple_pattern(r"(?<=a)b"));
        assert!(!simple_pattern(r"(?<!a)b"));
        assert!(!simple_pattern(r"\bword\b"));
        assert!(simple_pattern(r"a\\b"));
    }

    #[test]
    fn provider_names() {
        for p in Provider::ALL {
            assert_eq!(p.as_str().parse::<Provider>(), Ok(p));
            assert_eq!(serde_json::to_value(p).ok(), Some(json!(p.as_str())));
        }
        assert_eq!(
            "x".parse::<Provider>().map_err(|e| e.to_string()),
            Err("unknown provider `x`; expected one of: openai, gemini, anthropic".to_owned())
        );
    }
}
