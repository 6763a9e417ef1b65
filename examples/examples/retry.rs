//! A bounded retry around a scripted fake model, for the vacation contract:
//! each attempt, the redacted feedback sent to the model, the final decision
//! and its idempotency key, then an idempotent booking.
//!
//! ```sh
//! cargo run -q -p contract-examples --example retry
//! ```
//!
//! The flow lives in `contract_examples::retry_demo`, where its test can
//! reach it.
use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let code = match contract_examples::retry_demo::main_with(&mut out) {
        Ok(code) => code,
        // The reader of our output went away (`| head`): stop quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("retry: {e}");
            2
        }
    };
    let _ = out.flush();
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}
