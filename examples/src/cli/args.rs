//! What a command line asks for, once parsed: one [`Command`] (which
//! mode, with which options) and the usage text. The parsing is in
//! `parse`; nothing here reads a file or runs a check.
use std::path::PathBuf;

use contract_runtime::schema::Provider;

use crate::registry::ContractEntry;

/// The usage text printed by `--help`.
pub const USAGE: &str = "\
usage: contract-check CONTRACT [FILE|-] [--context JSON] [--source FILE]
                      [--baseline FILE --edit POLICY] [--format jsonl|table] [--fail-on-reject]
       contract-check CONTRACT --sse FILE [--context JSON] [--source FILE] [--format jsonl|table] [--fail-on-reject]
       contract-check --schema CONTRACT [--provider openai|gemini|anthropic|local [--request]]
       contract-check --compat OLD.json NEW.json [--format table|jsonl] [--fail-on-breaking]
       contract-check --list

Checks one model output per line of FILE (or stdin) against CONTRACT and
prints one JSON line per input line, then a per-stage summary on stderr.
--sse replays a recorded chat-completions stream (server-sent events, one
content delta each) through CONTRACT's stream check: the event at which it
would stop the model, the bytes of output that saves, and the decision.
--schema prints CONTRACT's JSON Schema; with --provider, the schema to send to
that provider, and on stderr what it leaves to the local checks; with --request
too, the request fragment that carries it (OpenAI's response_format, Gemini's
generationConfig fields, Anthropic's output_config.format).
--compat lists the changes from one version of a schema to the next, each
breaking or not for a reader of the new version (backward) or of the old (forward).
Files are read up to a limit: --baseline the contract's max_bytes, --source
4 MiB, each --compat file and --sse transcript 16 MiB; --context is at most 64 KiB.
Exit code: 0 done (also when the reader of stdout goes away, as with | head),
1 a line was rejected (with --fail-on-reject) or a change breaks (with
--fail-on-breaking), 2 bad usage (a missing, unreadable or oversized file
among them) or an I/O error.";

/// How decisions are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// One JSON object per line.
    #[default]
    Jsonl,
    /// Aligned columns for people.
    Table,
}

/// Where documents come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Standard input (`-` or no FILE).
    Stdin,
    /// A file.
    File(PathBuf),
}

/// What `check` mode needs: the contract, the input and the options.
#[derive(Debug)]
pub struct CheckArgs {
    /// The contract.
    pub contract: &'static ContractEntry,
    /// Where documents come from.
    pub input: Input,
    /// `--context`, raw.
    pub context: Option<String>,
    /// `--source FILE`.
    pub source: Option<PathBuf>,
    /// `--baseline FILE`.
    pub baseline: Option<PathBuf>,
    /// `--edit POLICY`.
    pub edit: Option<String>,
    /// `--format`.
    pub format: Format,
    /// `--fail-on-reject`.
    pub fail_on_reject: bool,
}

/// What `--compat` needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompatArgs {
    /// The old version's schema file.
    pub old: PathBuf,
    /// The new version's schema file.
    pub new: PathBuf,
    /// `--format` (`table` unless given).
    pub format: Format,
    /// `--fail-on-breaking`.
    pub fail_on_breaking: bool,
}

/// What `--schema --provider` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SchemaOutput {
    /// The export's schema.
    #[default]
    Schema,
    /// `--request`: the request fragment that carries it.
    Request,
}

/// A parsed command line.
#[derive(Debug)]
pub enum Command {
    /// `--help`.
    Help,
    /// `--list`.
    List,
    /// `--schema CONTRACT [--provider P [--request]]`.
    Schema(&'static ContractEntry, Option<Provider>, SchemaOutput),
    /// `--compat OLD.json NEW.json`.
    Compat(CompatArgs),
    /// `CONTRACT [FILE|-] ...`.
    Check(Box<CheckArgs>),
    /// `CONTRACT --sse FILE ...` (the transcript is the input file).
    Replay(Box<CheckArgs>),
}
