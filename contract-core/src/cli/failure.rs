//! What stops a command, and how it becomes an exit code: a [`UsageError`]
//! (one line on stderr, code 2) or an I/O error (one line, code 3, except a
//! closed stdout, which ends quietly with code 0).
use std::io::{self, Write};

/// Every line was checked (or the schema, list or change list printed),
/// or the reader of stdout went away.
pub const EXIT_OK: i32 = 0;
/// `--fail-on-reject` and a line was rejected, or `--fail-on-breaking`
/// and a change breaks.
pub const EXIT_FOUND: i32 = 1;
/// Bad usage: an unknown contract or option, a missing or oversized file,
/// a bad `--context`, …
pub const EXIT_USAGE: i32 = 2;
/// An I/O error while reading the input or a file, or writing the output.
pub const EXIT_IO: i32 = 3;

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

pub(super) fn usage(message: impl Into<String>) -> UsageError {
    UsageError(message.into())
}

/// Why a mode stopped before its exit code.
#[derive(Debug)]
pub(super) enum Failure {
    Usage(UsageError),
    /// An I/O error of the output (or a closed stdout).
    Io(io::Error),
    /// An I/O error reading a file, said in one line.
    Read(String),
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

/// The exit code of a result; a failure is one line on `stderr`, after
/// `name: `.
pub(super) fn finish(result: Result<i32, Failure>, name: &str, stderr: &mut dyn Write) -> i32 {
    match result {
        Ok(code) => code,
        Err(Failure::Usage(e)) => {
            let _ = writeln!(stderr, "{name}: {e}");
            EXIT_USAGE
        }
        // The reader of our output went away (`| head`): stop quietly.
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(Failure::Io(e)) => {
            let _ = writeln!(stderr, "{name}: {e}");
            EXIT_IO
        }
        Err(Failure::Read(message)) => {
            let _ = writeln!(stderr, "{name}: {message}");
            EXIT_IO
        }
    }
}

/// The exit code of a mode that ran to the end: 1 when its `--fail-on-*`
/// option is set and what it fails on was found, else 0.
pub(super) fn exit_code(fail_on: bool, found: bool) -> i32 {
    if fail_on && found {
        EXIT_FOUND
    } else {
        EXIT_OK
    }
}
