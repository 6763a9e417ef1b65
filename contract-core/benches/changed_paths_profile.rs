//! A small driver for counting `changed_paths` with callgrind, without
//! criterion around it (instruction counts repeat on a noisy machine where
//! times do not): the benchmark's documents (`changed_paths_documents`),
//! one size, N calls.
//!
//! ```sh
//! cargo bench -p contract-core --bench changed_paths_profile --no-run
//! valgrind --tool=callgrind --callgrind-out-file=cg.out \
//!     target/release/deps/changed_paths_profile-HASH 1MiB 20
//! callgrind_annotate --inclusive=yes cg.out | head -40
//! ```
//!
//! Arguments: `SIZE [ITERATIONS [MODE]]` with SIZE `1KiB`, `64KiB` or
//! `1MiB` (default 1 iteration). MODE `text`: `changed_paths_str` against
//! `after` serialized (what an edit check runs) instead of `changed_paths`;
//! `added` / `removed`: `changed_paths` against a candidate with a member
//! added first in every section, or from it back to the baseline (objects
//! out of the baseline's key order by one member); `added_text` /
//! `removed_text`: the same through `changed_paths_str`. It prints the
//! bytes, the iterations and the changes found. Subtract a run with 0 iterations (building the documents)
//! before dividing by the iterations and bytes; `changed_paths_callgrind.sh`
//! beside this file does it for every size. Run by `cargo bench` (which
//! passes `--bench`), it calls `changed_paths` once per size and exits.
#![allow(missing_docs)]

use std::hint::black_box;
use std::process::ExitCode;

use contract_runtime::diff::{changed_paths, changed_paths_str};
use contract_runtime::json::Limits;

mod changed_paths_documents;

use changed_paths_documents::{SIZES, bytes, document, edited, with_a_member_added};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a.starts_with("--")) {
        // `cargo bench` runs every bench target with `--bench`: a smoke run.
        for (label, target) in SIZES {
            let before = document(target);
            let changes = changed_paths(&before, &edited(&before)).len();
            println!("changed_paths_profile {label}: {changes} changes");
        }
        return ExitCode::SUCCESS;
    }
    let Some(&(label, target)) = SIZES.iter().find(|(label, _)| *label == args[0]) else {
        eprintln!("usage: changed_paths_profile 1KiB|64KiB|1MiB [ITERATIONS [MODE]]");
        return ExitCode::from(2);
    };
    let Ok(iterations) = args.get(1).map_or(Ok(1), |n| n.parse::<usize>()) else {
        eprintln!("ITERATIONS must be a number");
        return ExitCode::from(2);
    };
    let mode = args.get(2).map_or("", String::as_str);
    let baseline = document(target);
    let (before, after) = match mode.trim_end_matches("_text") {
        "added" => (baseline.clone(), with_a_member_added(&baseline)),
        "removed" => (with_a_member_added(&baseline), baseline.clone()),
        "" | "text" => (baseline.clone(), edited(&baseline)),
        other => {
            eprintln!("unknown MODE `{other}`: text, added, removed, added_text or removed_text");
            return ExitCode::from(2);
        }
    };
    let text = mode.ends_with("text");
    let after_text = after.to_string();
    let limits = Limits {
        max_bytes: usize::MAX,
        ..Limits::DEFAULT
    };
    let mut changes = 0;
    for _ in 0..iterations {
        changes = if text {
            changed_paths_str(black_box(&before), black_box(&after_text), &limits)
                .map_or(0, |c| c.len())
        } else {
            changed_paths(black_box(&before), black_box(&after)).len()
        };
    }
    let name = if text {
        "changed_paths_str"
    } else {
        "changed_paths"
    };
    println!(
        "{name} {label}: {} bytes, {iterations} iterations, {changes} changes",
        bytes(&before)
    );
    ExitCode::SUCCESS
}
