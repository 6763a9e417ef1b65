//! Checking mode: binds the contract's setup (context, source, baseline and
//! edit policy), then checks every input line in order, one decision per
//! line, and counts the outcomes. In edit mode every decision carries the
//! changed paths, empty for a line rejected before it was parsed.
use std::io::{self, BufRead, BufWriter, Write};
use std::panic::{self, AssertUnwindSafe};

use super::args::{CheckArgs, Input, OutputFormat};
use super::checker::Checker;
use super::entry::Setup;
use super::failure::{Failure, exit_code, usage};
use super::jobs::run_lines_parallel;
use super::line::check_line;
use super::output::{write_decision, write_header, write_summary};
use super::read::{open_input, read_line_capped, read_source, read_text};
use crate::report::Report;

/// `CONTRACT [FILE|-] ...`: the decisions on `stdout`, the summary on
/// `stderr`; returns the exit code.
pub(super) fn run_check(
    args: &CheckArgs<'_>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let checker = checker(args)?;
    let mut input = open_input(&args.input)?;
    let mut report = Report::new();
    let mut out = BufWriter::with_capacity(64 * 1024, stdout);
    let result = if args.jobs > 1 {
        run_lines_parallel(
            &checker,
            &mut input,
            &mut out,
            args.format,
            &mut report,
            args.jobs,
        )
    } else {
        // A check that panics (a business check of the user's) stops the
        // command as it does under `--jobs N`: the I/O exit code, one line.
        panic::catch_unwind(AssertUnwindSafe(|| {
            run_lines(&checker, &mut input, &mut out, args.format, &mut report)
        }))
        .unwrap_or_else(|_| Err(io::Error::other("a check panicked")))
    };
    drop(out);
    if let Err(e) = result {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return Err(e.into());
        }
        let what = match &args.input {
            Input::Stdin => "stdin".to_owned(),
            Input::File(p) => p.display().to_string(),
        };
        return Err(Failure::Read(format!("while checking {what}: {e}")));
    }
    write_summary(stderr, args.summary, args.contract.name(), &report)?;
    let rejected = report.rejected.total() > 0;
    Ok(exit_code(args.fail_on_reject, rejected))
}

/// Reads the files `args` names and binds the contract's setup.
pub(super) fn checker(args: &CheckArgs<'_>) -> Result<Checker, Failure> {
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
        source: read_source(args.source.as_deref())?,
        baseline: match &args.baseline {
            Some(path) => Some(read_text(
                "--baseline",
                path,
                args.contract.limits().max_bytes,
                "the contract's max_bytes",
            )?),
            None => None,
        },
        edit: args.edit.clone(),
        patch: args.patch,
    };
    let checker = if args.calls {
        args.contract.calls_checker(&setup)
    } else {
        args.contract.checker(&setup)
    };
    Ok(checker.map_err(|e| usage(e.0))?)
}

/// Checks every line of `input` and writes one decision per line to
/// `output`, recording each in `report`. Stops only on an I/O error.
pub fn run_lines<R: BufRead + ?Sized, W: Write + ?Sized>(
    checker: &Checker,
    input: &mut R,
    output: &mut W,
    format: OutputFormat,
    report: &mut Report,
) -> io::Result<()> {
    // One buffer for every line; a line is kept up to one byte past the
    // limit, enough to know it is too large.
    let cap = checker.limits().max_bytes.saturating_add(1);
    let mut buf = Vec::with_capacity(cap.min(64 * 1024));
    let mut line: u64 = 0;
    write_header(output, format)?;
    while let Some(len) = read_line_capped(input, &mut buf, cap)? {
        line += 1;
        let decision = check_line(checker, &buf, len);
        report.record_kind(decision.outcome, decision.rejected_at());
        write_decision(output, format, line, &decision)?;
    }
    output.flush()
}
