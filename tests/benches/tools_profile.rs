//! A driver for counting the instructions of one side of the tool-call
//! benchmark (`tools.rs`) with callgrind, without criterion around it:
//!
//! ```sh
//! cargo bench -p contract-tests --bench tools_profile --no-run
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/deps/tools_profile-HASH call_valid check_call 2000
//! ```
//!
//! Arguments: `CASE SIDE [ITERATIONS]` with CASE `call_valid`,
//! `call_invalid`, `batch_valid` or `batch_invalid`; SIDE for a call
//! `check_call`, `from_json` or `serde`, for a batch `check_calls` or
//! `serde`. Subtract a run with 0 iterations (the setup) before dividing
//! by the iterations. Run by `cargo bench` (which passes `--bench`), it
//! checks the decisions and exits.
use std::hint::black_box;

mod tool_calls;

use tool_calls::{
    check_decisions, invalid_batch, invalid_call, ours_batch, ours_call, ours_full, serde_batch,
    serde_full, valid_batch, valid_call,
};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a == "--bench") {
        check_decisions();
        return;
    }
    let case = args[0].as_str();
    let side = args.get(1).map(String::as_str).unwrap_or("check_call");
    let iterations: usize = args.get(2).map_or(1, |n| n.parse().unwrap());
    match case {
        "call_valid" | "call_invalid" => {
            let call = if case == "call_valid" {
                valid_call()
            } else {
                invalid_call()
            };
            let side: fn(&tool_calls::OneCall) -> bool = match side {
                "check_call" => ours_call,
                "from_json" => ours_full,
                "serde" => serde_full,
                other => panic!("unknown side `{other}`: check_call, from_json or serde"),
            };
            for _ in 0..iterations {
                black_box(side(black_box(&call)));
            }
        }
        "batch_valid" | "batch_invalid" => {
            let batch = if case == "batch_valid" {
                valid_batch()
            } else {
                invalid_batch()
            };
            let calls = batch.ours();
            for _ in 0..iterations {
                match side {
                    "check_calls" => black_box(ours_batch(black_box(&calls))),
                    "serde" => black_box(serde_batch(black_box(&batch))),
                    other => panic!("unknown side `{other}`: check_calls or serde"),
                };
            }
        }
        other => panic!("unknown case `{other}`"),
    }
    println!("{case} {side} {iterations}");
}
