//! Tool calls: a `#[contract(tools)]` enum is the set of tools a model may
//! call; each variant is one tool, its members are the arguments.
//!
//! ```
//! use contract_runtime::Contract;
//! use contract_runtime::schema::Provider;
//! use contract_runtime::tools::{Call, Tools};
//!
//! #[derive(Contract, Debug, Clone, PartialEq)]
//! #[contract(order(refund_cents <= order_total_cents))]
//! pub struct Refund { pub order_id: u64, pub refund_cents: u32, pub order_total_cents: u32 }
//!
//! /// What the support assistant may do.
//! #[derive(Contract, Debug, Clone, PartialEq)]
//! #[contract(tools, rename_all = "snake_case", max_calls = 4)]
//! pub enum SupportTool {
//!     /// Close a resolved ticket.
//!     CloseTicket {
//!         #[contract(min = 1)] ticket_id: u64,
//!         #[contract(min_len = 1, max_len = 200)] reason: String,
//!     },
//!     /// Refund part of an order (at most one refund per turn).
//!     #[contract(max_calls = 1)]
//!     Refund(Refund),
//!     /// Ask the customer a question first.
//!     #[contract(clarify)]
//!     AskCustomer { #[contract(min_len = 1, max_len = 300)] question: String },
//!     /// List the customer's open tickets (no arguments).
//!     ListOpenTickets,
//! }
//!
//! // One call, as OpenAI sends it (`function.name`, `function.arguments`).
//! let call = SupportTool::check_call("close_ticket", r#"{"ticket_id": 7, "reason": "done"}"#);
//! assert!(call.is_accept());
//! let wrong = SupportTool::check_call("close_ticket", r#"{"ticket_id": 0, "reason": "done"}"#);
//! assert_eq!(wrong.rejection().unwrap().pointers(), ["/arguments/ticket_id"]);
//! let unknown = SupportTool::check_call("delete_account", "{}");
//! assert_eq!(unknown.rejection().unwrap().errors[0].code, "unknown_tool");
//!
//! // A batch of parallel calls: all or nothing.
//! let batch = SupportTool::check_calls(&[
//!     Call { id: "a", name: "list_open_tickets", arguments: "{}" },
//!     Call { id: "b", name: "refund", arguments: r#"{"order_id":1,"refund_cents":900,"order_total_cents":500}"# },
//! ]);
//! assert_eq!(batch.rejection().unwrap().pointers(), ["/1/arguments/order_total_cents"]);
//!
//! // The enum's JSON form is MCP's call.
//! let value = SupportTool::from_json(r#"{"name": "list_open_tickets"}"#).unwrap();
//! assert_eq!(value, SupportTool::ListOpenTickets);
//!
//! // The request's `tools`, for each provider.
//! let tools = SupportTool::tool_definitions(Provider::OpenAi).unwrap();
//! assert_eq!(tools[0]["function"]["name"], "close_ticket");
//! assert_eq!(tools[0]["function"]["strict"], true);
//! ```
//!
//! # Decisions
//!
//! Where the design leaves a choice, this is what a tools enum does:
//!
//! - **The JSON form** `{"name", "arguments"}` is read with the tagged
//!   union's decoder (the tag is `name`, each tool's `arguments` a member
//!   beside it), so `name` may come before or after `arguments`, and a
//!   stream of the JSON form decides as early as a union's.
//! - **`check_call(name, arguments)`** is exactly `check` on the call
//!   `{"name": name, "arguments": <arguments>}`: the same errors, with the
//!   pointers of the JSON form (a duplicate key too: `/arguments/x`). The
//!   text is read once, by the tool's own decoder at `/arguments`, so
//!   `max_bytes` applies to the arguments text, and so does `max_depth`
//!   (the arguments object is depth 1); a parse error gives the line and
//!   column in the arguments text, and anything after the arguments
//!   object is `trailing_data` (no member can be added to the call). An
//!   unknown name is refused before the arguments are read.
//! - **An empty arguments text** (only whitespace) is no arguments: for a
//!   tool without arguments it is accepted as `{}` (some clients send `""`
//!   for such a tool); for any other tool it is the parse error
//!   `unexpected_end`. `to_json` writes `"arguments": {}` for a tool
//!   without arguments.
//! - **`_meta`** must be an object; it is not kept.
//! - **Rules** (`when`/`order` on a tool) run as the call is read, when the
//!   call has no schema error: in a document holding tools enums as
//!   fields, a call's rule errors may stand beside another field's schema
//!   errors.
//! - **A batch** reports every call's errors (each under `/{i}`) and the
//!   batch rules' errors together, in call order, the batch's own (`""`)
//!   first. An empty batch is accepted. Calls are counted per tool by
//!   name, rejected ones included. `batch_check` runs only with a context
//!   (`check_calls_with`) and only on a batch whose calls are all accepted;
//!   its review reasons make the batch `review`.
//! - **Tool definitions** carry each tool's doc comment as `description`
//!   (no key without one) and its arguments' export without the `title`
//!   (the tool has a name). The request-level caps are counted over the
//!   exported schemas of all tools together; the per-schema limits are
//!   the export's own.
//! - **Bound arguments** (`one_of = ctx.FIELD` on a tool's argument) are
//!   checked after the enum's `check`, whose reason at the same pointer
//!   stands for `not_in_context` (as in a struct).
//!   [`Tools::tool_definitions_with`] binds them tool by tool; where the
//!   bound values pass a request-level cap across the tools (OpenAI's
//!   1,000 enum values in all), the largest binding stays local, and the
//!   definitions are counted again. A binding left local is said in the
//!   member's `description`, since a tools array has no `dropped` list.
//! - A tools enum cannot be generic; `context` and `check` go on the enum
//!   (a `check` function takes the whole call, its pointers relative to the
//!   JSON form: `/arguments/ticket_id`).
use serde_json::Value;

use crate::contract::Contract;
use crate::error::Rejection;
use crate::json_type::Collector;
use crate::outcome::Outcome;
use crate::schema::bound::Binding;
use crate::schema::{Export, ExportError, Provider};
use crate::stream::Stream;

mod batch;
mod bound;
mod call;
mod definitions;

#[doc(hidden)]
pub use bound::{BindingsOf, ContractBindings, NoBindings};
#[doc(hidden)]
pub use call::{Meta, ReadArguments, encode_call};
pub use definitions::{
    ANTHROPIC_MAX_OPTIONAL, ANTHROPIC_MAX_STRICT_TOOLS, ANTHROPIC_MAX_UNIONS,
    OPENAI_MAX_ENUM_VALUES, OPENAI_MAX_PROPERTIES, OPENAI_MAX_TEXT,
};

/// One call of a batch: OpenAI's `tool_calls[i]` (`id`, `function.name`,
/// `function.arguments`), Anthropic's `tool_use` block (`id`, `name`, the
/// text of `input`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call<'a> {
    /// The call's id, unique in its batch.
    pub id: &'a str,
    /// The tool's name.
    pub name: &'a str,
    /// The JSON text of the arguments object.
    pub arguments: &'a str,
}

/// One tool of a tools enum, as the derive states it.
#[doc(hidden)]
#[derive(Debug)]
pub struct Tool {
    /// The tool's name.
    pub name: &'static str,
    /// Its doc comment.
    pub description: Option<&'static str>,
    /// At most this many calls of it in one batch.
    pub max_calls: Option<usize>,
    /// Whether it takes arguments (`false` for a unit variant).
    pub has_arguments: bool,
    /// Its arguments' export for a provider.
    pub export: fn(Provider) -> Result<Export, ExportError>,
    /// Its arguments' full schema.
    pub schema: fn() -> Value,
}

/// A set of tools a model may call: implemented by `#[derive(Contract)]`
/// for an enum with `#[contract(tools)]` (see the [module docs](self)).
pub trait Tools: Contract {
    #[doc(hidden)]
    const __TOOLS: &'static [Tool];
    /// Each tool's arguments reader, by its index in `__TOOLS`.
    #[doc(hidden)]
    const __ARGUMENTS: &'static [ReadArguments<Self>] = &[];
    #[doc(hidden)]
    const __MAX_CALLS: Option<usize> = None;
    #[doc(hidden)]
    fn __batch_check(_calls: &[Self], _ctx: &Self::Context, _cx: &mut Collector) {}
    /// Each tool's `one_of = ctx.FIELD` members with `ctx`'s values, by
    /// the tool's index in `__TOOLS` (pointers into its arguments' full
    /// schema).
    #[doc(hidden)]
    fn __tool_bindings(_ctx: &Self::Context) -> Vec<Vec<Binding>> {
        Vec::new()
    }

    /// The request's `tools` array for `provider`: OpenAI (and Local)
    /// `[{"type":"function","function":{"name","description","parameters","strict":true}}]`,
    /// Anthropic `[{"name","description","input_schema","strict":true}]`,
    /// Gemini `[{"functionDeclarations":[{"name","description","parametersJsonSchema"}]}]`;
    /// each tool's arguments exported as
    /// [`json_schema_for`](Contract::json_schema_for) exports a contract.
    ///
    /// An export error of one tool is [`ExportError::Tool`], naming it.
    /// The provider's request-level caps are checked over all tools, each
    /// an [`ExportError::Limit`] naming the cap: Anthropic's strict tool
    /// use takes at most [20](ANTHROPIC_MAX_STRICT_TOOLS) strict tools,
    /// [24](ANTHROPIC_MAX_OPTIONAL) optional parameters and
    /// [16](ANTHROPIC_MAX_UNIONS) union-typed parameters in one request
    /// (<https://platform.claude.com/docs/en/build-with-claude/structured-outputs>,
    /// "JSON Schema limitations"); OpenAI's Structured Outputs at most
    /// [5,000](OPENAI_MAX_PROPERTIES) object properties,
    /// [1,000](OPENAI_MAX_ENUM_VALUES) enum values and
    /// [120,000](OPENAI_MAX_TEXT) characters of names, enum values and
    /// consts across the schemas, and 10 levels of nesting in each
    /// (<https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>).
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::schema::Provider;
    /// use contract_runtime::tools::Tools;
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(tools, rename_all = "snake_case")]
    /// enum Tool {
    ///     /// Look a word up.
    ///     Lookup { word: String },
    /// }
    ///
    /// let tools = Tool::tool_definitions(Provider::Anthropic).unwrap();
    /// assert_eq!(tools[0]["name"], "lookup");
    /// assert_eq!(tools[0]["description"], "Look a word up.");
    /// assert_eq!(tools[0]["input_schema"]["properties"]["word"]["type"], "string");
    /// let gemini = Tool::tool_definitions(Provider::Gemini).unwrap();
    /// assert_eq!(gemini[0]["functionDeclarations"][0]["name"], "lookup");
    /// ```
    fn tool_definitions(provider: Provider) -> Result<Value, ExportError> {
        definitions::definitions::<Self>(provider, &[])
    }

    /// [`Tools::tool_definitions`] bound to one request: each argument
    /// declared with `one_of = ctx.FIELD` carries the values of `ctx`'s
    /// field as an `enum` (in the context's order, duplicates removed), as
    /// [`Contract::json_schema_for_with`] binds a contract's members (see
    /// [`crate::schema::bound`]), so the model can only call a tool with
    /// values the request allows; [`Tools::check_call_with`] checks the
    /// same binding (`not_in_context`).
    ///
    /// - Past the provider's enum limits for one member
    ///   ([`schema::bound::limit`](crate::schema::bound::limit): OpenAI's
    ///   1,000 values, 15,000 characters beyond 250 values), or where the
    ///   bound values would pass a request-level cap across the tools
    ///   (the largest binding first, until the request fits), a binding
    ///   stays local: the member's `description` says it is one of the
    ///   values the request allows, checked when the call arrives.
    /// - A field of the context with no value is
    ///   [`ExportError::Tool`] naming the tool, its source
    ///   [`ExportError::EmptyBinding`] (no call of that tool could be
    ///   accepted); an `Option` argument is then bound to `null` alone.
    /// - The bound values go to the provider with the request; only the
    ///   fields that arguments bind are read, nothing else of the context.
    ///   A newtype tool over a struct of the enum's context binds that
    ///   struct's members; over a struct without a context, none.
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::schema::{ExportError, Provider};
    /// use contract_runtime::tools::Tools;
    ///
    /// pub struct Desk { closable: Vec<u64> }
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(tools, rename_all = "snake_case", context = Desk)]
    /// enum DeskTool {
    ///     /// Close a ticket this desk may close.
    ///     CloseTicket {
    ///         #[contract(min = 1, one_of = ctx.closable)]
    ///         ticket_id: u64,
    ///     },
    ///     /// Wait for the customer.
    ///     Wait,
    /// }
    ///
    /// let desk = Desk { closable: vec![7, 8, 7] };
    /// let tools = DeskTool::tool_definitions_with(Provider::OpenAi, &desk).unwrap();
    /// let ticket_id = &tools[0]["function"]["parameters"]["properties"]["ticket_id"];
    /// assert_eq!(ticket_id["enum"], serde_json::json!([7, 8]));
    ///
    /// // The same binding, checked when the call arrives.
    /// let other = DeskTool::check_call_with("close_ticket", r#"{"ticket_id": 9}"#, &desk);
    /// assert_eq!(other.rejection().unwrap().errors[0].code, "not_in_context");
    ///
    /// // No ticket to close: no call of `close_ticket` could be accepted.
    /// let none = Desk { closable: vec![] };
    /// let error = DeskTool::tool_definitions_with(Provider::Anthropic, &none).unwrap_err();
    /// assert!(matches!(error, ExportError::Tool { name: "close_ticket", .. }));
    /// ```
    fn tool_definitions_with(
        provider: Provider,
        ctx: &Self::Context,
    ) -> Result<Value, ExportError> {
        definitions::definitions::<Self>(provider, &Self::__tool_bindings(ctx))
    }

    /// The `tools` of an MCP `tools/list` result: `name`, `description`
    /// and `inputSchema`, each tool's arguments' full draft 2020-12 schema.
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::tools::Tools;
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(tools, rename_all = "snake_case")]
    /// enum Tool { Ping }
    ///
    /// let tools = Tool::mcp_tools();
    /// assert_eq!(tools[0]["name"], "ping");
    /// assert_eq!(tools[0]["inputSchema"]["type"], "object");
    /// ```
    fn mcp_tools() -> Value {
        definitions::mcp::<Self>()
    }

    /// Checks one call: the tool's `name` and the JSON text of its
    /// arguments (OpenAI's `function.arguments` as is, Anthropic's `input`
    /// as its text). The outcome is [`check`](Contract::check)'s on the
    /// call `{"name": name, "arguments": <arguments>}`, with its pointers
    /// (`/name`, `/arguments/ticket_id`); the limits apply to the
    /// arguments text.
    fn check_call(name: &str, arguments: &str) -> Outcome<Self> {
        call::check::<Self>(name, arguments, None)
    }

    /// [`Tools::check_call`] with the business stage against `ctx`.
    fn check_call_with(name: &str, arguments: &str, ctx: &Self::Context) -> Outcome<Self> {
        call::check::<Self>(name, arguments, Some(ctx))
    }

    /// A [`Stream`] of the arguments of a call of `name`, as they stream
    /// (OpenAI's `function.arguments` deltas, Anthropic's
    /// `input_json_delta.partial_json`), with every guarantee of
    /// [`Contract::stream`]; its `finish` is [`Tools::check_call`] on the
    /// whole text, and its early errors carry the pointers of the JSON
    /// form. An unknown name is the `Err` at once.
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::stream::Progress;
    /// use contract_runtime::tools::Tools;
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(tools, rename_all = "snake_case")]
    /// enum Tool { Lookup { word: String } }
    ///
    /// let mut stream = Tool::stream_call("lookup").unwrap();
    /// let Progress::Rejected(early) = stream.push(r#"{"word": 7"#) else { panic!() };
    /// assert_eq!(early.errors[0].pointer, "/arguments/word");
    /// assert!(Tool::stream_call("nope").is_err());
    /// ```
    fn stream_call(name: &str) -> Result<Stream<'static, Self>, Rejection> {
        let tool = call::find::<Self>(name)?;
        Ok(Stream::framed(None, &call::prefix(tool), finish::<Self>))
    }

    /// [`Tools::stream_call`] whose `finish` is [`Tools::check_call_with`].
    fn stream_call_with<'c>(
        name: &str,
        ctx: &'c Self::Context,
    ) -> Result<Stream<'c, Self>, Rejection> {
        let tool = call::find::<Self>(name)?;
        Ok(Stream::framed(
            Some(ctx),
            &call::prefix(tool),
            finish::<Self>,
        ))
    }

    /// Checks a batch of parallel calls, all or nothing: any rejected call
    /// rejects the batch, with every call's errors under `/{i}`; ids are
    /// unique (`duplicate_call_id` at `/{i}/id`); at most `max_calls` calls
    /// (`too_many_calls` at `""`), and at most a tool's `max_calls` of it
    /// (`too_many_calls` at `/{i}`, the first call past it). Otherwise the
    /// outcome is the most serious of the calls' (review, clarify,
    /// decline, accept), every reason under its call's prefix.
    fn check_calls(calls: &[Call<'_>]) -> Outcome<Vec<Self>> {
        batch::check::<Self>(calls, None)
    }

    /// [`Tools::check_calls`] with the business stage against `ctx`, and
    /// then the enum's `batch_check` over the accepted calls (its pointers
    /// relative to the batch).
    fn check_calls_with(calls: &[Call<'_>], ctx: &Self::Context) -> Outcome<Vec<Self>> {
        batch::check::<Self>(calls, Some(ctx))
    }
}

// A call stream's `finish`: the text after the frame, checked as a call of
// the tool the frame names.
fn finish<'a, T: Tools>(text: &'a str, prefix: usize, ctx: Option<&'a T::Context>) -> Outcome<T> {
    let (frame, arguments) = text.split_at_checked(prefix).unwrap_or(("", text));
    let name = frame
        .strip_prefix(r#"{"name":""#)
        .and_then(|rest| rest.strip_suffix(r#"","arguments":"#))
        .unwrap_or("");
    call::check::<T>(name, arguments, ctx)
}

#[cfg(test)]
mod tests {
    use super::Tools;
    use crate::Contract;

    #[derive(crate::Contract, Debug, PartialEq)]
    #[contract(tools, rename_all = "snake_case", max_depth = 2, max_bytes = 40)]
    enum Limited {
        Set { values: Vec<Vec<u8>> },
        Ping,
    }

    fn code(outcome: &crate::Outcome<Limited>) -> Option<&'static str> {
        outcome.rejection().map(|r| r.errors[0].code)
    }

    // `max_bytes` and `max_depth` fall on the arguments text, not on the
    // call the frame makes of it.
    #[test]
    fn the_limits_fall_on_the_arguments_text() {
        let forty = format!(r#"{{"values":[]{}}}"#, " ".repeat(27));
        assert_eq!(forty.len(), 40);
        assert!(Limited::check_call("set", &forty).is_accept());
        let call = format!(r#"{{"name":"set","arguments":{forty}}}"#);
        assert_eq!(code(&Limited::check(&call)), Some("too_large"));
        let over = format!("{forty} ");
        assert_eq!(code(&Limited::check_call("set", &over)), Some("too_large"));
        // Depth 2 in the arguments (the object and one array).
        assert!(Limited::check_call("set", r#"{"values":[]}"#).is_accept());
        assert_eq!(
            code(&Limited::check_call("set", r#"{"values":[[1]]}"#)),
            Some("too_deep")
        );
        assert_eq!(
            code(&Limited::check(
                r#"{"name":"set","arguments":{"values":[]}}"#
            )),
            Some("too_deep")
        );
        // A streamed call has the same limits.
        let mut stream = Limited::stream_call("set").unwrap();
        stream.push(&forty);
        assert!(stream.finish().is_accept());
        let mut stream = Limited::stream_call("set").unwrap();
        assert!(matches!(
            stream.push(r#"{"values":[["#),
            crate::stream::Progress::Rejected(_)
        ));
    }
}
