//! The full schema rewritten for one model provider's structured-output mode.
//!
//! An export is never *looser than the provider needs* in a way that goes
//! unreported: each keyword it leaves out is listed in [`Export::dropped`]
//! with the local check that still enforces it (so is a `format` it sends
//! but whose exact syntax the provider does not enforce), and each key it makes
//! required although the contract lets it be absent is listed in
//! [`Export::made_required`]. A document valid under the export is valid
//! under the full schema except for the dropped keywords — which
//! `from_json` checks anyway. An export that would need more than dropping
//! (a map under OpenAI, a recursive contract under Anthropic, a limit
//! exceeded) is an [`ExportError`], never a silent truncation.
//!
//! Rewrites that keep the meaning are not reported: a nullable `enum` as
//! `anyOf` of the enum and `{"type": "null"}` (OpenAI, Gemini, Local), a
//! nullable type array the same way (Anthropic, Local), a `const` as
//! a one-value `enum` (Gemini), an `enum` or `const` without its `type`
//! (Anthropic), a tagged union's `oneOf` as `anyOf` (every
//! provider: its branches exclude each other by the tag's `const`, so the
//! two say the same). `$schema` and `x-contract-version` are
//! document metadata and are left out of every export.
//!
//! # What the clients send
//!
//! The providers' Python SDKs rewrite a schema before sending it; each
//! export is a fixpoint of its SDK's rewrite (equal as JSON), so what we
//! export is what the provider receives. `.ci/sdk_check` checks every
//! shipped contract against `openai` 3.57.0
//! (`openai.lib._pydantic._ensure_strict_json_schema`) and `anthropic`
//! 2.14.0 (`anthropic.lib._parse._transform.transform_schema`, which raises
//! on a type array, drops `type` beside `enum`/`const`, and moves every
//! keyword it does not know — `pattern`, bounds, lengths — into the
//! `description`). One exception: the root's `"type": "object"` beside a
//! lowered `anyOf`, which that client drops (it keeps no `type` beside an
//! `anyOf`); it applies its rewrite only to a pydantic type, and a schema
//! given as `output_config.format` is sent as it is.
//!
//! # `when` rules during generation
//!
//! An object's `when` rules (`allOf` of `if`/`then`) are lowered into an
//! `anyOf` of one closed object per condition — the condition's `const`
//! (or `enum`), required fields not null, forbidden fields `null` — for
//! every provider but at OpenAI's root (which must be an object without
//! `anyOf`); [`Export::lowered`] lists them. A lowered root keeps
//! `"type": "object"` beside its `anyOf` (a tool's input schema and an MCP
//! tool's `inputSchema` must state it). The lowered schema accepts
//! exactly the documents the full schema and its rules accept, but for
//! the keywords in [`Export::dropped`]. A rule that is not lowered (OpenAI's
//! root; a condition on a field without finitely many values; a boolean
//! condition under Gemini, which has no boolean `enum`; more than 64
//! branches; a limit the branches would pass) is a dropped `allOf`.
//!
//! # Local rules in words
//!
//! Each rule that stays local is also one sentence in the `description`
//! of its object, so the model reads what it must follow: "When status is
//! complete, start_date and end_date are required and clarification_question
//! must be null.", "end_date is not before start_date.", "raw_quote is
//! copied verbatim from the source text.", "The document is also checked
//! against data you cannot see." (a `check` function). A field whose
//! format's exact syntax stays local says it in its own `description`:
//! "Exact syntax: a strict YYYY-MM-DD calendar date."
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
//! - a `format` the decoder checks (`date`, `date-time`, `uuid`, `email`)
//!   has its exact `pattern` beside it (see below), which OpenAI enforces
//!   whatever its own reading of the `format` (beside a pattern of the
//!   contract's own, which is kept, the syntax stays local);
//! - dropped: `allOf` (with its `if`/`then`/`not`) at the root (a nested
//!   object's `when` rules are lowered), `minLength`, `maxLength`,
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
//!   dropped and stay local; a kept `date` or `date-time` is Gemini's
//!   reading, and its exact syntax is reported in [`Export::dropped`]), `title`,
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
//! - `when` rules lowered at the root too (`anyOf` of objects), except on a
//!   boolean condition;
//! - a contract that contains itself through required properties only is
//!   [`ExportError::Recursive`] (Gemini unrolls cycles only through
//!   non-required properties).
//!
//! # Anthropic (`output_config.format`, `json_schema`)
//!
//! - every object has `additionalProperties: false` (a map is
//!   [`ExportError::Unsupported`]);
//! - kept: `type`, `properties`, `required`, `additionalProperties`, `items`,
//!   `enum` and `const` of strings, numbers, booleans and `null` (without
//!   `type` beside them, as the client sends them), `anyOf`, `$ref`,
//!   `$defs`, `title`, `description`, `format` (`date-time`, `time`,
//!   `date`, `duration`, `email`, `hostname`, `uri`, `ipv4`, `ipv6`,
//!   `uuid`; for `date`, `date-time`, `email` and `uuid` Anthropic's
//!   reading, the exact syntax reported in [`Export::dropped`]),
//!   `minItems` of 0 or 1;
//! - a nullable schema is `anyOf` with `{"type": "null"}` (the client
//!   raises on `"type": ["string", "null"]`), a nullable `enum` keeps
//!   `null` among its values;
//! - dropped: numeric bounds (the integer types' own ranges included),
//!   `minLength`, `maxLength`, `maxItems`, other `minItems`, `pattern`
//!   (the API documents a regex subset, but the `anthropic` client moves
//!   every `pattern` into the description), `allOf` when not lowered,
//!   `x-contract-rules`, sibling keywords of `$ref`;
//! - no recursion ([`ExportError::Recursive`]);
//! - at most 24 optional properties and 16 union-typed schemas (`anyOf`, or a
//!   type array such as `["string", "null"]`) in all: [`ExportError::Limit`].
//!
//! # Local (llguidance, XGrammar, Outlines)
//!
//! The subset the constrained-decoding engines of local inference servers
//! compile: `.ci/sdk_check` compiles every shipped contract's export with
//! `llguidance` 1.9.1 and `outlines-core` 0.2.14 and matches documents
//! through each engine's matcher. XGrammar 0.2.9 is not checked (it
//! requires torch, transformers and triton); its documented JSON Schema
//! support covers the same keywords.
//!
//! - kept: `type`, `properties`, `required`, `additionalProperties` (a map
//!   too), `items`, `enum`, `const`, `anyOf`, `$ref`, `$defs`, `title`,
//!   `description`, `minLength`, `maxLength`, `minItems`, `maxItems`,
//!   `pattern` without backreferences, lookaround or word boundaries,
//!   `format` (`date-time`, `time`, `date`, `email`, `uri`, `uuid`: Outlines
//!   refuses the others), `minimum` and `maximum` within ±2^53 (llguidance
//!   fails on the full `i64` range);
//! - nullable schemas as `anyOf` with `{"type": "null"}`;
//! - a `format` the decoder checks (`date`, `date-time`, `uuid`, `email`)
//!   goes out as its exact `pattern` instead: each engine reads `format` its
//!   own way (Outlines takes a date-time without an offset and `2027-02-30`,
//!   llguidance a leap second and ten fraction digits, both
//!   `ana@[127.0.0.1]`), but all of them enforce a `pattern`. Beside a
//!   pattern of the contract's own, which is kept, the `format` is dropped
//!   and its syntax stays local;
//! - dropped: `allOf` when not lowered, `x-contract-rules`, sibling
//!   keywords of `$ref`, anything else;
//! - Outlines compiles `minimum`/`maximum` but does not enforce them (its
//!   integer regex ignores the bounds): under Outlines they stay local.
//!
//! # Formats as exact patterns
//!
//! Where the decoder's syntax for a `format` is a regular language, the
//! OpenAI and Local exports carry a `pattern` that accepts exactly the
//! strings `from_json` accepts: `date` (calendar-valid `YYYY-MM-DD`, leap
//! years included), `date-time` (RFC 3339 with a mandatory offset, 1 to 9
//! fraction digits, no leap second), `uuid` (8-4-4-4-12 hexadecimal) and
//! `email` (WHATWG's valid e-mail address). It replaces a date's shape
//! pattern (`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`), which it implies. Gemini and
//! Anthropic take no `pattern`: under them the `format` (where kept) is the
//! provider's reading, looser than the decoder's (a leap second, ten
//! fraction digits, an address literal, a date-time without an offset may
//! pass it), and the date's shape pattern is reported dropped.
//!
//! Wherever the exact pattern does not go out — Gemini, Anthropic, and
//! OpenAI and Local beside a pattern of the contract's own — the syntax
//! stays local, and the export says so twice: a [`Dropped`] entry at the
//! field's `format` (keyword `format`, whether the `format` is kept or
//! not) whose `enforced_by` names the decoder's code and rule
//! (`invalid_date_time`: "an RFC 3339 date-time with a mandatory offset,
//! 1–9 fraction digits, no leap second"; `invalid_date`: "a strict
//! YYYY-MM-DD calendar date"; `invalid_uuid`: "a UUID of 8-4-4-4-12
//! hexadecimal digits"; `invalid_email`: "a WHATWG valid e-mail address"),
//! and one sentence in the field's `description` ("Exact syntax: a WHATWG
//! valid e-mail address."; beside a nullable field's `anyOf`, with its
//! other notes), so the model reads the rule it cannot be held to.
//!
//! # Recursion
//!
//! A recursive contract (`children: Vec<Tree>`, `next: Option<Box<Node>>`,
//! two contracts that hold each other, a tagged union whose variants hold
//! the union) has a schema that refers to itself: the root as `"#"`, a
//! definition by its `#/$defs/..` pointer. Each provider, as documented:
//!
//! - OpenAI keeps it: "Recursive schemas are supported", with `#` for root
//!   recursion and `$defs` references for the rest (Structured Outputs
//!   guide, "Supported schemas",
//!   <https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>).
//!   Recursion does not count towards the 10 levels of nesting: a definition
//!   already on the path counts once.
//! - Gemini keeps it only where the cycle passes through a property that is
//!   not required, and unrolls it to a finite depth (Structured output
//!   guide, `responseJsonSchema`,
//!   <https://ai.google.dev/gemini-api/docs/structured-output>); a cycle
//!   through required properties only (a required array of the type itself
//!   counts as one) is [`ExportError::Recursive`] at the definition's
//!   pointer. An `optional` field breaks the cycle.
//! - Anthropic does not take recursive schemas ("JSON Schema limitations",
//!   not supported: recursive schemas,
//!   <https://docs.claude.com/en/docs/build-with-claude/structured-outputs>):
//!   [`ExportError::Recursive`], for every recursive contract.
//!
//! - Local keeps it: llguidance compiles a recursive `$ref` as a grammar
//!   rule; Outlines (`build_regex_from_schema`) unrolls it into a regular
//!   expression of bounded depth, so under Outlines a document nested deeper
//!   than that is refused during generation although the contract accepts it.
//!   In outlines-core 0.2.14 the bound is `max_recursion_depth`, default 3
//!   (`Parser::new`, `src/json_schema/parsing.rs`): a `$ref` resolves while
//!   at most 3 others are open around it, the fifth nested one fails, and a
//!   property whose schema fails so is left out of its object.
//!
//! A refused export is never truncated to a fixed depth behind the caller's
//! back: the caller decides (another provider, a contract without the
//! recursion, or an explicit depth with [`export_unrolled`], whose cut
//! references are in [`Export::dropped`]).
//!
//! This file holds the export's types and entry points; `rewrite` the
//! per-provider keyword rules, `when` the `when` rules read back from the
//! full schema, `lower` those rules as `anyOf`, `words` the rules that stay
//! local in sentences, `request` the request fragments, `limits` what no
//! rewrite can fix (recursion, size and nesting limits), `formats` the
//! exact patterns of the decoder's formats, `unroll` recursion unrolled to
//! a chosen depth.
use std::fmt;
use std::str::FromStr;

use serde_json::{Value, json};

use super::Definition;

mod api;
mod error;
mod formats;
mod limits;
mod lower;
mod request;
mod rewrite;
mod unroll;
mod when;
mod words;

pub use api::{Api, UnknownApi};
pub use error::ExportError;
pub use request::{request_fragment, schema_name};
pub use unroll::{export_schema_unrolled, export_unrolled};

pub(crate) use limits::{OPENAI_MAX_ENUM_VALUES, OPENAI_MAX_PROPERTIES, OPENAI_MAX_TEXT};
use limits::{anthropic_limits, no_cycles, openai_limits};
pub(crate) use limits::{chars, limit};
use rewrite::Exporter;

/// A model provider whose structured-output mode takes a JSON Schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI Structured Outputs (`response_format` `json_schema`, `strict: true`).
    OpenAi,
    /// Google Gemini (`generationConfig.responseJsonSchema`).
    Gemini,
    /// Anthropic (`output_config.format`, type `json_schema`).
    Anthropic,
    /// A local inference server's constrained decoding: the subset that
    /// llguidance, XGrammar and Outlines compile.
    Local,
}

impl Provider {
    /// Every provider.
    pub const ALL: [Provider; 4] = [
        Provider::OpenAi,
        Provider::Gemini,
        Provider::Anthropic,
        Provider::Local,
    ];

    /// The provider's name as parsed and serialized: `"openai"`, `"gemini"`,
    /// `"anthropic"`, `"local"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Provider::OpenAi => "openai",
            Provider::Gemini => "gemini",
            Provider::Anthropic => "anthropic",
            Provider::Local => "local",
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
            "unknown provider `{}`; expected one of: openai, gemini, anthropic, local",
            self.0
        )
    }
}

impl std::error::Error for UnknownProvider {}

impl FromStr for Provider {
    type Err = UnknownProvider;

    /// `openai`, `gemini`, `anthropic` or `local`, in any case.
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
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    /// The provider it is for.
    pub provider: Provider,
    /// The schema to send.
    pub schema: Value,
    /// The keywords left out, each still enforced locally; and the checks
    /// a kept keyword stands for only loosely (a `format` whose exact
    /// syntax the provider does not enforce, a pinned `1.0`), at that
    /// keyword.
    pub dropped: Vec<Dropped>,
    /// Pointers (into the full schema) of properties that the export
    /// requires although the contract lets the key be absent (`optional`).
    pub made_required: Vec<String>,
    /// Pointers (into the full schema) of the `allOf`s of `when` rules that
    /// the export enforces during generation, as an `anyOf` of one closed
    /// object per condition. A `when` rule not lowered is in
    /// [`Export::dropped`] instead, and said in words in the
    /// `description` of its object.
    pub lowered: Vec<String>,
    /// Pointers (into the full schema) of the members bound to this
    /// request's context (`one_of = ctx.FIELD`), whose values the export
    /// carries as an `enum`, in schema order (see [`crate::schema::bound`]);
    /// empty for an export made without a context.
    pub bound: Vec<String>,
}

/// One check an export leaves to the local checks: a keyword it leaves
/// out, or one it sends but the provider reads more loosely than the
/// decoder (a `date`, `date-time`, `uuid` or `email` `format` without its
/// exact pattern: the entry is at the `format`, whether the export kept it
/// or not).
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// A full schema (as [`Contract::json_schema`](crate::Contract::json_schema) returns it) prepared for
/// `provider`; see [`export`].
pub fn export_schema(schema: &Value, provider: Provider) -> Result<Export, ExportError> {
    export_at_depth(schema, provider, None)
}

fn export_at_depth(
    schema: &Value,
    provider: Provider,
    depth: Option<usize>,
) -> Result<Export, ExportError> {
    match export_with(schema, provider, true, depth) {
        // Lowered rules multiply a schema's properties and unions; when
        // that passes a limit, the rules stay local instead.
        Err(ExportError::Limit { .. }) => export_with(schema, provider, false, depth),
        result => result,
    }
}

fn export_with(
    schema: &Value,
    provider: Provider,
    lower_rules: bool,
    depth: Option<usize>,
) -> Result<Export, ExportError> {
    let mut exporter = Exporter {
        provider,
        dropped: Vec::new(),
        made_required: Vec::new(),
        lowered: Vec::new(),
        lower_rules,
    };
    let mut out = exporter.node(schema, "")?;
    if let Some(depth) = depth {
        out = unroll::unroll(&out, provider, depth)?;
        let levels = match unroll::levels(depth) {
            1 => "1 level".to_owned(),
            n => format!("{n} levels"),
        };
        for pointer in unroll::recursive_references(schema) {
            exporter.dropped.push(Dropped {
                pointer,
                keyword: "$ref".to_owned(),
                enforced_by: format!(
                    "from_json: the export follows this reference to {levels} and offers only the alternatives without it at the last; the contract takes deeper documents"
                ),
            });
        }
    }
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
        Provider::Local => {}
    }
    Ok(Export {
        provider,
        schema: out,
        dropped: exporter.dropped,
        made_required: exporter.made_required,
        lowered: exporter.lowered,
        bound: Vec::new(),
    })
}

crate::serial::unit_variants!(Provider);
crate::serial::struct_fields!(Export {
    provider,
    schema,
    dropped if Vec::is_empty,
    made_required if Vec::is_empty,
    lowered if Vec::is_empty,
    bound if Vec::is_empty,
});
crate::serial::struct_fields!(Dropped {
    pointer,
    keyword,
    enforced_by
});

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
            Err(
                "unknown provider `x`; expected one of: openai, gemini, anthropic, local"
                    .to_owned()
            )
        );
    }
}
