//! What stops a command, and how it becomes an exit code: a [`UsageError`]
//! (one line on stderr, code 2) or an I/O error (code 2, except a closed
//! stdout, which ends quietly with code 0).
use std::io::{self, Write};

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
pub(super) enum Failure {
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

/// The exit code of a result; a failure is one line on `stderr`.
pub(super) fn finish(result: Result<i32, Failure>, stderr: &mut dyn Write) -> i32 {
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

/// The exit code of a mode that ran to the end: 1 when its `--fail-on-*`
/// option is set and what it fails on was found, else 0.
pub(super) fn exit_code(fail_on: bool, found: bool) -> i32 {
    if fail_on && found { 1 } else { 0 }
}
