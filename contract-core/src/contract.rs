//! The [`Contract`] trait that `#[derive(Contract)]` implements: the top of
//! the stack. Its provided methods are the typed entry points; each is a
//! thin call into [`crate::pipeline`] or [`crate::schema`], which see a
//! contract only as a [`Document`] and a [`Definition`] (implemented here
//! for every contract).
use std::borrow::Cow;

use serde_json::Value;

use crate::decode::BorrowDecode;
use crate::edit::EditPolicy;
use crate::error::Rejection;
use crate::json::{Limits, ParseError, Path, Reader};
use crate::json_type::{Collector, JsonType};
use crate::outcome::{Outcome, OutcomeKind, Violation};
use crate::pipeline::{self, Document, Stages};
use crate::schema::bound::Binding;
use crate::schema::{self, Definition, SchemaGen};
use crate::stream::Stream;

/// A type whose JSON form is declared with `#[derive(Contract)]`.
///
/// The derive implements the required items; use the provided methods.
/// `from_json(to_json(x)) == x` for every value the contract accepts.
///
/// ```
/// use contract_runtime::Contract;
///
/// /// A ticket to close.
/// #[derive(Contract, Debug, PartialEq)]
/// #[contract(max_bytes = 4096)]
/// struct CloseTicket {
///     #[contract(equals = "close_ticket")]
///     action: String,
///     #[contract(min = 1)]
///     ticket_id: u64,
///     #[contract(min_len = 1, max_len = 200)]
///     reason: String,
/// }
///
/// let ok = CloseTicket::from_json(r#"{"action":"close_ticket","ticket_id":7,"reason":"done"}"#);
/// assert_eq!(ok.unwrap().ticket_id, 7);
///
/// let err = CloseTicket::from_json(r#"{"action":"close_ticket","ticket_id":"7","reason":""}"#)
///     .unwrap_err();
/// assert_eq!(err.pointers(), ["/ticket_id", "/reason"]);
/// assert_eq!(err.errors[0].code, "invalid_type");
/// assert_eq!(err.errors[1].code, "too_short");
/// ```
pub trait Contract: JsonType + 'static {
    /// The type's Rust name, without type arguments (`Page` for `Page<T>`).
    const NAME: &'static str;
    /// `max_bytes` and `max_depth`, which bound a document read as this
    /// type (the root). A contract nested in another is bounded by the
    /// root's limits there, counted from the document's root, not by its
    /// own: `Page<Filter>` accepts a `Filter` as deep as `Page` allows.
    const LIMITS: Limits;
    /// The contract's version (`#[contract(version = N)]`; 1 when not declared).
    const VERSION: u32 = 1;
    /// The trusted context `check_with` takes (`()` when none is declared).
    type Context: ?Sized;
    #[doc(hidden)]
    const __POLICIES: &'static [EditPolicy<Self>] = &[];

    #[doc(hidden)]
    fn __schema_body(defs: &mut SchemaGen) -> Value;

    #[doc(hidden)]
    fn __outcome(&self) -> OutcomeKind {
        OutcomeKind::Accept
    }

    #[doc(hidden)]
    fn __business(&mut self, _ctx: &Self::Context, _cx: &mut Collector) {}

    /// The members bound with `one_of = ctx.FIELD`, with `ctx`'s values.
    #[doc(hidden)]
    fn __bindings(_ctx: &Self::Context) -> Vec<Binding> {
        Vec::new()
    }

    /// The `evidence` members of this contract and of those it holds
    /// (pointers into the full schema), with the source text they quote.
    #[doc(hidden)]
    fn __evidence(_ctx: &Self::Context) -> crate::business::Evidence {
        crate::business::Evidence::default()
    }

    /// The name that stands for this type in schemas (its `$defs` key and
    /// the root's `title`) and in [`Contract::idempotency_key`]: `NAME` for
    /// a non-generic contract; for a generic one, `NAME` with the names of
    /// its type arguments ([`schema::generic_name`]: `Page<Ticket>` is
    /// `Page-1-Ticket`).
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed(Self::NAME)
    }

    /// The JSON Schema (draft 2020-12) to send to a model provider.
    fn json_schema() -> Value {
        schema::document::<Self>()
    }

    /// This contract's schema prepared for `provider`'s structured-output
    /// mode, with what it had to drop (see [`crate::schema::export`]).
    fn json_schema_for(provider: schema::Provider) -> Result<schema::Export, schema::ExportError> {
        schema::export::<Self>(provider)
    }

    /// [`Contract::json_schema_for`] with the contract's recursion unrolled
    /// to `depth` levels, for a provider that takes no recursion (see
    /// [`crate::schema::export_unrolled`]).
    fn json_schema_for_unrolled(
        provider: schema::Provider,
        depth: usize,
    ) -> Result<schema::Export, schema::ExportError> {
        schema::export_unrolled::<Self>(provider, depth)
    }

    /// The request fragment `provider`'s API takes for this contract's
    /// export: OpenAI's `response_format` (`{"type": "json_schema",
    /// "json_schema": {"name", "strict": true, "schema"}}`, the name being
    /// the contract's, kept to `^[a-zA-Z0-9_-]{1,64}$`), Gemini's
    /// `generationConfig` fields `responseMimeType` and
    /// `responseJsonSchema`, Anthropic's `output_config.format`
    /// (`{"type": "json_schema", "schema"}`), and for
    /// [`Local`](schema::Provider::Local) OpenAI's form, which
    /// OpenAI-compatible local servers read. See
    /// [`schema::request_fragment`] for where each goes and the sources.
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::schema::Provider;
    ///
    /// #[derive(Contract)]
    /// struct Reply { text: String }
    ///
    /// let format = Reply::response_format(Provider::Anthropic).unwrap();
    /// assert_eq!(format["type"], "json_schema");
    /// assert_eq!(format["schema"]["properties"]["text"]["type"], "string");
    /// ```
    fn response_format(provider: schema::Provider) -> Result<Value, schema::ExportError> {
        let export = Self::json_schema_for(provider)?;
        Ok(schema::request_fragment(&export, <Self as Contract>::NAME))
    }

    /// The request fragment `api` takes for this contract: the export of
    /// [`api.provider()`](schema::Api::provider) where that API carries it.
    /// Beside [`Contract::response_format`]'s forms, OpenAI's Responses API
    /// (`text.format`: `{"type": "json_schema", "name", "strict": true,
    /// "schema"}`, flat where Chat Completions nests `json_schema`). The
    /// API, not the provider, chooses the form: Chat Completions and
    /// Responses take the same export (see [`schema::Api`]).
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::schema::Api;
    ///
    /// #[derive(Contract)]
    /// struct Reply { text: String }
    ///
    /// let format = Reply::response_format_for(Api::OpenAiResponses).unwrap();
    /// let request = serde_json::json!({
    ///     "model": "gpt-5",
    ///     "input": "Say hello.",
    ///     "text": { "format": format },
    /// });
    /// assert_eq!(request["text"]["format"]["name"], "Reply");
    /// assert_eq!(request["text"]["format"]["strict"], true);
    /// assert_eq!(request["text"]["format"]["schema"]["additionalProperties"], false);
    /// ```
    fn response_format_for(api: schema::Api) -> Result<Value, schema::ExportError> {
        let export = Self::json_schema_for(api.provider())?;
        Ok(api.request_fragment(&export, <Self as Contract>::NAME))
    }

    /// [`Contract::json_schema`] bound to one request: each member declared
    /// with `one_of = ctx.FIELD` carries the values of `ctx`'s field as an
    /// `enum` (in the context's order, duplicates removed). An empty field
    /// is [`ExportError::EmptyBinding`](schema::ExportError::EmptyBinding):
    /// no document could be accepted. See [`crate::schema::bound`].
    ///
    /// The bound values go to the provider with the request; only the
    /// fields that members bind are read, nothing else of the context.
    /// A contract held in a member is bound in its definition, which all
    /// its uses share (`/$defs/Pick/properties/id`).
    fn json_schema_with(ctx: &Self::Context) -> Result<Value, schema::ExportError> {
        schema::bound::bind_schema(&Self::json_schema(), &Self::__bindings(ctx))
    }

    /// [`Contract::json_schema_for`] bound to one request (see
    /// [`Contract::json_schema_with`]): [`Export::bound`](schema::Export::bound)
    /// lists the members bound; a binding past the provider's enum limits
    /// stays local and is in [`Export::dropped`](schema::Export::dropped).
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::schema::Provider;
    ///
    /// struct Desk { closable_ticket_ids: Vec<u64> }
    ///
    /// #[derive(Contract)]
    /// #[contract(context = Desk)]
    /// struct CloseTicket {
    ///     #[contract(min = 1, one_of = ctx.closable_ticket_ids)]
    ///     ticket_id: u64,
    ///     #[contract(min_len = 1, max_len = 200)]
    ///     reason: String,
    /// }
    ///
    /// let desk = Desk { closable_ticket_ids: vec![7, 8, 7] };
    /// let export = CloseTicket::json_schema_for_with(Provider::OpenAi, &desk).unwrap();
    /// assert_eq!(export.schema["properties"]["ticket_id"]["enum"], serde_json::json!([7, 8]));
    /// assert_eq!(export.bound, ["/properties/ticket_id"]);
    ///
    /// // The business stage checks the same binding.
    /// let other = CloseTicket::check_with(r#"{"ticket_id": 9, "reason": "done"}"#, &desk);
    /// assert_eq!(other.rejection().unwrap().errors[0].code, "not_in_context");
    /// ```
    fn json_schema_for_with(
        provider: schema::Provider,
        ctx: &Self::Context,
    ) -> Result<schema::Export, schema::ExportError> {
        schema::bound::bind(
            &Self::json_schema(),
            &Self::__bindings(ctx),
            provider,
            |bound| schema::export_schema(bound, provider),
        )
    }

    /// [`Contract::response_format`] bound to one request (see
    /// [`Contract::json_schema_for_with`]).
    fn response_format_with(
        provider: schema::Provider,
        ctx: &Self::Context,
    ) -> Result<Value, schema::ExportError> {
        let export = Self::json_schema_for_with(provider, ctx)?;
        Ok(schema::request_fragment(&export, <Self as Contract>::NAME))
    }

    /// An llguidance grammar (its Lark form) for local engines that accepts
    /// exactly the [`Local`](schema::Provider::Local) export bound to `ctx`,
    /// and in which every `evidence` string is a contiguous substring of
    /// the source text as it appears JSON-escaped. See
    /// [`crate::schema::grammar`]. The `evidence` members constrained are
    /// this contract's own (and its struct variants') and those of every
    /// contract it holds, at any depth.
    ///
    /// ```
    /// use contract_runtime::{Contract, EvidenceSource};
    ///
    /// struct Mail { text: String }
    /// impl EvidenceSource for Mail {
    ///     fn source_text(&self) -> &str { &self.text }
    /// }
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(context = Mail)]
    /// struct Finding {
    ///     claim: String,
    ///     #[contract(evidence)]
    ///     quote: String,
    /// }
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(context = Mail)]
    /// struct Report {
    ///     #[contract(min_len = 1, max_len = 5)]
    ///     findings: Vec<Finding>,
    /// }
    ///
    /// let mail = Mail { text: "Disk \"eu-2\" is full.".into() };
    /// let grammar = Report::grammar_with(&mail).unwrap();
    /// // `Finding` is one rule, its quote a substring of the escaped source.
    /// assert!(grammar.starts_with(r#"start: "{" "\"findings\"" ":" "[" def_0 ("," def_0){0,4} "]" "}""#));
    /// assert!(grammar.contains(r#""\"quote\"" ":" QUOTE_0 "}""#));
    /// assert!(grammar.contains(r#""substring_chunks":["D","i","s","k"," ","\\\"","e""#));
    /// ```
    fn grammar_with(ctx: &Self::Context) -> Result<String, schema::ExportError> {
        let export = Self::json_schema_for_with(schema::Provider::Local, ctx)?;
        let evidence = Self::__evidence(ctx);
        let pointers: Vec<&str> = evidence.pointers.iter().map(String::as_str).collect();
        let full = Self::json_schema();
        schema::grammar::grammar_of(&export, &full, &pointers, evidence.source.as_deref())
    }

    /// Parses and checks `raw` (parse, schema and rule stages).
    // A small body around the generated decoder (a call of its own): inlined
    // into the caller, which takes the value where it returns.
    #[inline]
    fn from_json(raw: &str) -> Result<Self, Rejection> {
        pipeline::run_schema::<Self>(raw)
    }

    /// [`Contract::from_json`] for a caller who wants only the first
    /// `max_errors` errors (clamped to `1..=MAX_ERRORS`): reading stops
    /// where the last of them was found (a wrong type or an unknown key at
    /// once; any other error at the end of the struct member holding it),
    /// and the [`Rejection`] says so with [`truncated`](Rejection::truncated).
    /// Errors found together past `max_errors` are counted in
    /// [`omitted`](Rejection::omitted). A document is accepted, with
    /// the same value, exactly when `from_json` accepts it. A rejected one
    /// is reported with the same first errors as `from_json` reports,
    /// except that a parse error after the point where reading stopped is
    /// never seen: its first schema errors are reported instead.
    ///
    /// Use it when the errors are only counted or only the first one is
    /// shown. [`Contract::from_json`] reports every error (up to
    /// [`MAX_ERRORS`](crate::error::MAX_ERRORS)) and reads the whole
    /// document, which a model asked to fix its output needs.
    ///
    /// ```
    /// use contract_runtime::Contract;
    ///
    /// #[derive(Contract, Debug)]
    /// struct Line {
    ///     #[contract(min = 1)]
    ///     qty: u32,
    /// }
    ///
    /// #[derive(Contract, Debug)]
    /// struct Order {
    ///     lines: Vec<Line>,
    /// }
    ///
    /// let raw = r#"{"lines": [{"qty": 0}, {"qty": "2"}, {"qty": 0}]}"#;
    /// let all = Order::from_json(raw).unwrap_err();
    /// assert_eq!(all.pointers(), ["/lines/0/qty", "/lines/1/qty", "/lines/2/qty"]);
    /// assert!(!all.truncated);
    ///
    /// let first = Order::from_json_first(raw, 1).unwrap_err();
    /// assert_eq!(first.pointers(), ["/lines/0/qty"]);
    /// assert!(first.truncated); // the other lines were not read
    ///
    /// // A valid document is accepted as by `from_json`.
    /// assert_eq!(Order::from_json_first(r#"{"lines": [{"qty": 2}]}"#, 1).unwrap().lines[0].qty, 2);
    /// ```
    fn from_json_first(raw: &str, max_errors: usize) -> Result<Self, Rejection> {
        pipeline::run_first::<Self>(raw, max_errors)
    }

    /// The value as JSON.
    ///
    /// For a recursive contract it recurses once per nesting level, as the
    /// returned `Value`'s `Drop` does: any value `from_json` produces (at
    /// most `max_depth` ≤ 1024 levels) encodes and drops on a 2 MiB thread
    /// stack, debug builds included (`tests/suite/recursion.rs`). A value built in
    /// Rust deeper than that is not refused: it may exhaust the stack, as
    /// its own `Drop` may, for a chain of many thousand `Box`es.
    fn to_json(&self) -> Value {
        self.encode()
    }

    /// Parse, schema and rule stages, as an [`Outcome`].
    fn check(raw: &str) -> Outcome<Self> {
        pipeline::outcome::<Self>(raw, Stages::none())
    }

    /// Every stage, business included, against trusted `ctx`.
    fn check_with(raw: &str, ctx: &Self::Context) -> Outcome<Self> {
        pipeline::outcome::<Self>(raw, Stages::business(ctx))
    }

    /// A [`Stream`] that checks the document while it is written, piece by
    /// piece; its `finish` is [`Contract::check`] on the whole text (see
    /// [`crate::stream`] for what is decided early).
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::stream::Progress;
    ///
    /// #[derive(Contract, Debug)]
    /// struct Refund { order: u64, cents: u32 }
    ///
    /// let mut stream = Refund::stream();
    /// assert_eq!(stream.push(r#"{"order": 7, "#), Progress::Pending);
    /// // A string where a number must be: decided at its first byte.
    /// let Progress::Rejected(early) = stream.push(r#""cents": "5"#) else {
    ///     panic!("decided");
    /// };
    /// assert_eq!(early.errors[0].pointer, "/cents");
    /// // `finish` is `check` on everything pushed.
    /// stream.push(r#""}"#);
    /// assert_eq!(stream.finish().rejection().unwrap().errors[0].pointer, "/cents");
    /// ```
    fn stream() -> Stream<'static, Self> {
        Stream::new(None)
    }

    /// [`Contract::stream`] whose `finish` is [`Contract::check_with`]
    /// against trusted `ctx` (the business stage runs at `finish`).
    fn stream_with(ctx: &Self::Context) -> Stream<'_, Self> {
        Stream::new(Some(ctx))
    }

    /// The edit policy named `name`, if the contract declares one.
    fn edit_policy(name: &str) -> Option<EditPolicy<Self>> {
        Self::__POLICIES.iter().find(|p| p.name() == name).copied()
    }

    /// The key that names the action this accepted value stands for:
    /// contract name, version, an optional `scope` (user, tenant) and the
    /// canonical document. Record it before acting; refuse a repeat.
    ///
    /// ```
    /// use contract_runtime::Contract;
    ///
    /// #[derive(Contract, Debug)]
    /// struct Refund { order: u64, cents: u32 }
    ///
    /// let a = Refund::from_json(r#"{"order": 7, "cents": 500}"#).unwrap();
    /// let b = Refund::from_json(r#"{ "cents": 500, "order": 7 }"#).unwrap();
    /// assert_eq!(a.idempotency_key(Some("tenant-a")), b.idempotency_key(Some("tenant-a")));
    /// assert_ne!(a.idempotency_key(Some("tenant-a")), a.idempotency_key(Some("tenant-b")));
    /// ```
    fn idempotency_key(&self, scope: Option<&str>) -> crate::fingerprint::IdempotencyKey {
        crate::fingerprint::IdempotencyKey::new(
            &Self::schema_name(),
            Self::VERSION,
            scope,
            &self.to_json(),
        )
    }

    /// Every edit policy the contract declares.
    fn edit_policies() -> &'static [EditPolicy<Self>] {
        Self::__POLICIES
    }
}

/// A contract with a lifetime, read from the `&'a str` it borrows from:
/// `#[derive(Contract)]` on `struct Invoice<'a>` (or a tagged union
/// `enum Step<'a>`) with `&'a str` and `Cow<'a, str>` fields, also in
/// `Option`, `Vec`, `Box` and in nested contracts with a lifetime.
///
/// The derive implements this trait for `Invoice<'a>`, [`Contract`] for
/// `Invoice<'static>` ([`BorrowedContract::Owned`]), and inherent
/// `from_json`, `check`, `check_with`, `json_schema` and `to_json` on
/// `Invoice<'a>` that call this trait's methods, so that
/// `Invoice::from_json(raw)` borrows from `raw` with only `Contract` in
/// scope. A string without escapes is borrowed; one with escapes is
/// [`Cow::Owned`] in a `Cow` field, and a `borrowed_string` error at the
/// value's pointer in a `&str` field (declare it `Cow<'a, str>`). Every
/// other decision, error, export and `to_json` is the same as the contract
/// with `String` fields: the schema is the same text.
///
/// What owns its text reads the `'static` form, through [`Contract`]: a
/// [`Stream`] keeps the text it is given, so there a `Cow` is always
/// `Cow::Owned`, and a `&str` field's string is a `borrowed_string` error
/// (at `finish`; nothing is decided early about it): stream a contract
/// whose borrowed fields are `Cow`s. Edit policies are not declared on a
/// contract with a lifetime.
///
/// ```
/// use std::borrow::Cow;
/// use contract_runtime::Contract;
///
/// #[derive(Contract, Debug)]
/// struct Line<'a> {
///     #[contract(min_len = 1)]
///     sku: &'a str,
///     qty: u32,
/// }
///
/// #[derive(Contract, Debug)]
/// struct Invoice<'a> {
///     #[contract(pattern = "^INV-[0-9]+$")]
///     number: &'a str,
///     note: Option<Cow<'a, str>>,
///     lines: Vec<Line<'a>>,
/// }
///
/// let raw = String::from(r#"{"number":"INV-7","note":"paid \u2713","lines":[{"sku":"A-1","qty":2}]}"#);
/// let invoice = Invoice::from_json(&raw).unwrap();
/// assert_eq!(invoice.number, "INV-7"); // a slice of `raw`
/// assert!(matches!(invoice.note, Some(Cow::Owned(_)))); // it had an escape
/// assert_eq!(invoice.lines[0].sku, "A-1");
///
/// // A `&str` field cannot hold a string with escapes.
/// let escaped = Invoice::from_json(r#"{"number":"INV-\u0037","note":null,"lines":[]}"#).unwrap_err();
/// assert_eq!((escaped.errors[0].pointer.as_str(), escaped.errors[0].code), ("/number", "borrowed_string"));
///
/// // The schema and `to_json` are the `String` contract's.
/// assert_eq!(Invoice::json_schema()["properties"]["number"]["type"], "string");
/// assert_eq!(invoice.to_json()["note"], "paid \u{2713}");
/// ```
pub trait BorrowedContract<'a>: BorrowDecode<'a> {
    /// The contract's `'static` form (`Invoice<'static>`): its schema, its
    /// exports, its limits and context, and the entry points that own
    /// their text.
    type Owned: Contract;

    #[doc(hidden)]
    fn __business(&mut self, ctx: &<Self::Owned as Contract>::Context, cx: &mut Collector);

    #[doc(hidden)]
    fn __outcome(&self) -> OutcomeKind;

    /// Parses and checks `raw` (parse, schema and rule stages), the value
    /// borrowing from it.
    #[inline]
    fn from_json(raw: &'a str) -> Result<Self, Rejection> {
        pipeline::run_schema_as::<Self::Owned, Self>(raw, borrowed_root::<Self>)
    }

    /// Parse, schema and rule stages, as an [`Outcome`].
    fn check(raw: &'a str) -> Outcome<Self> {
        pipeline::outcome_as::<Self::Owned, Self>(
            raw,
            Stages::none(),
            borrowed_root::<Self>,
            Self::__business,
            Self::__outcome,
        )
    }

    /// Every stage, business included, against trusted `ctx`.
    fn check_with(raw: &'a str, ctx: &<Self::Owned as Contract>::Context) -> Outcome<Self> {
        pipeline::outcome_as::<Self::Owned, Self>(
            raw,
            Stages::business(ctx),
            borrowed_root::<Self>,
            Self::__business,
            Self::__outcome,
        )
    }

    /// The JSON Schema: [`Contract::json_schema`] of [`BorrowedContract::Owned`].
    fn json_schema() -> Value {
        Self::Owned::json_schema()
    }

    /// The value as JSON.
    fn to_json(&self) -> Value {
        self.encode()
    }
}

/// A borrowed contract's own decoder, at the root.
#[inline(always)]
fn borrowed_root<'a, T: BorrowDecode<'a>>(
    r: &mut Reader<'a>,
    cx: &mut Collector,
) -> Result<Option<T>, ParseError> {
    T::decode_borrowed(r, &Path::Root, cx)
}

/// Parse, schema and rule stages for one document: the value and the review
/// reasons of quarantined fields, or every error found.
pub fn decode_document<T: Contract>(raw: &str) -> Result<(T, Vec<Violation>), Rejection> {
    pipeline::run::<T>(raw, Stages::none())
}

impl<T: Contract> Document for T {
    const LIMITS: Limits = <T as Contract>::LIMITS;
    type Context = <T as Contract>::Context;

    #[inline]
    fn business(&mut self, ctx: &Self::Context, cx: &mut Collector) {
        self.__business(ctx, cx);
    }

    #[inline]
    fn outcome(&self) -> OutcomeKind {
        self.__outcome()
    }

    fn bindings(ctx: &Self::Context) -> Vec<Binding> {
        T::__bindings(ctx)
    }
}

impl<T: Contract> schema::sealed::Sealed for T {}

impl<T: Contract> Definition for T {
    const NAME: &'static str = <T as Contract>::NAME;

    fn name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn body(defs: &mut SchemaGen) -> Value {
        T::__schema_body(defs)
    }
}

/// Implemented by contract enums; `outcome = FIELD` requires it of the field's type.
#[diagnostic::on_unimplemented(
    message = "`outcome` needs a field whose type is a contract enum, and `{Self}` is not one",
    label = "not a `#[derive(Contract)]` enum",
    note = "derive `Contract` for an enum of unit variants, and mark variants with `#[contract(clarify)]` or `#[contract(decline)]`"
)]
pub trait OutcomeEnum {
    /// The decision this variant stands for.
    fn outcome_kind(&self) -> OutcomeKind;
}

impl<T: OutcomeEnum> OutcomeEnum for Option<T> {
    fn outcome_kind(&self) -> OutcomeKind {
        match self {
            Some(v) => v.outcome_kind(),
            None => OutcomeKind::Accept,
        }
    }
}
