//! The `contract-check` command: argument parsing and the streaming loop,
//! kept in the library so tests can run them without a process.
//!
//! ```text
//! contract-check CONTRACT [FILE|-] [--context JSON] [--source FILE]
//!                [--baseline FILE --edit POLICY] [--format jsonl|table] [--fail-on-reject]
//! contract-check --schema CONTRACT
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
//! # Exit codes
//!
//! `0` every line was processed; `1` with `--fail-on-reject`, when at least
//! one line was rejected; `2` bad usage (unknown contract or option, a
//! missing or unreadable file, a `--context` that is not JSON or lacks a
//! field, `--edit` without `--baseline`, an unknown policy, a baseline the
//! contract rejects) or an I/O error, reported as one line on stderr.
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

use contract_runtime::OutcomeKind;
use contract_runtime::json::{self, Limits};
use contract_runtime::report::Report;
use serde_json::{Map, Value, json};

use crate::registry::{self, Checker, ContractEntry, Decision, Setup};

/// The usage text printed by `--help`.
pub const USAGE: &str = "\
usage: contract-check CONTRACT [FILE|-] [--context JSON] [--source FILE]
                      [--baseline FILE --edit POLICY] [--format jsonl|table] [--fail-on-reject]
       contract-check --schema CONTRACT
       contract-check --list

Checks one model output per line of FILE (or stdin) against CONTRACT and
prints one JSON line per input line, then a per-stage summary on stderr.
Exit code: 0 all lines processed, 1 a line was rejected (with --fail-on-reject),
2 bad usage.";

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

/// A parsed command line.
#[derive(Debug)]
pub enum Command {
    /// `--help`.
    Help,
    /// `--list`.
    List,
    /// `--schema CONTRACT`.
    Schema(&'static ContractEntry),
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
    let mut schema = None;
    let mut list = false;

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
        match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--list" => list = true,
            "--schema" => set_once(&mut schema, value("--schema")?, "--schema")?,
            "--context" => set_once(&mut context, value("--context")?, "--context")?,
            "--source" => set_once(&mut source, value("--source")?, "--source")?,
            "--baseline" => set_once(&mut baseline, value("--baseline")?, "--baseline")?,
            "--edit" => set_once(&mut edit, value("--edit")?, "--edit")?,
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
            }
            "--fail-on-reject" => fail_on_reject = true,
            "-" => positional.push(arg),
            s if s.starts_with('-') => {
                return Err(usage(format!(
                    "unknown option `{s}` (see contract-check --help)"
                )));
            }
            _ => positional.push(arg),
        }
    }

    if list {
        if schema.is_some() || !positional.is_empty() {
            return Err(usage("--list takes no other argument"));
        }
        return Ok(Command::List);
    }
    if let Some(name) = schema {
        if !positional.is_empty() {
            return Err(usage("--schema CONTRACT takes no other argument"));
        }
        return Ok(Command::Schema(contract(&name)?));
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

fn read_file(what: &str, path: &PathBuf) -> Result<String, UsageError> {
    std::fs::read_to_string(path)
        .map_err(|e| usage(format!("cannot read {what} {}: {e}", path.display())))
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
    let setup = Setup {
        context: args.context.clone(),
        source: match &args.source {
            Some(path) => Some(read_file("--source", path)?),
            None => None,
        },
        baseline: match &args.baseline {
            Some(path) => Some(read_file("--baseline", path)?),
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
                serde_json::to_writer(&mut *output, &decision_json(line, &decision))
                    .map_err(io::Error::other)?;
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
    match run(args, stdout, stderr) {
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
        Command::Schema(entry) => {
            let schema = serde_json::to_string_pretty(&entry.schema()).map_err(io::Error::other)?;
            writeln!(stdout, "{schema}")?;
            return Ok(0);
        }
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
