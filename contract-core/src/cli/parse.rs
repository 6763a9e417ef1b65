//! The command line read by clap (`--opt value`, `--opt=value`, `--help`,
//! `--version`), then one mode chosen and checked against the options it
//! takes; the result is a [`Command`], or a [`UsageError`] saying why not,
//! in one line.
use std::ffi::OsString;
use std::path::PathBuf;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, FromArgMatches};

use super::args::PatchSchemaArgs;
use super::args::{
    ABOUT, BoundArgs, CheckArgs, Command, CompatArgs, Input, Options, OutputFormat, SchemaOutput,
    Summary, after_help, usage_lines,
};
use super::entry::Entry;
use super::failure::{UsageError, usage};
use super::patch::PatchForm;
use crate::schema::{Api, Provider};

/// The most threads `--jobs` takes.
pub const MAX_JOBS: usize = 256;

/// The clap command of a program called `name`, version `version`.
pub(super) fn clap_command(name: &str, version: &str) -> clap::Command {
    Options::command()
        .name(name.to_owned())
        .bin_name(name.to_owned())
        .version(version.to_owned())
        .about(ABOUT)
        .override_usage(usage_lines(name))
        .after_help(after_help(name))
        .help_template("{usage-heading} {usage}\n\n{about}\n\n{all-args}{after-help}")
        .max_term_width(100)
}

/// Parses the arguments (without the program name) against `entries`.
pub(super) fn parse_args<'a, I>(
    entries: &'a [Entry],
    name: &str,
    version: &str,
    args: I,
) -> Result<Command<'a>, UsageError>
where
    I: IntoIterator<Item = OsString>,
{
    let words = std::iter::once(OsString::from(name)).chain(args);
    let matches = match clap_command(name, version).try_get_matches_from(words) {
        Ok(matches) => matches,
        Err(e) => return clap_error(&e, name),
    };
    let options = Options::from_arg_matches(&matches).map_err(|e| usage(first_line(&e)))?;
    // The options given, in the order given, to say which one a mode
    // does not take.
    let mut given: Vec<(usize, String)> = matches
        .ids()
        .filter(|id| id.as_str() != "positional")
        .filter(|id| {
            matches.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine)
        })
        .filter_map(|id| {
            let index = matches.index_of(id.as_str())?;
            Some((index, format!("--{}", id.as_str().replace('_', "-"))))
        })
        .collect();
    given.sort();
    let given: Vec<String> = given.into_iter().map(|(_, option)| option).collect();
    let given: Vec<&str> = given.iter().map(String::as_str).collect();
    check_mode(&given)?;
    into_command(entries, name, options)
}

/// A clap error as the command's own: `--help` and `--version` are text to
/// print; every other is one line.
fn clap_error<'a>(e: &clap::Error, name: &str) -> Result<Command<'a>, UsageError> {
    let option = || match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => arg.split([' ', '=']).next().unwrap_or("").to_owned(),
        _ => String::new(),
    };
    Err(usage(match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            return Ok(Command::Print(e.render().to_string()));
        }
        ErrorKind::UnknownArgument => {
            format!("unknown option `{}` (see {name} --help)", option())
        }
        ErrorKind::WrongNumberOfValues if option() == "--compat" => {
            "--compat needs two files: OLD.json NEW.json".to_owned()
        }
        ErrorKind::InvalidValue | ErrorKind::WrongNumberOfValues | ErrorKind::TooFewValues => {
            format!("{} needs a value", option())
        }
        ErrorKind::ArgumentConflict => format!("{} given twice", option()),
        ErrorKind::InvalidUtf8 => "an argument is not valid UTF-8".to_owned(),
        _ => first_line(e),
    }))
}

/// The first line of clap's message, without its `error: `.
fn first_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let line = text.lines().next().unwrap_or("bad usage");
    line.strip_prefix("error: ").unwrap_or(line).to_owned()
}

/// One mode at most, and only the options it takes.
fn check_mode(given: &[&str]) -> Result<(), UsageError> {
    let modes: Vec<&str> = ["--list", "--schema", "--grammar", "--compat", "--sse"]
        .into_iter()
        .filter(|m| given.contains(m))
        .collect();
    if let [a, b, ..] = modes.as_slice() {
        return Err(usage(format!("{a} and {b} cannot be combined")));
    }
    let (mode, takes): (&str, &[&str]) = match modes.first() {
        Some(&"--list") => ("--list", &["--list"]),
        Some(&"--schema") => (
            "--schema",
            &[
                "--schema",
                "--provider",
                "--request",
                "--api",
                "--edit",
                "--baseline",
                "--patch",
                "--merge-patch",
                "--context",
                "--source",
            ],
        ),
        Some(&"--grammar") => ("--grammar", &["--grammar", "--context", "--source"]),
        Some(&"--compat") => ("--compat", &["--compat", "--format", "--fail-on-breaking"]),
        Some(&"--sse") => (
            "--sse",
            &[
                "--sse",
                "--api",
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
                "--patch",
                "--merge-patch",
                "--format",
                "--summary",
                "--jobs",
                "--fail-on-reject",
                "--calls",
            ],
        ),
    };
    let Some(other) = given.iter().find(|o| !takes.contains(o)) else {
        return Ok(());
    };
    Err(usage(match (*other, mode) {
        ("--provider", "checking") => "--provider needs --schema CONTRACT".to_owned(),
        ("--api", "checking") => {
            "--api needs --sse FILE (or --schema CONTRACT --request)".to_owned()
        }
        ("--request", "checking") => "--request needs --schema CONTRACT --provider P".to_owned(),
        ("--fail-on-breaking", "checking") => {
            "--fail-on-breaking needs --compat OLD.json NEW.json".to_owned()
        }
        (other, mode) => format!("{other} does not apply to {mode}"),
    }))
}

/// The command of the (single) mode given; checking when none is.
fn into_command<'a>(
    entries: &'a [Entry],
    name: &str,
    options: Options,
) -> Result<Command<'a>, UsageError> {
    if options.list {
        if !options.positional.is_empty() {
            return Err(usage("--list takes no other argument"));
        }
        return Ok(Command::List);
    }
    let format = options.format.as_deref().map(format).transpose()?;
    if let Some(contract_name) = &options.grammar {
        if !options.positional.is_empty() {
            return Err(usage("--grammar CONTRACT takes no other argument"));
        }
        return Ok(Command::Grammar(Box::new(BoundArgs {
            contract: contract(entries, contract_name)?,
            provider: None,
            output: SchemaOutput::Schema,
            context: options.context,
            source: options.source.map(PathBuf::from),
        })));
    }
    if let Some(contract_name) = &options.schema {
        if !options.positional.is_empty() {
            return Err(usage("--schema CONTRACT takes no other argument"));
        }
        let api = options
            .api
            .as_deref()
            .map(|a| a.parse::<Api>().map_err(|e| usage(format!("--api: {e}"))))
            .transpose()?;
        if api.is_some() && !options.request {
            return Err(usage("--api with --schema needs --request"));
        }
        let provider = options
            .provider
            .as_deref()
            .map(|p| p.parse::<Provider>().map_err(|e| usage(e.to_string())))
            .transpose()?
            .or(api.map(Api::provider));
        if options.request && provider.is_none() {
            return Err(usage("--request needs --provider P or --api API"));
        }
        if let Some(form) = patch_form(options.patch, options.merge_patch)? {
            return patch_schema(entries, contract_name, &options, form, provider);
        }
        if options.edit.is_some() || options.baseline.is_some() {
            return Err(usage(
                "--schema with --edit POLICY --baseline FILE prints a patch schema: add --patch or --merge-patch",
            ));
        }
        let output = if options.request {
            SchemaOutput::Request(api)
        } else {
            SchemaOutput::Schema
        };
        if options.context.is_some() || options.source.is_some() {
            return Ok(Command::Bound(Box::new(BoundArgs {
                contract: contract(entries, contract_name)?,
                provider,
                output,
                context: options.context,
                source: options.source.map(PathBuf::from),
            })));
        }
        return Ok(Command::Schema(
            contract(entries, contract_name)?,
            provider,
            output,
        ));
    }
    if let Some(files) = &options.compat {
        if let Some(extra) = options.positional.first() {
            return Err(usage(format!(
                "unexpected argument `{extra}`: --compat takes two files, OLD.json NEW.json"
            )));
        }
        let [old, new] = files.as_slice() else {
            return Err(usage("--compat needs two files: OLD.json NEW.json"));
        };
        return Ok(Command::Compat(CompatArgs {
            old: PathBuf::from(old),
            new: PathBuf::from(new),
            format: format.unwrap_or(OutputFormat::Table),
            fail_on_breaking: options.fail_on_breaking,
        }));
    }
    into_check(entries, name, options, format.unwrap_or_default())
}

/// `CONTRACT [FILE|-]` and the options of checking; with `--sse FILE`,
/// `CONTRACT` alone and the transcript as the input.
fn into_check<'a>(
    entries: &'a [Entry],
    name: &str,
    mut options: Options,
    format: OutputFormat,
) -> Result<Command<'a>, UsageError> {
    let replay = options.sse.take();
    let is_replay = replay.is_some();
    let api = options
        .api
        .as_deref()
        .map(|a| a.parse::<Api>().map_err(|e| usage(format!("--api: {e}"))))
        .transpose()?
        .unwrap_or_default();
    if is_replay && options.positional.len() > 1 {
        return Err(usage(
            "--sse FILE is the input: give CONTRACT and no other FILE",
        ));
    }
    let mut positional = options.positional.into_iter();
    let Some(contract_name) = positional.next() else {
        return Err(usage(format!(
            "missing CONTRACT; known: {} (see {name} --help)",
            names(entries)
        )));
    };
    let entry = contract(entries, &contract_name)?;
    let input = match replay.or_else(|| positional.next()) {
        None => Input::Stdin,
        Some(s) if s == "-" => Input::Stdin,
        Some(path) => Input::File(PathBuf::from(path)),
    };
    if let Some(extra) = positional.next() {
        return Err(usage(format!(
            "unexpected argument `{extra}`: give one FILE (or - for stdin)"
        )));
    }
    let summary = match options.summary.as_deref() {
        None | Some("text") => Summary::Text,
        Some("json") => Summary::Json,
        Some(other) => {
            return Err(usage(format!(
                "unknown --summary `{other}`; expected text or json"
            )));
        }
    };
    let jobs = match options.jobs.as_deref() {
        None => 1,
        Some(n) => match n.parse::<usize>() {
            Ok(n) if (1..=MAX_JOBS).contains(&n) => n,
            _ => {
                return Err(usage(format!(
                    "--jobs takes a number of threads from 1 to {MAX_JOBS}, not `{n}`"
                )));
            }
        },
    };
    let patch = match patch_form(options.patch, options.merge_patch)? {
        Some(form) if options.edit.is_none() || options.baseline.is_none() => {
            let option = form.option().unwrap_or("--patch");
            return Err(usage(format!(
                "{option} needs --baseline FILE --edit POLICY (each line is a patch of the baseline)"
            )));
        }
        Some(form) => form,
        None => PatchForm::Full,
    };
    let args = Box::new(CheckArgs {
        contract: entry,
        input,
        context: options.context,
        source: options.source.map(PathBuf::from),
        baseline: options.baseline.map(PathBuf::from),
        edit: options.edit,
        patch,
        format,
        summary,
        jobs,
        fail_on_reject: options.fail_on_reject,
        calls: options.calls,
    });
    Ok(if is_replay {
        Command::Replay(args, api)
    } else {
        Command::Check(args)
    })
}

/// `--patch` or `--merge-patch`, if one is given (not both).
fn patch_form(patch: bool, merge_patch: bool) -> Result<Option<PatchForm>, UsageError> {
    match (patch, merge_patch) {
        (true, true) => Err(usage("--patch and --merge-patch cannot be combined")),
        (true, false) => Ok(Some(PatchForm::Json)),
        (false, true) => Ok(Some(PatchForm::Merge)),
        (false, false) => Ok(None),
    }
}

/// `--schema CONTRACT --edit POLICY --baseline FILE --patch|--merge-patch`.
fn patch_schema<'a>(
    entries: &'a [Entry],
    contract_name: &str,
    options: &Options,
    form: PatchForm,
    provider: Option<Provider>,
) -> Result<Command<'a>, UsageError> {
    let option = form.option().unwrap_or("--patch");
    if options.request {
        return Err(usage(format!("--request does not apply to {option}")));
    }
    let (Some(edit), Some(baseline)) = (&options.edit, &options.baseline) else {
        return Err(usage(format!(
            "--schema CONTRACT {option} needs --edit POLICY --baseline FILE"
        )));
    };
    Ok(Command::PatchSchema(Box::new(PatchSchemaArgs {
        contract: contract(entries, contract_name)?,
        edit: edit.clone(),
        baseline: PathBuf::from(baseline),
        form,
        provider,
    })))
}

fn format(value: &str) -> Result<OutputFormat, UsageError> {
    match value {
        "jsonl" => Ok(OutputFormat::Jsonl),
        "table" => Ok(OutputFormat::Table),
        other => Err(usage(format!(
            "unknown --format `{other}`; expected jsonl or table"
        ))),
    }
}

fn contract<'a>(entries: &'a [Entry], name: &str) -> Result<&'a Entry, UsageError> {
    entries.iter().find(|e| e.name() == name).ok_or_else(|| {
        usage(format!(
            "unknown contract `{name}`; known: {}",
            names(entries)
        ))
    })
}

/// The contracts' names, comma-separated (for messages).
pub(super) fn names(entries: &[Entry]) -> String {
    entries
        .iter()
        .map(Entry::name)
        .collect::<Vec<_>>()
        .join(", ")
}
