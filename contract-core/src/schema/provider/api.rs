//! The four provider APIs an application talks to, by the wire format of
//! their requests and of their streamed replies.
//!
//! A [`Provider`] names a schema dialect (what [`export`](super::export)
//! rewrites a schema into); an [`Api`] names where a request carries that
//! schema and how its reply streams. The two are not the same list: OpenAI's
//! Chat Completions and Responses APIs enforce the same dialect
//! ([`Provider::OpenAi`]) but carry it in different places and stream
//! different events, so adding the Responses API as a `Provider` would have
//! made two exports of one dialect. [`Api::provider`] says which export an
//! API takes, [`Api::request_fragment`] where it goes, and
//! [`crate::stream::sse`] reads each API's event stream. A local
//! OpenAI-compatible server is [`Provider::Local`]'s export in
//! [`Api::OpenAiChat`]'s request.
use std::fmt;
use std::str::FromStr;

use serde_json::{Value, json};

use super::request::schema_name;
use super::{Export, Provider};

/// A provider API, by the wire format of its requests and streamed replies.
///
/// ```
/// use contract_runtime::schema::{Api, Provider};
///
/// let api: Api = "openai-responses".parse().unwrap();
/// assert_eq!(api, Api::OpenAiResponses);
/// assert_eq!(api.provider(), Provider::OpenAi);
/// assert_eq!(api.to_string(), "openai-responses");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[non_exhaustive]
pub enum Api {
    /// OpenAI Chat Completions (`POST /v1/chat/completions`): the schema
    /// in `response_format`, replies streamed as `chat.completion.chunk`
    /// events ending with `data: [DONE]`. Also what OpenAI-compatible
    /// servers (vLLM, SGLang, llama.cpp's server) speak.
    #[default]
    OpenAiChat,
    /// OpenAI Responses (`POST /v1/responses`): the schema in
    /// `text.format`, replies streamed as typed events
    /// (`response.output_text.delta`, `response.function_call_arguments.delta`).
    OpenAiResponses,
    /// Anthropic Messages (`POST /v1/messages`): the schema in
    /// `output_config.format`, replies streamed as `content_block_*` events.
    Anthropic,
    /// Google Gemini (`:streamGenerateContent?alt=sse`): the schema in
    /// `generationConfig`, replies streamed as `GenerateContentResponse`
    /// chunks.
    Gemini,
}

impl Api {
    /// Every API.
    pub const ALL: [Api; 4] = [
        Api::OpenAiChat,
        Api::OpenAiResponses,
        Api::Anthropic,
        Api::Gemini,
    ];

    /// The API's name as parsed and printed (the CLI's `--api`):
    /// `"openai-chat"`, `"openai-responses"`, `"anthropic"`, `"gemini"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Api::OpenAiChat => "openai-chat",
            Api::OpenAiResponses => "openai-responses",
            Api::Anthropic => "anthropic",
            Api::Gemini => "gemini",
        }
    }

    /// The provider whose export this API takes.
    pub const fn provider(self) -> Provider {
        match self {
            Api::OpenAiChat | Api::OpenAiResponses => Provider::OpenAi,
            Api::Anthropic => Provider::Anthropic,
            Api::Gemini => Provider::Gemini,
        }
    }

    /// The request fragment that carries `export` in this API, `name`
    /// being the schema's name where the API asks for one:
    ///
    /// | API | where the fragment goes | fragment |
    /// |---|---|---|
    /// | OpenAI Chat Completions | `response_format` | `{"type": "json_schema", "json_schema": {"name", "strict": true, "schema"}}` |
    /// | OpenAI Responses | `text.format` | `{"type": "json_schema", "name", "strict": true, "schema"}` |
    /// | Anthropic | `output_config.format` | `{"type": "json_schema", "schema"}` |
    /// | Gemini | inside `generationConfig` | `{"responseMimeType": "application/json", "responseJsonSchema"}` |
    ///
    /// The export should be [`Api::provider`]'s (or [`Provider::Local`]'s
    /// for a local server); the fragment is built for the API whichever it
    /// is. Source for the Responses form:
    /// <https://platform.openai.com/docs/guides/structured-outputs> ("Structured
    /// Outputs in the Responses API": `text: {format: {type: "json_schema",
    /// name, strict, schema}}`); the `openai` Python SDK's
    /// `ResponseFormatTextJSONSchemaConfig` has these four fields (checked
    /// in `.ci/sdk_check`).
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::schema::Api;
    ///
    /// #[derive(Contract)]
    /// struct Reply { text: String }
    ///
    /// let export = Reply::json_schema_for(Api::OpenAiResponses.provider()).unwrap();
    /// let format = Api::OpenAiResponses.request_fragment(&export, "Reply");
    /// assert_eq!(format["type"], "json_schema");
    /// assert_eq!(format["name"], "Reply");
    /// assert_eq!(format["strict"], true);
    /// assert_eq!(format["schema"]["properties"]["text"]["type"], "string");
    /// ```
    pub fn request_fragment(self, export: &Export, name: &str) -> Value {
        let schema = export.schema.clone();
        match self {
            Api::OpenAiChat => json!({
                "type": "json_schema",
                "json_schema": { "name": schema_name(name), "strict": true, "schema": schema },
            }),
            Api::OpenAiResponses => json!({
                "type": "json_schema",
                "name": schema_name(name),
                "strict": true,
                "schema": schema,
            }),
            Api::Anthropic => json!({ "type": "json_schema", "schema": schema }),
            Api::Gemini => json!({
                "responseMimeType": "application/json",
                "responseJsonSchema": schema,
            }),
        }
    }
}

impl fmt::Display for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An API name that [`Api::from_str`] does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownApi(pub String);

impl fmt::Display for UnknownApi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown API `{}`; expected one of: openai-chat, openai-responses, anthropic, gemini",
            self.0
        )
    }
}

impl std::error::Error for UnknownApi {}

impl FromStr for Api {
    type Err = UnknownApi;

    /// `openai-chat`, `openai-responses`, `anthropic` or `gemini`, in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Api::ALL
            .into_iter()
            .find(|a| a.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownApi(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for api in Api::ALL {
            assert_eq!(api.as_str().parse::<Api>(), Ok(api));
        }
        assert_eq!(
            "openai".parse::<Api>(),
            Err(UnknownApi("openai".to_owned()))
        );
    }
}
