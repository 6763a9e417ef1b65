//! The `contract-check` command: argument parsing and the streaming loop,
//! kept in the library so tests can run them without a process.
//!
//! ```text
//! contract-check CONTRACT [FILE|-] [--context JSON] [--source FILE]
//!                [--baseline FILE --edit POLICY] [--format jsonl|table] [--fail-on-reject]
//! contract-check CONTRACT --sse FILE [--context JSON] [--source FILE] [--format jsonl|table] [--fail-on-reject]
//! contract-check --schema CONTRACT [--provider openai|gemini|anthropic]
//! contract-check --compat OLD.json NEW.json [--format table|jsonl] [--fail-on-breaking]
//! contract-check --list
//! ```
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
//! per-stage summary (counts and rates, a [`Report`]) goes to stderr at the end.
//!
//! # Replaying a streamed output: `CONTRACT --sse FILE`
//!
//! FILE is a recorded chat-completions stream in the OpenAI-compatible
//! format: `data: {"choices":[{"delta":{"content":"…"}}]}` events separated
//! by blank lines, ending with `data: [DONE]` (see [`transcript`]). Each
//! content delta is pushed through the contract's
//! [`Stream`](contract_runtime::stream::Stream); at the first push it
//! rejects, the replay stops, as a caller that cancels the generation would.
//! `--format jsonl` (the default) prints one JSON object ([`replay_json`]):
//!
//! ```text
//! {"events":14,"stopped_at_event":5,"read_bytes":33,"total_bytes":118,"saved_bytes":85,"outcome":"reject","errors":[…]}
//! ```
//!
//! `stopped_at_event` is `null` when no push was rejected; the decision is
//! `finish()` on what was pushed. `--format table` prints the same for
//! people; one summary line goes to stderr either way. Options as in
//! checking mode, but not edit mode (an edit needs the whole candidate).
//!
//! # Schemas for a provider: `--schema CONTRACT --provider P`
//!
//! Without `--provider`, the full JSON Schema (draft 2020-12). With it, the
//! schema of the provider's [`Export`] (`openai`, `gemini`, `anthropic` or
//! `local`, see `contract_runtime::schema::provider`), pretty-printed on
//! stdout: what to send; with `--request`, the request fragment that
//! carries it (`contract_runtime::schema::request_fragment`). On stderr, one line per keyword the export left out, with the
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
//! | `--compat OLD.json NEW.json` | 16 MiB each (and nested at most 256 deep) |
//!
//! # Exit codes
//!
//! `0` every line was processed (or the schema or the change list was
//! printed), or the reader of stdout went away (`| head`): the command
//! then stops quietly, in every format and mode; `1` with
//! `--fail-on-reject`, when at least one line was rejected, and with
//! `--fail-on-breaking`, when at least one change breaks either direction;
//! `2` bad usage (unknown contract, provider or option, an option the mode
//! does not take, a missing or unreadable file, a file or `--context` over
//! its limit, a `--context` that is not JSON or lacks a field, `--edit`
//! without `--baseline`, an unknown policy, a baseline the contract
//! rejects, a compat file that is not a JSON object, a schema the provider
//! cannot take) or an I/O error, reported as one line on stderr.
//!
//! # Layout
//!
//! [`parse_args`] turns the words into one [`Command`]; [`main_with`] runs
//! the mode it names and turns the result into the exit code. One file per
//! job: `args` (what a command line asks for), `parse` (the words into
//! that), `read` (bounded reads), `check` (checking mode), `sse` (replay
//! mode), `output` (its
//! `jsonl`/`table` lines and summary), `schema` (`--schema`), `compat`
//! (`--compat`), `failure` (errors and exit codes).
//!
//! [`Report`]: contract_runtime::report::Report
//! [`Export`]: contract_runtime::schema::Export
//! [`compat::diff`]: contract_runtime::compat::diff
use std::ffi::OsString;
use std::io::Write;

mod args;
mod check;
mod compat;
mod failure;
mod output;
mod parse;
mod read;
mod schema;
mod sse;

pub use args::{CheckArgs, Command, CompatArgs, Format, Input, USAGE};
pub use check::{check_line, checker, run_lines};
pub use compat::{change_json, compat_summary, direction, read_schema, write_changes};
pub use failure::UsageError;
pub use output::decision_json;
pub use parse::parse_args;
pub use read::{MAX_CONTEXT_BYTES, MAX_SOURCE_BYTES, open_input, read_line_capped};
pub use schema::{export_notes, schema_for};
pub use sse::{Event, MAX_TRANSCRIPT_BYTES, replay_json, transcript};

use crate::registry;
use failure::{Failure, finish};

/// Runs a whole command line; returns the exit code. Output goes to the
/// given writers (the binary passes stdout and stderr).
pub fn main_with<I>(args: I, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = OsString>,
{
    let result = run(args, stdout, stderr);
    finish(result, stderr)
}

/// Parses the arguments and runs the mode they name.
fn run<I>(args: I, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Result<i32, Failure>
where
    I: IntoIterator<Item = OsString>,
{
    match parse_args(args)? {
        Command::Help => {
            writeln!(stdout, "{USAGE}")?;
            Ok(0)
        }
        Command::List => {
            list(stdout)?;
            Ok(0)
        }
        Command::Schema(entry, provider, output) => {
            schema::run_schema(entry, provider, output, stdout, stderr)
        }
        Command::Compat(args) => compat::run_compat(&args, stdout, stderr),
        Command::Check(args) => check::run_check(&args, stdout, stderr),
        Command::Replay(args) => sse::run_sse(&args, stdout, stderr),
    }
}

/// `--list`: one contract per line, with its description and options.
pub fn list(out: &mut dyn Write) -> std::io::Result<()> {
    for c in registry::contracts() {
        let mut needs = Vec::new();
        if let Some(ctx) = c.context {
            needs.push(format!("--context '{ctx}'"));
        }
        if c.needs_source {
            needs.push("--source FILE".into());
        }
        for p in c.edit_policies() {
            needs.push(format!("[--baseline FILE --edit {}]", p.name));
        }
        writeln!(out, "{:<18} {}", c.name, c.description)?;
        if !needs.is_empty() {
            writeln!(out, "{:<18} {}", "", needs.join(" "))?;
        }
    }
    Ok(())
}
