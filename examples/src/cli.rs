//! The `contract-check` command: argument parsing and the streaming loop,
//! kept in the library so tests can run them without a process.
//!
//! ```text
//! contract-check CONTRACT [FILE|-] [--context JSON] [--source FILE]
//!                [--baseline FILE --edit POLICY] [--format jsonl|table] [--fail-on-reject]
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
//! # Schemas for a provider: `--schema CONTRACT --provider P`
//!
//! Without `--provider`, the full JSON Schema (draft 2020-12). With it, the
//! schema of the provider's [`Export`] (`openai`, `gemini` or `anthropic`,
//! see `contract_runtime::schema::provider`), pretty-printed on stdout: what
//! to send. On stderr, one line per keyword the export left out, with the
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
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use contract_runtime::compat::{self, Change};
use contract_runtime::json::{self, Limits};
use contract_runtime::report::Report;
use contract_runtime::schema::{self, Export, Provider};
use contract_runtime::{OutcomeKind, Rejection};
use serde_json::{Map, Value, json};

use crate::registry::{self, Checker, ContractEntry, Decision, Setup};

/// The usage text printed by `--help`.
pub const USAGE: &str = "\
usage: contract-check CONTRACT [FILE|-] [--context JSON] [--source FILE]
                      [--baseline FILE --edit POLICY] [--format jsonl|table] [--fail-on-reject]
       contract-check --schema CONTRACT [--provider openai|gemini|anthropic]
       contract-check --compat OLD.json NEW.json [--format table|jsonl] [--fail-on-breaking]
       contract-check --list

Checks one model output per line of FILE (or stdin) against CONTRACT and
prints one JSON line per input line, then a per-stage summary on stderr.
--schema prints CONTRACT's JSON Schema; with --provider, the schema to send to
that provider, and on stderr what it leaves to the local checks.
--compat lists the changes from one version of a schema to the next, each
breaking or not for a reader of the new version (backward) or of the old (forward).
Files are read up to a limit: --baseline the contract's max_bytes, --source
4 MiB, each --compat file 16 MiB; --context is at most 64 KiB.
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

/// A parsed command line.
#[derive(Debug)]
pub enum Command {
    /// `--help`.
    Help,
    /// `--list`.
    List,
    /// `--schema CONTRACT [--provider P]`.
    Schema(&'static ContractEntry, Option<Provider>),
    /// `--compat OLD.json NEW.json`.
    Compat(CompatArgs),
    /// `CONTRACT [FILE|-] ...`.
    Check(Box<CheckArgs>),
}

/// A command line (or a file it names) that cannot be used: one line for
/// stderr; the process exits with code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

fn usage(message: impl Into<String>) -> UsageError {
    UsageError(message.into())
}

fn contract(name: &str) -> Result<&'static ContractEntry, UsageError> {
    registry::find(name).ok_or_else(|| {
        usage(format!(
            "unknown contract `{name}`; known: {}",
            registry::names()
        ))
    })
}

/// Parses the arguments (without the program name).
pub fn parse_args<I>(args: I) -> Result<Command, UsageError>
where
    I: IntoIterator<Item = OsString>,
{
    let mut args = args.into_iter();
    let mut positional: Vec<String> = Vec::new();
    let mut context = None;
    let mut source = None;
    let mut baseline = None;
    let mut edit = None;
    let mut format = None;
    let mut fail_on_reject = false;
    let mut fail_on_breaking = false;
    let mut schema = None;
    let mut provider = None;
    let mut compat = None;
    let mut list = false;
    // The options given, in order, to say which one a mode does not take.
    let mut given: Vec<&'static str> = Vec::new();

    while let Some(arg) = args.next() {
        let arg = arg
            .into_string()
            .map_err(|_| usage("an argument is not valid UTF-8"))?;
        let mut value = |name: &str| -> Result<String, UsageError> {
            let v = args
                .next()
                .ok_or_else(|| usage(format!("{name} needs a value")))?;
            v.into_string()
                .map_err(|_| usage(format!("the value of {name} is not valid UTF-8")))
        };
        let option: &'static str = match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--list" => {
                list = true;
                "--list"
            }
            "--schema" => {
                set_once(&mut schema, value("--schema")?, "--schema")?;
                "--schema"
            }
            "--provider" => {
                let p = value("--provider")?
                    .parse::<Provider>()
                    .map_err(|e| usage(e.to_string()))?;
                set_once(&mut provider, p, "--provider")?;
                "--provider"
            }
            "--compat" => {
                let old = value("--compat")?;
                let new = value("--compat")
                    .map_err(|_| usage("--compat needs two files: OLD.json NEW.json"))?;
                set_once(
                    &mut compat,
                    (PathBuf::from(old), PathBuf::from(new)),
                    "--compat",
                )?;
                "--compat"
            }
            "--context" => {
                set_once(&mut context, value("--context")?, "--context")?;
                "--context"
            }
            "--source" => {
                set_once(&mut source, value("--source")?, "--source")?;
                "--source"
            }
            "--baseline" => {
                set_once(&mut baseline, value("--baseline")?, "--baseline")?;
                "--baseline"
            }
            "--edit" => {
                set_once(&mut edit, value("--edit")?, "--edit")?;
                "--edit"
            }
            "--format" => {
                let f = match value("--format")?.as_str() {
                    "jsonl" => Format::Jsonl,
                    "table" => Format::Table,
                    other => {
                        return Err(usage(format!(
                            "unknown --format `{other}`; expected jsonl or table"
                        )));
                    }
                };
                set_once(&mut format, f, "--format")?;
                "--format"
            }
            "--fail-on-reject" => {
                fail_on_reject = true;
                "--fail-on-reject"
            }
            "--fail-on-breaking" => {
                fail_on_breaking = true;
                "--fail-on-breaking"
            }
            "-" => {
                positional.push(arg);
                continue;
            }
            s if s.starts_with('-') => {
                return Err(usage(format!(
                    "unknown option `{s}` (see contract-check --help)"
                )));
            }
            _ => {
                positional.push(arg);
                continue;
            }
        };
        given.push(option);
    }

    // One mode at most, and only the options it takes.
    let modes: Vec<&str> = ["--list", "--schema", "--compat"]
        .into_iter()
        .filter(|m| given.contains(m))
        .collect();
    if let [a, b, ..] = modes.as_slice() {
        return Err(usage(format!("{a} and {b} cannot be combined")));
    }
    let (mode, takes): (&str, &[&str]) = match modes.first() {
        Some(&"--list") => ("--list", &["--list"]),
        Some(&"--schema") => ("--schema", &["--schema", "--provider"]),
        Some(&"--compat") => ("--compat", &["--compat", "--format", "--fail-on-breaking"]),
        _ => (
            "checking",
            &[
                "--context",
                "--source",
                "--baseline",
                "--edit",
                "--format",
                "--fail-on-reject",
            ],
        ),
    };
    if let Some(other) = given.iter().find(|o| !takes.contains(o)) {
        return Err(usage(match (*other, mode) {
            ("--provider", "checking") => "--provider needs --schema CONTRACT".to_owned(),
            ("--fail-on-breaking", "checking") => {
                "--fail-on-breaking needs --compat OLD.json NEW.json".to_owned()
            }
            (other, mode) => format!("{other} does not apply to {mode}"),
        }));
    }

    if list {
        if !positional.is_empty() {
            return Err(usage("--list takes no other argument"));
        }
        return Ok(Command::List);
    }
    if let Some(name) = schema {
        if !positional.is_empty() {
            return Err(usage("--schema CONTRACT takes no other argument"));
        }
        return Ok(Command::Schema(contract(&name)?, provider));
    }
    if let Some((old, new)) = compat {
        if let Some(extra) = positional.first() {
            return Err(usage(format!(
                "unexpected argument `{extra}`: --compat takes two files, OLD.json NEW.json"
            )));
        }
        return Ok(Command::Compat(CompatArgs {
            old,
            new,
            format: format.unwrap_or(Format::Table),
            fail_on_breaking,
        }));
    }
    let mut positional = positional.into_iter();
    let Some(name) = positional.next() else {
        return Err(usage(format!(
            "missing CONTRACT; known: {} (see contract-check --help)",
            registry::names()
        )));
    };
    let entry = contract(&name)?;
    let input = match positional.next() {
        None => Input::Stdin,
        Some(s) if s == "-" => Input::Stdin,
        Some(path) => Input::File(PathBuf::from(path)),
    };
    if let Some(extra) = positional.next() {
        return Err(usage(format!(
            "unexpected argument `{extra}`: give one FILE (or - for stdin)"
        )));
    }
    Ok(Command::Check(Box::new(CheckArgs {
        contract: entry,
        input,
        context,
        source: source.map(PathBuf::from),
        baseline: baseline.map(PathBuf::from),
        edit,
        format: format.unwrap_or_default(),
        fail_on_reject,
    })))
}

fn set_once<T>(slot: &mut Option<T>, value: T, name: &str) -> Result<(), UsageError> {
    if slot.is_some() {
        return Err(usage(format!("{name} given twice")));
    }
    *slot = Some(value);
    Ok(())
}

/// The longest `--source` text read: the e-mail or page the model read.
pub const MAX_SOURCE_BYTES: usize = 4 << 20;

/// The longest `--context` value: a few trusted values, not a document.
pub const MAX_CONTEXT_BYTES: usize = 64 << 10;

/// Reads a whole file of at most `limit` bytes. No byte past `limit + 1` is
/// ever read, so `/dev/zero` or a huge file costs `limit` bytes of memory;
/// past the limit, the error names `limit` and what it is (`why`).
fn read_capped(what: &str, path: &Path, limit: usize, why: &str) -> Result<Vec<u8>, UsageError> {
    if path.is_dir() {
        return Err(usage(format!(
            "cannot read {what} {}: it is a directory",
            path.display()
        )));
    }
    let cannot_read = |e: io::Error| usage(format!("cannot read {what} {}: {e}", path.display()));
    let file = File::open(path).map_err(cannot_read)?;
    let cap = u64::try_from(limit).map_or(u64::MAX, |l| l.saturating_add(1));
    let mut bytes = Vec::new();
    file.take(cap)
        .read_to_end(&mut bytes)
        .map_err(cannot_read)?;
    if bytes.len() > limit {
        return Err(usage(format!(
            "{what} {} is larger than {limit} bytes ({why})",
            path.display()
        )));
    }
    Ok(bytes)
}

/// [`read_capped`] of a text file.
fn read_text(what: &str, path: &Path, limit: usize, why: &str) -> Result<String, UsageError> {
    String::from_utf8(read_capped(what, path, limit, why)?).map_err(|_| {
        usage(format!(
            "cannot read {what} {}: it is not valid UTF-8",
            path.display()
        ))
    })
}

/// Reads the files `args` names and binds the contract's setup.
pub fn checker(args: &CheckArgs) -> Result<Checker, UsageError> {
    args.contract
        .accepts(
            args.context.is_some(),
            args.source.is_some(),
            args.baseline.is_some(),
            args.edit.is_some(),
        )
        .map_err(|e| usage(e.0))?;
    if let Some(context) = &args.context
        && context.len() > MAX_CONTEXT_BYTES
    {
        return Err(usage(format!(
            "--context is {} bytes; the limit is {MAX_CONTEXT_BYTES}",
            context.len()
        )));
    }
    let setup = Setup {
        context: args.context.clone(),
        source: match &args.source {
            Some(path) => Some(read_text(
                "--source",
                path,
                MAX_SOURCE_BYTES,
                "the limit for a source text",
            )?),
            None => None,
        },
        baseline: match &args.baseline {
            Some(path) => Some(read_text(
                "--baseline",
                path,
                args.contract.limits.max_bytes,
                "the contract's max_bytes",
            )?),
            None => None,
        },
        edit: args.edit.clone(),
    };
    args.contract.checker(&setup).map_err(|e| usage(e.0))
}

/// Opens the input: a buffered reader over the file or stdin.
pub fn open_input(input: &Input) -> Result<Box<dyn BufRead>, UsageError> {
    match input {
        Input::Stdin => Ok(Box::new(io::stdin().lock())),
        Input::File(path) => {
            if path.is_dir() {
                return Err(usage(format!(
                    "cannot read {}: it is a directory",
                    path.display()
                )));
            }
            let file = File::open(path)
                .map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?;
            Ok(Box::new(BufReader::with_capacity(64 * 1024, file)))
        }
    }
}

/// Reads one line into `buf` (cleared first), keeping at most `cap` bytes of
/// it; the terminator (`\n` or `\r\n`) is not kept. Returns the line's full
/// length, or `None` at the end of the input.
pub fn read_line_capped<R: BufRead + ?Sized>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<usize>> {
    buf.clear();
    let mut len = 0usize;
    let mut last = None;
    let mut any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        len += chunk.len();
        if let Some(&b) = chunk.last() {
            last = Some(b);
        }
        let consumed = chunk.len() + usize::from(done);
        reader.consume(consumed);
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if last == Some(b'\r') {
        len -= 1;
        if buf.len() > len {
            buf.truncate(len);
        }
    }
    Ok(Some(len))
}

/// Checks one raw line: size, UTF-8 and byte-order mark first (without
/// holding more than the limit), then the contract.
pub fn check_line(checker: &Checker, bytes: &[u8], len: usize) -> Decision {
    let limits: Limits = checker.limits();
    if let Err(rejection) = json::check_size(len, &limits) {
        return rejected(checker, rejection);
    }
    match json::prepare(bytes, &limits) {
        Ok(text) => checker.check(text),
        Err(rejection) => rejected(checker, rejection),
    }
}

fn rejected(checker: &Checker, rejection: contract_runtime::Rejection) -> Decision {
    let mut decision = Decision::from_rejection(rejection);
    if checker.edit_mode() {
        decision.changed = Some(Vec::new());
    }
    decision
}

/// One output line for `decision` (see the module docs for the keys).
pub fn decision_json(line: u64, decision: &Decision) -> Value {
    let mut out = Map::new();
    out.insert("line".into(), json!(line));
    out.insert("outcome".into(), json!(decision.outcome.as_str()));
    out.insert(
        "errors".into(),
        serde_json::to_value(&decision.errors).unwrap_or(Value::Null),
    );
    if decision.omitted > 0 {
        out.insert("omitted".into(), json!(decision.omitted));
    }
    if decision.outcome == OutcomeKind::Review {
        let reasons: Vec<Value> = decision
            .reasons
            .iter()
            .map(|r| json!({"pointer": r.pointer, "code": r.code, "message": r.message}))
            .collect();
        out.insert("reasons".into(), Value::Array(reasons));
    }
    if let Some(changed) = &decision.changed {
        out.insert("changed".into(), json!(changed));
    }
    Value::Object(out)
}

const TABLE_HEADER: &str =
    "LINE   OUTCOME  STAGE     POINTER                   CODE                   MESSAGE";

fn table_rows(out: &mut dyn Write, line: u64, decision: &Decision) -> io::Result<()> {
    let mut rows: Vec<(&str, &str, &str, &str)> = Vec::new();
    for e in &decision.errors {
        rows.push((e.stage.as_str(), &e.pointer, e.code, &e.message));
    }
    for r in &decision.reasons {
        rows.push(("review", &r.pointer, r.code, &r.message));
    }
    for pointer in decision.changed.iter().flatten() {
        rows.push(("changed", pointer, "", ""));
    }
    let outcome = decision.outcome.as_str();
    if rows.is_empty() {
        return writeln!(out, "{line:<6} {outcome}");
    }
    for (i, (stage, pointer, code, message)) in rows.into_iter().enumerate() {
        let pointer = if pointer.is_empty() {
            "(root)"
        } else {
            pointer
        };
        let row = if i == 0 {
            format!("{line:<6} {outcome:<8} {stage:<9} {pointer:<25} {code:<22} {message}")
        } else {
            format!(
                "{:<6} {:<8} {stage:<9} {pointer:<25} {code:<22} {message}",
                "", ""
            )
        };
        writeln!(out, "{}", row.trim_end())?;
    }
    if decision.omitted > 0 {
        writeln!(out, "{:<16}… and {} more errors", "", decision.omitted)?;
    }
    Ok(())
}

/// Checks every line of `input` and writes one decision per line to
/// `output`, recording each in `report`. Stops only on an I/O error.
pub fn run_lines<R: BufRead + ?Sized>(
    checker: &Checker,
    input: &mut R,
    output: &mut dyn Write,
    format: Format,
    report: &mut Report,
) -> io::Result<()> {
    // One buffer for every line; a line is kept up to one byte past the
    // limit, enough to know it is too large.
    let cap = checker.limits().max_bytes.saturating_add(1);
    let mut buf = Vec::with_capacity(cap.min(64 * 1024));
    let mut line: u64 = 0;
    if format == Format::Table {
        writeln!(output, "{TABLE_HEADER}")?;
    }
    while let Some(len) = read_line_capped(input, &mut buf, cap)? {
        line += 1;
        let decision = check_line(checker, &buf, len);
        report.record_kind(decision.outcome, decision.rejected_at());
        match format {
            Format::Jsonl => {
                // `?` converts through `From<serde_json::Error> for io::Error`,
                // which hands back the writer's own error: a closed pipe
                // stays `BrokenPipe`.
                serde_json::to_writer(&mut *output, &decision_json(line, &decision))?;
                output.write_all(b"\n")?;
            }
            Format::Table => table_rows(output, line, &decision)?,
        }
    }
    output.flush()
}

/// `--list`: one contract per line, with its description and options.
pub fn list(out: &mut dyn Write) -> io::Result<()> {
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

/// Runs a whole command line; returns the exit code. Output goes to the
/// given writers (the binary passes stdout and stderr).
pub fn main_with<I>(args: I, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = OsString>,
{
    let result = run(args, stdout, stderr);
    finish(result, stderr)
}

/// The exit code of a result; a failure is one line on `stderr`.
fn finish(result: Result<i32, Failure>, stderr: &mut dyn Write) -> i32 {
    match result {
        Ok(code) => code,
        Err(Failure::Usage(e)) => {
            let _ = writeln!(stderr, "contract-check: {e}");
            2
        }
        // The reader of our output went away (`| head`): stop quietly.
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(Failure::Io(e)) => {
            let _ = writeln!(stderr, "contract-check: {e}");
            2
        }
    }
}

enum Failure {
    Usage(UsageError),
    Io(io::Error),
}

impl From<UsageError> for Failure {
    fn from(e: UsageError) -> Self {
        Failure::Usage(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

fn run<I>(args: I, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Result<i32, Failure>
where
    I: IntoIterator<Item = OsString>,
{
    let args = match parse_args(args)? {
        Command::Help => {
            writeln!(stdout, "{USAGE}")?;
            return Ok(0);
        }
        Command::List => {
            list(stdout)?;
            return Ok(0);
        }
        Command::Schema(entry, None) => {
            let schema = serde_json::to_string_pretty(&entry.schema()).map_err(io::Error::other)?;
            writeln!(stdout, "{schema}")?;
            return Ok(0);
        }
        Command::Schema(entry, Some(provider)) => {
            let export = schema::export_schema(&entry.schema(), provider)
                .map_err(|e| usage(e.to_string()))?;
            return write_export(&export, stdout, stderr);
        }
        Command::Compat(args) => return compat_files(&args, stdout, stderr),
        Command::Check(args) => args,
    };
    let checker = checker(&args)?;
    let mut input = open_input(&args.input)?;
    let mut report = Report::new();
    let mut out = BufWriter::with_capacity(64 * 1024, stdout);
    let result = run_lines(&checker, &mut input, &mut out, args.format, &mut report);
    drop(out);
    if let Err(e) = result {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return Err(e.into());
        }
        let what = match &args.input {
            Input::Stdin => "stdin".to_owned(),
            Input::File(p) => p.display().to_string(),
        };
        return Err(usage(format!("while checking {what}: {e}")).into());
    }
    writeln!(stderr, "{}: {report}", args.contract.name)?;
    let rejected = report.rejected.total() > 0;
    Ok(if args.fail_on_reject && rejected {
        1
    } else {
        0
    })
}

/// `--schema CONTRACT --provider P` for any full schema: the export's
/// schema on `stdout`, what it leaves out and makes required on `stderr`
/// (see the module docs); returns the exit code. When the provider cannot
/// take the schema, the reason is one line on `stderr`, nothing goes to
/// `stdout`, and the code is 2.
pub fn schema_for(
    full: &Value,
    provider: Provider,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let result = match schema::export_schema(full, provider) {
        Ok(export) => write_export(&export, stdout, stderr),
        Err(e) => Err(Failure::Usage(usage(e.to_string()))),
    };
    finish(result, stderr)
}

fn write_export(
    export: &Export,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let pretty = serde_json::to_string_pretty(&export.schema).map_err(io::Error::other)?;
    writeln!(stdout, "{pretty}")?;
    stdout.flush()?;
    for line in export_notes(export) {
        writeln!(stderr, "{line}")?;
    }
    Ok(0)
}

/// The stderr lines of `--schema --provider`: one per dropped keyword, then
/// one per property made required.
pub fn export_notes(export: &Export) -> Vec<String> {
    let dropped = export.dropped.iter().map(|d| {
        let (pointer, keyword) = (&d.pointer, &d.keyword);
        // An annotation (`description` beside a `$ref`) needs no check.
        if d.enforced_by.starts_with("nothing") {
            format!("dropped {pointer} ({keyword}): {}", d.enforced_by)
        } else {
            format!(
                "dropped {pointer} ({keyword}): still checked locally by {}",
                d.enforced_by
            )
        }
    });
    let required = export.made_required.iter().map(|p| {
        format!(
            "made required {p}: the contract lets this key be absent; the provider needs it present"
        )
    });
    dropped.chain(required).collect()
}

/// Limits for reading a schema file: larger and deeper than a model's
/// output may be, still bounded.
const SCHEMA_LIMITS: Limits = Limits {
    max_bytes: 16 << 20,
    max_depth: 256,
};

/// Reads one schema file for `--compat`: strict JSON (no duplicate keys),
/// and an object.
pub fn read_schema(what: &str, path: &Path) -> Result<Value, UsageError> {
    let bytes = read_capped(
        what,
        path,
        SCHEMA_LIMITS.max_bytes,
        "the limit for a schema file",
    )?;
    let value = json::parse(&bytes, &SCHEMA_LIMITS).map_err(|r| {
        usage(format!(
            "{what} {} is not valid JSON: {}",
            path.display(),
            first_error(&r)
        ))
    })?;
    if !value.is_object() {
        return Err(usage(format!(
            "{what} {} is not a JSON Schema: expected an object",
            path.display()
        )));
    }
    Ok(value)
}

fn first_error(rejection: &Rejection) -> String {
    rejection
        .errors
        .first()
        .map_or_else(|| "rejected".to_owned(), ToString::to_string)
}

/// `backward`, `forward`, `both` or `-`.
pub fn direction(change: &Change) -> &'static str {
    match (change.breaks_backward, change.breaks_forward) {
        (true, true) => "both",
        (true, false) => "backward",
        (false, true) => "forward",
        (false, false) => "-",
    }
}

/// One `--compat --format jsonl` line.
pub fn change_json(change: &Change) -> Value {
    json!({
        "pointer": change.pointer,
        "kind": change.kind.as_str(),
        "detail": change.detail,
        "breaking": change.is_breaking(),
        "breaks_backward": change.breaks_backward,
        "breaks_forward": change.breaks_forward,
    })
}

/// Writes the changes, one per line, in `format`.
pub fn write_changes(changes: &[Change], format: Format, out: &mut dyn Write) -> io::Result<()> {
    let width = changes
        .iter()
        .map(|c| c.pointer.chars().count())
        .max()
        .unwrap_or(0);
    for change in changes {
        match format {
            Format::Jsonl => {
                serde_json::to_writer(&mut *out, &change_json(change))?;
                out.write_all(b"\n")?;
            }
            Format::Table => {
                let verdict = if change.is_breaking() {
                    "breaking"
                } else {
                    "compatible"
                };
                let row = format!(
                    "{verdict:<10}  {:<8}  {:<19}  {:<width$}  {}",
                    direction(change),
                    change.kind.as_str(),
                    change.pointer,
                    change.detail,
                );
                writeln!(out, "{}", row.trim_end())?;
            }
        }
    }
    Ok(())
}

/// The stderr summary of `--compat`.
pub fn compat_summary(old: &Value, new: &Value, changes: &[Change]) -> String {
    let name = |schema: &Value, fallback: &str| {
        let title = schema
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or(fallback);
        match schema::version(schema) {
            Some(v) => format!("{title} v{v}"),
            None => format!("{title} (unversioned)"),
        }
    };
    let (old_name, new_name) = (name(old, "OLD"), name(new, "NEW"));
    let header = format!("{old_name} → {new_name}");
    if changes.is_empty() {
        return format!("{header}: no changes");
    }
    let backward = changes.iter().filter(|c| c.breaks_backward).count();
    let forward = changes.iter().filter(|c| c.breaks_forward).count();
    let plural = if changes.len() == 1 { "" } else { "s" };
    format!(
        "{header}: {} change{plural}, {backward} breaks backward (a new reader may reject old documents), {forward} breaks forward (an old reader may reject new documents)",
        changes.len()
    )
}

fn compat_files(
    args: &CompatArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let old = read_schema("OLD", &args.old)?;
    let new = read_schema("NEW", &args.new)?;
    let changes = compat::diff(&old, &new);
    let mut out = BufWriter::new(stdout);
    write_changes(&changes, args.format, &mut out)?;
    out.flush()?;
    drop(out);
    writeln!(stderr, "{}", compat_summary(&old, &new, &changes))?;
    let breaking = changes.iter().any(Change::is_breaking);
    Ok(if args.fail_on_breaking && breaking {
        1
    } else {
        0
    })
}
