//! The request fragment each provider's API takes for an export: the
//! value to put where that API reads a structured-output schema.
//!
//! | provider | where the fragment goes | fragment |
//! |---|---|---|
//! | OpenAI | `response_format` (Chat Completions) | `{"type": "json_schema", "json_schema": {"name", "strict": true, "schema"}}` |
//! | Gemini | inside `generationConfig` | `{"responseMimeType": "application/json", "responseJsonSchema": schema}` |
//! | Anthropic | `output_config.format` (Messages API) | `{"type": "json_schema", "schema": schema}` |
//! | Local | `response_format` of an OpenAI-compatible server (vLLM, SGLang, llama.cpp's server) | as OpenAI's |
//!
//! Sources: OpenAI, <https://platform.openai.com/docs/guides/structured-outputs>
//! (`name` must match `^[a-zA-Z0-9_-]{1,64}$`); Gemini,
//! <https://ai.google.dev/gemini-api/docs/structured-output>
//! (`responseJsonSchema` beside `responseMimeType`); Anthropic,
//! <https://platform.claude.com/docs/en/build-with-claude/structured-outputs>
//! (`output_config.format`, which replaced the beta `output_format`; the
//! `anthropic` 2.14.0 Python SDK builds the same `{"type": "json_schema",
//! "schema": ...}` in `lib/_parse/_transform.py`).
use serde_json::{Value, json};

use super::{Export, Provider};

/// The longest `name` OpenAI takes.
const MAX_NAME: usize = 64;

/// `name` as OpenAI's `json_schema.name` takes it: characters outside
/// `[a-zA-Z0-9_-]` become `_`, at most 64 of them, `"response"` if empty.
pub fn schema_name(name: &str) -> String {
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(MAX_NAME)
        .collect();
    if name.is_empty() {
        "response".to_owned()
    } else {
        name
    }
}

/// The request fragment for `export` (see the module docs); `name` is the
/// schema's name where the provider asks for one (OpenAI, Local).
///
/// ```
/// use contract_runtime::Contract;
/// use contract_runtime::schema::{Provider, request_fragment};
///
/// #[derive(Contract)]
/// struct Reply { text: String }
///
/// let openai = request_fragment(&Reply::json_schema_for(Provider::OpenAi).unwrap(), "Reply");
/// assert_eq!(openai["type"], "json_schema");
/// assert_eq!(openai["json_schema"]["name"], "Reply");
/// assert_eq!(openai["json_schema"]["strict"], true);
///
/// let gemini = request_fragment(&Reply::json_schema_for(Provider::Gemini).unwrap(), "Reply");
/// assert_eq!(gemini["responseMimeType"], "application/json");
/// assert_eq!(gemini["responseJsonSchema"]["type"], "object");
/// ```
pub fn request_fragment(export: &Export, name: &str) -> Value {
    let schema = export.schema.clone();
    match export.provider {
        Provider::OpenAi | Provider::Local => json!({
            "type": "json_schema",
            "json_schema": { "name": schema_name(name), "strict": true, "schema": schema },
        }),
        Provider::Gemini => json!({
            "responseMimeType": "application/json",
            "responseJsonSchema": schema,
        }),
        Provider::Anthropic => json!({ "type": "json_schema", "schema": schema }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_names_keep_to_their_alphabet_and_length() {
        assert_eq!(schema_name("VacationRequest"), "VacationRequest");
        assert_eq!(schema_name("Page<Item>"), "Page_Item_");
        assert_eq!(schema_name(""), "response");
        assert_eq!(schema_name(&"a".repeat(70)).len(), 64);
    }
}
