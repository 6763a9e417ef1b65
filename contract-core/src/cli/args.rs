//! What a command line asks for: the options as clap reads them
//! ([`Options`]), and once a mode is chosen, one [`Command`] (which mode,
//! with which options). The choosing is in `parse`; nothing here reads a
//! file or runs a check.
use std::path::PathBuf;

use clap::Parser;

use super::entry::Entry;
use super::setup::PatchForm;
use crate::schema::{Api, Provider};

/// Every option of the command line, as clap reads it (values checked
/// later, in `parse`, so each mistake gets its own message).
#[derive(Parser, Debug, Default)]
pub(super) struct Options {
    /// The contract, then the input: a FILE of model outputs, one per line (- or none: stdin).
    #[arg(value_name = "CONTRACT [FILE|-]")]
    pub positional: Vec<String>,
    /// Trusted values the contract's business checks need (a JSON object; see --list).
    #[arg(long, value_name = "JSON", help_heading = "Checking")]
    pub context: Option<String>,
    /// The text the model read, that `evidence` fields must quote.
    #[arg(long, value_name = "FILE", help_heading = "Checking")]
    pub source: Option<String>,
    /// Edit mode: the document before the edit.
    #[arg(long, value_name = "FILE", help_heading = "Checking")]
    pub baseline: Option<String>,
    /// Edit mode: the policy that says what may change.
    #[arg(long, value_name = "POLICY", help_heading = "Checking")]
    pub edit: Option<String>,
    /// Edit mode: each line is an RFC 6902 JSON Patch of the baseline (with --schema: the patches' schema).
    #[arg(long, help_heading = "Checking")]
    pub patch: bool,
    /// Edit mode: each line is an RFC 7396 Merge Patch of the baseline (with --schema: its schema).
    #[arg(long, help_heading = "Checking")]
    pub merge_patch: bool,
    /// Output: jsonl (default) or table (--compat: table by default).
    #[arg(long, value_name = "jsonl|table", help_heading = "Checking")]
    pub format: Option<String>,
    /// The per-stage summary on stderr: text (default) or json (one object).
    #[arg(long, value_name = "text|json", help_heading = "Checking")]
    pub summary: Option<String>,
    /// Check lines on N threads; the output is the same, in the same order.
    #[arg(long, value_name = "N", help_heading = "Checking")]
    pub jobs: Option<String>,
    /// Exit with 1 when a line was rejected.
    #[arg(long, help_heading = "Checking")]
    pub fail_on_reject: bool,
    /// Each line is a batch of tool calls [{"id","name","arguments"}] for a tools CONTRACT.
    #[arg(long, help_heading = "Checking")]
    pub calls: bool,
    /// Replay a recorded model stream (server-sent events) through CONTRACT's stream check.
    #[arg(long, value_name = "FILE", help_heading = "Other modes")]
    pub sse: Option<String>,
    /// With --sse: the API that streamed it, openai-chat (default), openai-responses, anthropic or gemini.
    /// With --schema --request: the API whose request carries the schema (its provider's export unless --provider).
    #[arg(long, value_name = "API", help_heading = "Other modes")]
    pub api: Option<String>,
    /// Print CONTRACT's JSON Schema.
    #[arg(long, value_name = "CONTRACT", help_heading = "Other modes")]
    pub schema: Option<String>,
    /// With --schema: the schema for openai, gemini, anthropic or local.
    #[arg(long, value_name = "P", help_heading = "Other modes")]
    pub provider: Option<String>,
    /// With --schema --provider P or --api API: the request fragment that carries it.
    #[arg(long, help_heading = "Other modes")]
    pub request: bool,
    /// Print CONTRACT's llguidance grammar for the request of --context and --source.
    #[arg(long, value_name = "CONTRACT", help_heading = "Other modes")]
    pub grammar: Option<String>,
    /// List the changes from one version of a schema to the next.
    #[arg(long, num_args = 2, value_names = ["OLD.json", "NEW.json"], help_heading = "Other modes")]
    pub compat: Option<Vec<String>>,
    /// With --compat: exit with 1 when a change breaks.
    #[arg(long, help_heading = "Other modes")]
    pub fail_on_breaking: bool,
    /// List the contracts, with what each needs.
    #[arg(long, help_heading = "Other modes")]
    pub list: bool,
}

/// The usage lines, after the program's name.
pub(super) fn usage_lines(name: &str) -> String {
    let pad = " ".repeat(name.len());
    format!(
        "\
{name} CONTRACT [FILE|-] [--context JSON] [--source FILE]
       {pad} [--baseline FILE --edit POLICY [--patch|--merge-patch]] [--format jsonl|table]
       {pad} [--fail-on-reject] [--summary text|json] [--jobs N] [--calls]
       {name} CONTRACT --sse FILE [--api openai-chat|openai-responses|anthropic|gemini]
       {pad} [--context JSON] [--source FILE] [--format jsonl|table] [--fail-on-reject]
       {name} --schema CONTRACT [--provider openai|gemini|anthropic|local [--request]]
       {pad} [--context JSON [--source FILE]]
       {name} --schema CONTRACT --request --api openai-chat|openai-responses|anthropic|gemini
       {pad} [--provider P] [--context JSON [--source FILE]]
       {name} --schema CONTRACT --edit POLICY --baseline FILE --patch|--merge-patch [--provider P]
       {name} --grammar CONTRACT [--context JSON] [--source FILE]
       {name} --compat OLD.json NEW.json [--format table|jsonl] [--fail-on-breaking]
       {name} --list"
    )
}

/// What `--help` says before the options.
pub(super) const ABOUT: &str = "\
Checks one model output per line of FILE (or stdin) against CONTRACT and
prints one JSON line per input line, then a per-stage summary on stderr.
--sse replays a recorded model stream (server-sent events of the API --api
names: OpenAI Chat Completions by default, OpenAI Responses, Anthropic
Messages or Gemini) through CONTRACT's stream check: the event at which it
would stop the model, the bytes of output that saves, and the decision (for
a tool-call response, per call, when CONTRACT checks tool calls).
--schema prints CONTRACT's JSON Schema; with --provider, the schema to send to
that provider, and on stderr what it leaves to the local checks; with --request
too, the request fragment that carries it (OpenAI's response_format, Gemini's
generationConfig fields, Anthropic's output_config.format); --request --api API
gives the fragment of that API's request instead (openai-responses: the
Responses API's text.format), from the export of the API's provider unless
--provider says which (local, for an OpenAI-compatible server); with --context,
bound to that request (the members declared `one_of = ctx.FIELD` as an enum of
the context's values). With --edit POLICY --baseline FILE and --patch (or
--merge-patch), the schema of the patches the policy allows (checking: each
line is such a patch of the baseline). --grammar prints CONTRACT's llguidance grammar for a
request: the local export bound to --context, each `evidence` string a
substring of --source.
--compat lists the changes from one version of a schema to the next, each
breaking or not for a reader of the new version (backward) or of the old (forward).
--calls checks each line as a batch of a model's parallel tool calls against a
tools CONTRACT, all or nothing: [{\"id\",\"name\",\"arguments\"}], the arguments as a
JSON string (OpenAI's function.arguments) or an object (Anthropic, MCP).";

/// What `--help` says after the options: limits, exit codes, examples.
pub(super) fn after_help(name: &str) -> String {
    format!(
        "\
Files are read up to a limit: --baseline the contract's max_bytes, --source
4 MiB, each --compat file and --sse transcript 16 MiB; --context is at most 64 KiB.

Exit code: 0 done (also when the reader of stdout goes away, as with | head),
1 a line was rejected (with --fail-on-reject) or a change breaks (with
--fail-on-breaking), 2 bad usage (a missing, oversized or unusable file among
them), 3 an I/O error (reading the input or a file, or writing the output).

Examples:
  {name} --list
  {name} CONTRACT outputs.jsonl --fail-on-reject
  {name} CONTRACT - --format=table < outputs.jsonl
  {name} CONTRACT outputs.jsonl --jobs 2 --summary json 2> summary.json
  {name} TOOLS calls.jsonl --calls --fail-on-reject
  {name} --schema CONTRACT --provider openai --request
  {name} --schema CONTRACT --request --api openai-responses
  {name} --compat v1.schema.json v2.schema.json --fail-on-breaking"
    )
}

/// How decisions are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum OutputFormat {
    /// One JSON object per line.
    #[default]
    Jsonl,
    /// Aligned columns for people.
    Table,
}

/// How the per-stage summary is printed on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Summary {
    /// `NAME: N read` and one line per stage (the [`Report`]'s `Display`).
    ///
    /// [`Report`]: crate::report::Report
    #[default]
    Text,
    /// One JSON object (see the module docs for its keys).
    Json,
}

/// Where documents come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Input {
    /// Standard input (`-` or no FILE).
    Stdin,
    /// A file.
    File(PathBuf),
}

/// What `check` mode needs: the contract, the input and the options.
#[derive(Debug)]
pub(super) struct CheckArgs<'a> {
    pub contract: &'a Entry,
    pub input: Input,
    pub context: Option<String>,
    pub source: Option<PathBuf>,
    pub baseline: Option<PathBuf>,
    pub edit: Option<String>,
    pub patch: super::patch::PatchForm,
    pub format: OutputFormat,
    pub summary: Summary,
    pub jobs: usize,
    pub fail_on_reject: bool,
    /// `--calls`: each line a batch of tool calls.
    pub calls: bool,
}

/// What `--compat` needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CompatArgs {
    pub old: PathBuf,
    pub new: PathBuf,
    /// `table` unless given.
    pub format: OutputFormat,
    pub fail_on_breaking: bool,
}

/// What `--schema --provider` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum SchemaOutput {
    /// The export's schema.
    #[default]
    Schema,
    /// `--request`: the request fragment that carries it, in the form of
    /// the API given (`--api`), else of the provider's usual API.
    Request(Option<Api>),
}

/// What an export bound to one request needs.
#[derive(Debug)]
pub(super) struct BoundArgs<'a> {
    pub contract: &'a Entry,
    /// `None`: the full schema (or, for `--grammar`, unused).
    pub provider: Option<Provider>,
    pub output: SchemaOutput,
    pub context: Option<String>,
    pub source: Option<PathBuf>,
}

/// A parsed command line.
#[derive(Debug)]
pub(super) enum Command<'a> {
    /// `--help` or `--version`: the text to print on stdout.
    Print(String),
    /// `--list`.
    List,
    /// `--schema CONTRACT [--provider P [--request]]`.
    Schema(&'a Entry, Option<Provider>, SchemaOutput),
    /// `--schema CONTRACT --edit POLICY --baseline FILE --patch|--merge-patch`.
    PatchSchema(Box<PatchSchemaArgs<'a>>),
    /// `--compat OLD.json NEW.json`.
    Compat(CompatArgs),
    /// `--schema CONTRACT [--provider P [--request]] --context JSON [--source FILE]`.
    Bound(Box<BoundArgs<'a>>),
    /// `--grammar CONTRACT [--context JSON] [--source FILE]`.
    Grammar(Box<BoundArgs<'a>>),
    /// `CONTRACT [FILE|-] ...`.
    Check(Box<CheckArgs<'a>>),
    /// `CONTRACT --sse FILE [--api API] ...` (the transcript is the input
    /// file, streamed by that API).
    Replay(Box<CheckArgs<'a>>, Api),
}

/// What `--schema CONTRACT --edit POLICY --baseline FILE --patch` needs.
#[derive(Debug)]
pub(super) struct PatchSchemaArgs<'a> {
    pub contract: &'a Entry,
    pub edit: String,
    pub baseline: std::path::PathBuf,
    pub form: PatchForm,
    pub provider: Option<Provider>,
}
