//! The `contract-check` command over the built-in contracts: the library's
//! [`contract_runtime::cli`] with [`crate::registry::entries`]. Formats,
//! modes, limits and exit codes are documented there.
use std::ffi::OsString;
use std::io::Write;

use contract_runtime::cli::Cli;

use crate::registry;

/// The command: the built-in entries, this crate's version.
pub fn command() -> Cli {
    Cli::new(registry::entries())
        .name("contract-check")
        .version(env!("CARGO_PKG_VERSION"))
}

/// Runs a command line (without the program's name) over the built-in
/// contracts; returns the exit code.
pub fn main_with<I, A>(args: I, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = A>,
    A: Into<OsString>,
{
    command().run(args, stdout, stderr)
}
