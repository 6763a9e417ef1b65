//! The `contract-check` command as a library: a binary of yours runs it
//! over your own contracts in a few lines (feature `cli`).
//!
//! ```no_run
//! use contract_runtime::{Contract, cli};
//!
//! #[derive(Contract, Debug)]
//! struct Triage { category: String, priority: u8 }
//!
//! fn main() -> std::process::ExitCode {
//!     cli::Cli::new([cli::entry::<Triage>("triage").about("triage of a support message")])
//!         .name("triage-check")
//!         .version(env!("CARGO_PKG_VERSION"))
//!         .main()
//! }
//! ```
//!
//! [`main`] is the short form (`cli::main([cli::entry::<Triage>("triage")])`),
//! and [`main_with`] runs a command line in-process with the output on any
//! writers, as a test does:
//!
//! ```
//! use contract_runtime::{Contract, Violation, cli};
//!
//! #[derive(Contract, Debug)]
//! #[contract(context = Tenant, check = same_tenant)]
//! struct Close { tenant: String, ticket: u64 }
//!
//! /// The trusted tenant, from `--context '{"tenant":"acme"}'`.
//! #[derive(serde::Deserialize)]
//! struct Tenant { tenant: String }
//!
//! fn same_tenant(c: &Close, ctx: &Tenant) -> Result<(), Violation> {
//!     if c.tenant == ctx.tenant { return Ok(()) }
//!     Err(Violation::business("/tenant", "other_tenant", "another tenant's ticket"))
//! }
//!
//! let entries = [cli::entry::<Close>("close").with_context::<Tenant>()];
//! let input = std::env::temp_dir().join(format!("cli-doc-{}.jsonl", std::process::id()));
//! std::fs::write(&input, "{\"tenant\":\"acme\",\"ticket\":7}\n{\"tenant\":\"evil\",\"ticket\":7}\n").unwrap();
//! let args = ["close", input.to_str().unwrap(), "--context={\"tenant\":\"acme\"}", "--fail-on-reject"];
//! let (mut out, mut err) = (Vec::new(), Vec::new());
//! let code = cli::main_with(entries, args, &mut out, &mut err);
//! std::fs::remove_file(&input).unwrap();
//!
//! assert_eq!(code, cli::EXIT_FOUND); // a line was rejected
//! let lines: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
//! assert_eq!(lines[0], r#"{"line":1,"outcome":"accept","errors":[]}"#);
//! assert!(lines[1].contains(r#""stage":"business""#));
//! ```
//!
//! # The command line
//!
//! ```text
//! contract-check CONTRACT [FILE|-] [--context JSON] [--source FILE]
//!                [--baseline FILE --edit POLICY [--patch|--merge-patch]] [--format jsonl|table]
//!                [--fail-on-reject] [--summary text|json] [--jobs N] [--calls]
//! contract-check CONTRACT --sse FILE [--api openai-chat|openai-responses|anthropic|gemini]
//!                [--context JSON] [--source FILE] [--format jsonl|table] [--fail-on-reject]
//! contract-check --schema CONTRACT [--provider openai|gemini|anthropic|local [--request]]
//! contract-check --schema CONTRACT --edit POLICY --baseline FILE --patch|--merge-patch [--provider P]
//! contract-check --compat OLD.json NEW.json [--format table|jsonl] [--fail-on-breaking]
//! contract-check --list
//! contract-check --help | --version
//! ```
//!
//! Options follow the conventions of clap-based tools (clap reads them):
//! `--opt value` or `--opt=value`, `--help`, `--version`. Each contract is
//! an [`Entry`]: [`entry`] names it, and its context comes from
//! `--context` (and `--source`) through [`Entry::with_context`] (serde),
//! [`Entry::with_context_from`] (a contract of its own, as strict as a
//! model's output) or [`Entry::with_source`] (that and the source text).
//!
//! # Input
//!
//! One model output per line, read with one reused buffer; a line ends at
//! `\n`, and a `\r` before it is part of the terminator. No line is ever
//! skipped, so output line *N* is input line *N*:
//!
//! - a **blank** line (empty, or only whitespace) is a document like any
//!   other and is rejected at the parse stage: an empty model output is a
//!   failure that must show in the counts, not vanish from them;
//! - a line that is **not UTF-8** is rejected with the parse error
//!   `invalid_utf8`, and reading goes on;
//! - a line longer than the contract's `max_bytes` is rejected with
//!   `too_large` without being kept in memory (only `max_bytes + 1` bytes
//!   of it are buffered).
//!
//! # Output
//!
//! `--format jsonl` (the default): one JSON object per input line, in order,
//! with the keys in this order:
//!
//! | key | when | value |
//! |---|---|---|
//! | `line` | always | 1-based input line number |
//! | `outcome` | always | `accept`, `clarify`, `decline`, `review` or `reject` |
//! | `errors` | always | `[]` unless `reject`; each `{"stage","pointer","code","message"}` (+ `line`, `column` for parse errors) |
//! | `omitted` | a rejection with more than 64 errors | how many were not listed |
//! | `reasons` | `review` only | each `{"pointer","code","message"}` |
//! | `changed` | edit mode only | changed JSON Pointers (for a rejected candidate that parsed, the ones it would have changed) |
//!
//! `--format table`: the same, as aligned columns for people. Either way a
//! per-stage summary (counts and rates, a [`Report`]) goes to stderr at the
//! end: as text, or with `--summary json` as one JSON object on one line
//! ([`summary_json`]):
//!
//! | key | value |
//! |---|---|
//! | `contract` | the contract's name |
//! | `read` | lines read |
//! | `parsed`, `schema_valid`, `rule_valid` | lines that passed each stage |
//! | `accepted`, `clarified`, `declined`, `reviewed` | lines with each outcome |
//! | `rejected` | rejections by the earliest stage that failed: `{"parse","schema","rule","business","edit"}` |
//! | `rates` | each count divided by `read` (`parsed`, …, `reviewed`, `rejected`), `0` when nothing was read |
//!
//! # Threads: `--jobs N`
//!
//! `--jobs N` (default 1, at most [`MAX_JOBS`]) checks the lines on N
//! threads; the output and the summary are byte for byte those of one
//! thread, in the same order. The input is read in batches of at most
//! [`BATCH_LINES`] lines (or [`BATCH_BYTES`]), and at most `2 × N`
//! batches are in flight: memory stays bounded whatever the input's size.
//!
//! # Tool calls: `TOOLS FILE --calls`
//!
//! For a tools enum registered with [`tools`] (not [`entry`]), `--calls`
//! reads each line as one batch of a model's parallel calls,
//! `[{"id","name","arguments"}]`, the arguments either as the JSON text in
//! a string (OpenAI's `function.arguments`) or as the object (Anthropic's
//! `input`, MCP's `arguments`), and checks it all or nothing with
//! [`Tools::check_calls`](crate::tools::Tools::check_calls) (with
//! `--context`, `check_calls_with`). The decision line is a document's:
//! pointers are into the batch (`/1/arguments/ticket_id`, `/0/name`,
//! `/1/id`); a line that is not an array of calls is a `schema` error at
//! its member. Without `--calls`, each line is one call in the enum's JSON
//! form `{"name","arguments"}`. `--jobs`, `--format`, `--summary` and
//! `--fail-on-reject` apply; edit mode and `--sse` do not.
//!
//! # Replaying a streamed output: `CONTRACT --sse FILE [--api API]`
//!
//! FILE is a recorded model stream, the server-sent events of the API
//! `--api` names: `openai-chat` (the default: OpenAI Chat Completions and
//! the OpenAI-compatible servers, `data: {"choices":[{"delta":{"content":"…"}}]}`
//! events ending with `data: [DONE]`), `openai-responses`, `anthropic`
//! (Messages) or `gemini` (see [`crate::stream::sse`] for what each
//! carries, and [`transcript_for`]). Each delta of the reply's text is
//! pushed through the contract's [`Stream`](crate::stream::Stream); at the
//! first push it rejects, the replay stops, as a caller that cancels the
//! generation would. A malformed event is a usage error with its number; so
//! is a transcript that carries no delta of the reply's text (a tool-call
//! response, a refusal, another API's events), which says what it carries
//! (for a tool-call response, the program's contracts that check tool
//! calls, if any). A tool-call response to an entry made [`Entry::with_tool_calls`] is
//! replayed call by call instead: each call's argument deltas through its
//! tool's stream ([`crate::tools::Tools::stream_call`]), one JSON object
//! per call (`{"call":0,"id":"call_1","name":"triage","events":…}` then the
//! keys below), one summary line per call on stderr.
//! `--format jsonl` (the default) prints one JSON object ([`replay_json`]):
//!
//! ```text
//! {"events":14,"stopped_at_event":5,"read_bytes":33,"total_bytes":118,"saved_bytes":85,"outcome":"reject","errors":[…]}
//! ```
//!
//! `stopped_at_event` is `null` when no push was rejected; the decision is
//! the rejection that stopped the replay, or `finish()` on every delta. `--format table` prints the same for
//! people; one summary line goes to stderr either way. Options as in
//! checking mode, but not edit mode (an edit needs the whole candidate).
//!
//! # Schemas for a provider: `--schema CONTRACT --provider P`
//!
//! Without `--provider`, the full JSON Schema (draft 2020-12). With it, the
//! schema of the provider's [`Export`] (`openai`, `gemini`, `anthropic` or
//! `local`, see [`crate::schema::provider`]), pretty-printed on
//! stdout: what to send; with `--request`, the request fragment that
//! carries it ([`crate::schema::request_fragment`]). On stderr, one line per keyword the export left out, with the
//! local check that still enforces it, and one line per property the export
//! makes required although the contract lets the key be absent:
//!
//! ```text
//! dropped /properties/clarification_question/maxLength (maxLength): still checked locally by from_json, schema stage: `too_long`
//! made required /properties/mood: the contract lets this key be absent; the provider needs it present
//! ```
//!
//! (nothing on stderr when nothing was dropped or made required). A schema
//! the provider cannot take (an `ExportError`: a map under OpenAI, a limit
//! exceeded, …) is one line on stderr and exit code 2, with nothing on
//! stdout; [`schema_for`] does the same for any schema.
//!
//! # Compatibility of two versions: `--compat OLD.json NEW.json`
//!
//! Reads two full schemas (as `--schema` prints them; each a JSON object)
//! and lists every change from OLD to NEW that
//! [`compat::diff`] finds, one per line
//! on stdout. `--format table` (the default here) writes aligned columns:
//! verdict (`breaking` or `compatible`), direction, kind, pointer, detail:
//!
//! ```text
//! breaking    backward  bound_tightened      /properties/clarification_question/maxLength  maxLength 500 → 300
//! breaking    forward   field_added          /properties/half_day                          `half_day` added
//! ```
//!
//! The direction is `backward` (a reader of NEW may reject documents
//! written for OLD), `forward` (a reader of OLD may reject documents written
//! for NEW), `both`, or `-`. `--format jsonl` writes one JSON object per
//! change instead, with the keys `pointer`, `kind`, `detail`, `breaking`,
//! `breaks_backward`, `breaks_forward`. A one-line summary goes to stderr
//! (`VacationRequest v1 → v2: 2 changes, 1 breaks backward, 1 breaks
//! forward`); no change prints nothing on stdout.
//!
//! # Limits on what is read whole
//!
//! The input is read one line at a time (see above). Everything else is
//! read whole, up to a limit, and never a byte past it (`/dev/zero` costs
//! the limit, not the machine's memory); past the limit, the command stops
//! with one line on stderr and exit code 2:
//!
//! | what | limit |
//! |---|---|
//! | `--baseline FILE` | the contract's `max_bytes` (a larger baseline could not be a valid document) |
//! | `--source FILE` | [`MAX_SOURCE_BYTES`], 4 MiB |
//! | `--context JSON` | [`MAX_CONTEXT_BYTES`], 64 KiB (a few trusted values given on the command line) |
//! | `--sse FILE` | [`MAX_TRANSCRIPT_BYTES`], 16 MiB |
//! | `--compat OLD.json NEW.json` | 16 MiB each (and nested at most 256 deep) |
//!
//! # Exit codes
//!
//! | code | when |
//! |---|---|
//! | `0` ([`EXIT_OK`]) | every line was processed (or the schema, list or change list printed), `--help`, `--version`, or the reader of stdout went away (`\| head`): the command then stops quietly, in every format and mode |
//! | `1` ([`EXIT_FOUND`]) | with `--fail-on-reject`, at least one line was rejected; with `--fail-on-breaking`, at least one change breaks either direction |
//! | `2` ([`EXIT_USAGE`]) | bad usage: an unknown contract, provider or option, an option the mode does not take, a file or `--context` over its limit or not UTF-8, a `--context` that is not JSON or lacks a field, `--edit` without `--baseline`, an unknown policy, a baseline the contract rejects, a compat file that is not a JSON object, a schema the provider cannot take, an entry whose context hook has the wrong type |
//! | `3` ([`EXIT_IO`]) | an I/O error: a file that does not exist, is a directory or cannot be read, a read error on the input, a write error on stdout other than a closed pipe; also a check of the user's that panics (with any `--jobs`: the decisions before it may have been written) |
//!
//! Every failure is one line on stderr, `NAME: why`.
//!
//! # Layout
//!
//! [`Cli`] holds the entries, the name and the version; `parse` reads the
//! words with clap into one command (`args` says what a command line
//! asks for); the mode it names runs. One file per job: `entry` (an
//! [`Entry`] and its context hooks), `checker` (a bound [`Checker`] and
//! its [`Decision`]s), `read` (bounded reads), `check` (checking mode),
//! `jobs` (checking on N threads), `sse` (replay mode), `output` (its
//! `jsonl`/`table` lines and summary), `schema` (`--schema`), `compat`
//! (`--compat`), `failure` (errors and exit codes).
//!
//! [`Report`]: crate::report::Report
//! [`Export`]: crate::schema::Export
//! [`compat::diff`]: crate::compat::diff
use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

mod args;
mod bound;
mod calls;
mod check;
mod checker;
mod compat;
mod entry;
mod failure;
mod jobs;
mod line;
mod output;
mod parse;
mod patch;
mod read;
mod schema;
mod setup;
mod sse;

pub use args::{OutputFormat, Summary};
pub use bound::Bound;
pub use calls::tools;
pub use check::run_lines;
pub use checker::{Checker, Decision, Replay, replay};
pub use compat::{change_json, compat_summary, direction, write_changes};
pub use entry::{Entry, MAX_CONTEXT_BYTES, PolicyInfo, Setup, SetupError, entry};
pub use failure::{EXIT_FOUND, EXIT_IO, EXIT_OK, EXIT_USAGE, UsageError};
pub use jobs::{BATCH_BYTES, BATCH_LINES, run_lines_parallel};
pub use line::check_line;
pub use output::{decision_json, summary_json};
pub use parse::MAX_JOBS;
pub use patch::PatchForm;
pub use read::{MAX_SOURCE_BYTES, read_line_capped};
pub use schema::{export_notes, schema_for};
pub use sse::{Event, MAX_TRANSCRIPT_BYTES, replay_json, transcript, transcript_for};

use args::Command;
use failure::{Failure, finish, usage};

/// A command over a set of contracts: its entries, its name (in usage,
/// `--help` and messages) and its version (`--version`).
#[derive(Debug, Clone)]
pub struct Cli {
    entries: Vec<Entry>,
    name: Option<String>,
    version: String,
}

impl Cli {
    /// A command over `entries`, with contract-runtime's version until
    /// [`Cli::version`] says otherwise, and called as [`Cli::name`] says:
    /// else, by [`Cli::main`], as the program's file is (`argv[0]`), and
    /// by [`Cli::run`], `contract-check`.
    pub fn new(entries: impl IntoIterator<Item = Entry>) -> Self {
        Cli {
            entries: entries.into_iter().collect(),
            name: None,
            version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }

    /// The program's name, in usage lines, `--help`, `--version` and
    /// before every message on stderr.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// What `--version` prints after the name (pass your crate's
    /// `env!("CARGO_PKG_VERSION")`).
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.version = version.into();
        self
    }

    fn program(&self) -> &str {
        self.name.as_deref().unwrap_or("contract-check")
    }

    /// The entries, in the order `--list` shows them.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Runs the process's command line (without the program's name) on
    /// stdout and stderr; returns the exit code for `main`.
    pub fn main(&self) -> ExitCode {
        // Not locked for the whole run: a check that writes to stderr (or
        // stdout) from a `--jobs` thread would wait for the lock forever.
        // Decisions go through a 64 KiB buffer, so a lock per write is cheap.
        let mut out = io::stdout();
        let mut err = io::stderr();
        let mut args = std::env::args_os();
        let program = args.next();
        let named;
        let cli = match (&self.name, program) {
            (None, Some(path)) => {
                let stem = std::path::Path::new(&path)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned());
                named = Cli {
                    name: stem,
                    ..self.clone()
                };
                &named
            }
            _ => self,
        };
        let code = cli.run(args, &mut out, &mut err);
        let _ = out.flush();
        ExitCode::from(u8::try_from(code).unwrap_or(2))
    }

    /// Runs a command line (without the program's name); returns the exit
    /// code. Output goes to the given writers.
    pub fn run<I, A>(&self, args: I, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32
    where
        I: IntoIterator<Item = A>,
        A: Into<OsString>,
    {
        let result = self.dispatch(args.into_iter().map(Into::into), stdout, stderr);
        finish(result, self.program(), stderr)
    }

    /// Parses the arguments and runs the mode they name.
    fn dispatch<I>(
        &self,
        args: I,
        stdout: &mut dyn Write,
        stderr: &mut dyn Write,
    ) -> Result<i32, Failure>
    where
        I: IntoIterator<Item = OsString>,
    {
        self.check_entries()?;
        match parse::parse_args(&self.entries, self.program(), &self.version, args)? {
            Command::Print(text) => {
                stdout.write_all(text.as_bytes())?;
                stdout.flush()?;
                Ok(EXIT_OK)
            }
            Command::List => {
                list(&self.entries, stdout)?;
                Ok(EXIT_OK)
            }
            Command::Schema(entry, provider, output) => {
                schema::run_schema(entry, provider, output, stdout, stderr)
            }
            Command::PatchSchema(args) => schema::run_patch_schema(&args, stdout, stderr),
            Command::Bound(args) => schema::run_bound(&args, stdout, stderr),
            Command::Grammar(args) => schema::run_grammar(&args, stdout),
            Command::Compat(args) => compat::run_compat(&args, stdout, stderr),
            Command::Check(args) => check::run_check(&args, stdout, stderr),
            Command::Replay(args, api) => sse::run_sse(&self.entries, &args, api, stdout, stderr),
        }
    }

    /// Entries made wrong (a context hook of the wrong type, a name given
    /// twice or empty) stop every run, so they show on the first one.
    fn check_entries(&self) -> Result<(), Failure> {
        for (i, entry) in self.entries.iter().enumerate() {
            if let Some(problem) = entry.problem() {
                return Err(usage(problem).into());
            }
            if entry.name().is_empty() || entry.name().starts_with('-') {
                return Err(usage(format!(
                    "a contract's name must not be empty nor start with `-`: `{}`",
                    entry.name()
                ))
                .into());
            }
            if self.entries[..i].iter().any(|e| e.name() == entry.name()) {
                return Err(usage(format!("two contracts are called `{}`", entry.name())).into());
            }
        }
        Ok(())
    }
}

/// Runs the process's command line over `entries` (see [`Cli::main`]).
pub fn main(entries: impl IntoIterator<Item = Entry>) -> ExitCode {
    Cli::new(entries).main()
}

/// Runs a command line (without the program's name) over `entries`, with
/// the output on the given writers; returns the exit code (see
/// [`Cli::run`]).
pub fn main_with<I, A>(
    entries: impl IntoIterator<Item = Entry>,
    args: I,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32
where
    I: IntoIterator<Item = A>,
    A: Into<OsString>,
{
    Cli::new(entries).run(args, stdout, stderr)
}

/// `--list`: one contract per line, with its description and options.
pub fn list(entries: &[Entry], out: &mut dyn Write) -> io::Result<()> {
    for c in entries {
        let mut needs = Vec::new();
        if let Some(ctx) = c.context() {
            needs.push(format!("--context '{ctx}'"));
        }
        if c.needs_source() {
            needs.push("--source FILE".into());
        }
        for p in c.edit_policies() {
            needs.push(format!("[--baseline FILE --edit {}]", p.name));
        }
        writeln!(out, "{:<18} {}", c.name(), c.description())?;
        if !needs.is_empty() {
            writeln!(out, "{:<18} {}", "", needs.join(" "))?;
        }
    }
    Ok(())
}
