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
//! a one-value `enum` (Gemini), a tagged union's `oneOf` as `anyOf` (every
//! provider: its branches exclude each other by the tag's `const`, so the
//! two say the same). `$schema` and `x-contract-version` are
//! document metadata and are left out of every export.
//!
//! # OpenAI (Structured Outputs, `strict: true`)
//!
//! - the root is an object: a tagged union at the root is
//!   [`ExportError::RootUnion`] (wrap it in a struct field), anything else
//!   [`ExportError::RootNotObject`];
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
//! - kept: `$id`, `$defs`, `$ref`, `$anchor`, `type`, `format` (`date-time`,
//!   `date`, `time`: the formats Gemini documents; `email` and `uuid` are
//!   dropped and stay local), `title`,
//!   `description`, `enum` (strings and numbers), `items`, `minItems`,
//!   `maxItems`, `minimum` and `maximum` (within ±2^53), `anyOf`,
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
//!
//! This file holds the export's types and entry points; `rewrite` the
//! per-provider keyword rules, `limits` what no rewrite can fix (recursion,
//! size and nesting limits).
use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use serde_json::{Value, json};

use super::Definition;

mod limits;
mod rewrite;

use limits::{anthropic_limits, no_cycles, openai_limits};
use rewrite::Exporter;

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
    /// The root is a tagged union (`anyOf`), which the provider forbids at
    /// the root (OpenAI).
    RootUnion {
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
            ExportError::RootUnion { provider } => write!(
                f,
                "{provider} forbids `anyOf` at the root, and a tagged union is one: wrap the union in a struct field (`struct Reply {{ step: Step }}`) and export that struct"
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
pub fn export<T: Definition>(provider: Provider) -> Result<Export, ExportError> {
    export_schema(&super::document::<T>(), provider)
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
            // A tagged union is the only `oneOf` the derive emits.
            if schema.get("oneOf").is_some() {
                return Err(ExportError::RootUnion { provider });
            }
            if out.get("type") != Some(&json!("object")) {
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

#[cfg(test)]
mod tests {
    use super::rewrite::simple_pattern;
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
