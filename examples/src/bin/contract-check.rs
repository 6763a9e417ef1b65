//! `contract-check`: checks one model output per line against a built-in
//! contract. See the `contract_examples::cli` docs for the format and exit codes.
use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdout = io::stdout();
    let stderr = io::stderr();
    let mut out = stdout.lock();
    let mut err = stderr.lock();
    let code = contract_examples::cli::main_with(std::env::args_os().skip(1), &mut out, &mut err);
    let _ = out.flush();
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}
