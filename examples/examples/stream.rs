//! A model's output checked while it streams: the deltas of two recorded
//! chat-completions transcripts are pushed into `VacationRequest::stream()`
//! as they would arrive; what has arrived is shown as it grows, and the
//! generation is cancelled at the first delta that makes acceptance
//! impossible.
//!
//! ```sh
//! cargo run -q -p contract-examples --example stream
//! ```
use std::process::ExitCode;

use contract_examples::vacation::VacationRequest;
use contract_runtime::Contract;
use contract_runtime::cli::transcript;
use contract_runtime::stream::Progress;

const GOOD: &str = include_str!("../data/vacation.clarify.sse");
const BAD: &str = include_str!("../data/vacation.unknown-key.sse");

fn main() -> ExitCode {
    for (name, sse) in [
        ("vacation.clarify.sse", GOOD),
        ("vacation.unknown-key.sse", BAD),
    ] {
        println!("== {name}");
        let events = match transcript(sse) {
            Ok(events) => events,
            Err(e) => {
                eprintln!("stream: {e}");
                return ExitCode::from(2);
            }
        };
        let total: usize = events.iter().map(|e| e.content.len()).sum();
        let mut stream = VacationRequest::stream();
        for event in events.iter().filter(|e| !e.content.is_empty()) {
            match stream.push(&event.content) {
                Progress::Rejected(rejection) => {
                    // Here a client would cancel the request to the model.
                    let e = &rejection.errors[0];
                    println!(
                        "event {:>2}: stop the model: {} at {} ({} of {total} bytes read)",
                        event.number,
                        e.code,
                        e.pointer,
                        stream.received()
                    );
                    break;
                }
                // Pending (or progress this example does not know): show what has arrived.
                _ => println!("event {:>2}: {}", event.number, stream.partial()),
            }
        }
        let outcome = stream.finish();
        println!("decision: {}", outcome.kind().as_str());
    }
    ExitCode::SUCCESS
}
