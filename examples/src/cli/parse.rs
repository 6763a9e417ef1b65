//! The command line parsed by hand: each word taken in order, then one
//! mode chosen and checked against the options it takes; the result is a
//! [`Command`], or a [`UsageError`] saying why not.
use std::ffi::OsString;
use std::path::PathBuf;

use contract_runtime::schema::Provider;

use super::args::{CheckArgs, Command, CompatArgs, Format, Input, SchemaOutput};
use super::failure::{UsageError, usage};
use crate::registry::{self, ContractEntry};

/// Parses the arguments (without the program name).
pub fn parse_args<I>(args: I) -> Result<Command, UsageError>
where
    I: IntoIterator<Item = OsString>,
{
    let mut args = args.into_iter();
    let mut given = Given::default();
    while let Some(arg) = args.next() {
        let arg = arg
            .into_string()
            .map_err(|_| usage("an argument is not valid UTF-8"))?;
        if let Word::Help = given.take(arg, &mut args)? {
            return Ok(Command::Help);
        }
    }
    given.check_mode()?;
    given.into_command()
}

/// Everything on the command line, before a mode is chosen.
#[derive(Default)]
struct Given {
    positional: Vec<String>,
    context: Option<String>,
    source: Option<String>,
    baseline: Option<String>,
    edit: Option<String>,
    format: Option<Format>,
    fail_on_reject: bool,
    fail_on_breaking: bool,
    request: bool,
    schema: Option<String>,
    provider: Option<Provider>,
    compat: Option<(PathBuf, PathBuf)>,
    sse: Option<String>,
    list: bool,
    // The options given, in order, to say which one a mode does not take.
    options: Vec<&'static str>,
}

/// What one word of the command line was.
enum Word {
    Help,
    Option(&'static str),
    Positional,
}

impl Given {
    /// Takes one word, and the values after it when it is an option that
    /// has some.
    fn take(
        &mut self,
        arg: String,
        rest: &mut dyn Iterator<Item = OsString>,
    ) -> Result<Word, UsageError> {
        let word = match arg.as_str() {
            "-h" | "--help" => Word::Help,
            "--list" => {
                self.list = true;
                Word::Option("--list")
            }
            "--fail-on-reject" => {
                self.fail_on_reject = true;
                Word::Option("--fail-on-reject")
            }
            "--fail-on-breaking" => {
                self.fail_on_breaking = true;
                Word::Option("--fail-on-breaking")
            }
            "--request" => {
                self.request = true;
                Word::Option("--request")
            }
            "-" => Word::Positional,
            s if s.starts_with('-') => Word::Option(self.take_valued(s, rest)?),
            _ => Word::Positional,
        };
        match word {
            Word::Option(option) => self.options.push(option),
            Word::Positional => self.positional.push(arg),
            Word::Help => {}
        }
        Ok(word)
    }

    /// Takes an option that has a value (two for `--compat`); returns its
    /// name.
    fn take_valued(
        &mut self,
        option: &str,
        rest: &mut dyn Iterator<Item = OsString>,
    ) -> Result<&'static str, UsageError> {
        let mut value = |name: &str| value(rest, name);
        Ok(match option {
            "--schema" => set_once(&mut self.schema, value("--schema")?, "--schema")?,
            "--provider" => {
                let p = value("--provider")?
                    .parse::<Provider>()
                    .map_err(|e| usage(e.to_string()))?;
                set_once(&mut self.provider, p, "--provider")?
            }
            "--compat" => {
                let old = value("--compat")?;
                let new = value("--compat")
                    .map_err(|_| usage("--compat needs two files: OLD.json NEW.json"))?;
                let files = (PathBuf::from(old), PathBuf::from(new));
                set_once(&mut self.compat, files, "--compat")?
            }
            "--sse" => set_once(&mut self.sse, value("--sse")?, "--sse")?,
            "--context" => set_once(&mut self.context, value("--context")?, "--context")?,
            "--source" => set_once(&mut self.source, value("--source")?, "--source")?,
            "--baseline" => set_once(&mut self.baseline, value("--baseline")?, "--baseline")?,
            "--edit" => set_once(&mut self.edit, value("--edit")?, "--edit")?,
            "--format" => {
                let f = format(&value("--format")?)?;
                set_once(&mut self.format, f, "--format")?
            }
            s => {
                return Err(usage(format!(
                    "unknown option `{s}` (see contract-check --help)"
                )));
            }
        })
    }

    /// One mode at most, and only the options it takes.
    fn check_mode(&self) -> Result<(), UsageError> {
        let modes: Vec<&str> = ["--list", "--schema", "--compat", "--sse"]
            .into_iter()
            .filter(|m| self.options.contains(m))
            .collect();
        if let [a, b, ..] = modes.as_slice() {
            return Err(usage(format!("{a} and {b} cannot be combined")));
        }
        let (mode, takes): (&str, &[&str]) = match modes.first() {
            Some(&"--list") => ("--list", &["--list"]),
            Some(&"--schema") => ("--schema", &["--schema", "--provider", "--request"]),
            Some(&"--compat") => ("--compat", &["--compat", "--format", "--fail-on-breaking"]),
            Some(&"--sse") => (
                "--sse",
                &[
                    "--sse",
                    "--context",
                    "--source",
                    "--format",
                    "--fail-on-reject",
                ],
            ),
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
        let Some(other) = self.options.iter().find(|o| !takes.contains(o)) else {
            return Ok(());
        };
        Err(usage(match (*other, mode) {
            ("--provider", "checking") => "--provider needs --schema CONTRACT".to_owned(),
            ("--request", "checking") => {
                "--request needs --schema CONTRACT --provider P".to_owned()
            }
            ("--fail-on-breaking", "checking") => {
                "--fail-on-breaking needs --compat OLD.json NEW.json".to_owned()
            }
            (other, mode) => format!("{other} does not apply to {mode}"),
        }))
    }

    /// The command of the (single) mode given; checking when none is.
    fn into_command(self) -> Result<Command, UsageError> {
        if self.list {
            if !self.positional.is_empty() {
                return Err(usage("--list takes no other argument"));
            }
            return Ok(Command::List);
        }
        if let Some(name) = &self.schema {
            if !self.positional.is_empty() {
                return Err(usage("--schema CONTRACT takes no other argument"));
            }
            if self.request && self.provider.is_none() {
                return Err(usage("--request needs --provider P"));
            }
            let output = if self.request {
                SchemaOutput::Request
            } else {
                SchemaOutput::Schema
            };
            return Ok(Command::Schema(contract(name)?, self.provider, output));
        }
        if let Some((old, new)) = self.compat {
            if let Some(extra) = self.positional.first() {
                return Err(usage(format!(
                    "unexpected argument `{extra}`: --compat takes two files, OLD.json NEW.json"
                )));
            }
            return Ok(Command::Compat(CompatArgs {
                old,
                new,
                format: self.format.unwrap_or(Format::Table),
                fail_on_breaking: self.fail_on_breaking,
            }));
        }
        self.into_check()
    }

    /// `CONTRACT [FILE|-]` and the options of checking; with `--sse FILE`,
    /// `CONTRACT` alone and the transcript as the input.
    fn into_check(self) -> Result<Command, UsageError> {
        if let Some(transcript) = self.sse.clone() {
            if self.positional.len() > 1 {
                return Err(usage(
                    "--sse FILE is the input: give CONTRACT and no other FILE",
                ));
            }
            let mut given = self;
            given.positional.push(transcript);
            given.sse = None;
            return match given.into_check()? {
                Command::Check(args) => Ok(Command::Replay(args)),
                other => Ok(other),
            };
        }
        let mut positional = self.positional.into_iter();
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
            context: self.context,
            source: self.source.map(PathBuf::from),
            baseline: self.baseline.map(PathBuf::from),
            edit: self.edit,
            format: self.format.unwrap_or_default(),
            fail_on_reject: self.fail_on_reject,
        })))
    }
}

/// The value after option `name`.
fn value(rest: &mut dyn Iterator<Item = OsString>, name: &str) -> Result<String, UsageError> {
    let v = rest
        .next()
        .ok_or_else(|| usage(format!("{name} needs a value")))?;
    v.into_string()
        .map_err(|_| usage(format!("the value of {name} is not valid UTF-8")))
}

fn format(value: &str) -> Result<Format, UsageError> {
    match value {
        "jsonl" => Ok(Format::Jsonl),
        "table" => Ok(Format::Table),
        other => Err(usage(format!(
            "unknown --format `{other}`; expected jsonl or table"
        ))),
    }
}

/// Stores the value of option `name`, refused when it was given before;
/// returns `name`.
fn set_once<T>(
    slot: &mut Option<T>,
    value: T,
    name: &'static str,
) -> Result<&'static str, UsageError> {
    if slot.is_some() {
        return Err(usage(format!("{name} given twice")));
    }
    *slot = Some(value);
    Ok(name)
}

fn contract(name: &str) -> Result<&'static ContractEntry, UsageError> {
    registry::find(name).ok_or_else(|| {
        usage(format!(
            "unknown contract `{name}`; known: {}",
            registry::names()
        ))
    })
}
