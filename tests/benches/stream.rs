//! Streaming cost (results and the command in `BENCHMARKS.md`): the valid
//! documents of `benches/documents.json` (the five seeds and the ~4.5 KiB
//! invoice) pushed in pieces of 1, 4 and 16 bytes, against
//!
//! - **check**: `T::check` once on the whole text (the one-shot path);
//! - **stream/N**: `T::stream()`, a push per N-byte piece, then `finish()`
//!   (`check`'s stages on the text, without the rule stage when the stream
//!   decided every rule: the same outcome);
//! - **recheck/N**: what a caller does without streams: `T::check` on the
//!   text accumulated so far after every piece (quadratic in the length).
//!
//! One iteration handles the contract's whole valid set. Before timing, the
//! bytes a stream reads before it rejects are printed for each early-failing
//! document: the `one_error` document of each contract and the shipped
//! `.sse` transcripts, pushed one byte at a time.
//!
//! Run: `cargo bench -p contract-tests --bench stream -- --warm-up-time 1 --measurement-time 3`
//!
//! Instructions (deterministic where wall time is not, on a shared
//! machine): `STREAM_PROFILE=CONTRACT:MODE:SIZE:ITERS` runs one loop
//! without criterion (`MODE` `check`, `stream` or `recheck`; one iteration
//! handles the valid set), for `valgrind --tool=callgrind`;
//! `benches/stream-instructions.sh` runs them all and subtracts the start-up
//! (which includes the plan's compilation, done once per type).
use std::hint::black_box;

use contract_runtime::Contract;
use contract_runtime::stream::Progress;
use criterion::{Criterion, Throughput, criterion_group};

mod contracts;

use contracts::{
    Case, CloseTicketCase, DOCUMENTS, File, InvoiceCase, SettingsCase, TicketExtractionCase,
    TriageCase, VacationCase,
};

/// `text` cut into pieces of about `size` bytes (at char boundaries).
fn pieces(text: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + size).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[at..end]);
        at = end;
    }
    out
}

/// Bytes pushed (one at a time) when the stream rejected `text`.
fn read_before_rejection<T: Contract>(text: &str) -> Option<usize> {
    let mut stream = T::stream();
    for piece in pieces(text, 1) {
        if let Progress::Rejected(_) = stream.push(piece) {
            return Some(stream.received());
        }
    }
    None
}

fn bench_case<C: Case>(c: &mut Criterion, file: &File) {
    let docs = &file.contracts[C::KEY];
    let valid: Vec<&str> = docs.valid.iter().map(String::as_str).collect();
    let bytes: usize = valid.iter().map(|d| d.len()).sum();
    let one_error = docs.one_error.as_str();
    eprintln!(
        "{} one_error: rejected after {:?} of {} bytes",
        C::KEY,
        read_before_rejection::<C::Ours>(one_error),
        one_error.len()
    );
    let mut g = c.benchmark_group(format!("{}/stream", C::KEY));
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("check", |b| {
        b.iter(|| {
            for doc in &valid {
                black_box(C::Ours::check(black_box(doc)).is_accept());
            }
        })
    });
    for size in [1, 4, 16] {
        let split: Vec<Vec<&str>> = valid.iter().map(|d| pieces(d, size)).collect();
        for doc in &split {
            let mut stream = C::Ours::stream();
            for piece in doc {
                assert_eq!(stream.push(piece), Progress::Pending, "{}", C::KEY);
            }
            assert!(!stream.finish().is_reject(), "{}", C::KEY);
        }
        g.bench_function(format!("stream/{size}"), |b| {
            b.iter(|| {
                for doc in &split {
                    let mut stream = C::Ours::stream();
                    for piece in doc {
                        black_box(stream.push(black_box(piece)));
                    }
                    black_box(stream.finish().is_accept());
                }
            })
        });
        g.bench_function(format!("recheck/{size}"), |b| {
            b.iter(|| {
                for doc in &split {
                    let mut text = String::new();
                    for piece in doc {
                        text.push_str(piece);
                        black_box(C::Ours::check(black_box(&text)).is_reject());
                    }
                }
            })
        });
    }
    g.finish();
}

/// The shipped transcripts, as the CLI replays them.
fn transcripts() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/data");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("examples/data")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".sse"))
        .collect();
    names.sort();
    for name in names {
        let contract = name.split('.').next().unwrap_or_default();
        let path = format!("{dir}/{name}");
        let args: Vec<std::ffi::OsString> = vec![contract.into(), "--sse".into(), path.into()];
        let mut stdout = Vec::new();
        contract_examples::cli::main_with(args, &mut stdout, &mut Vec::new());
        eprintln!("{name}: {}", String::from_utf8_lossy(&stdout).trim_end());
    }
}

fn benches(c: &mut Criterion) {
    transcripts();
    let file: File = serde_json::from_str(DOCUMENTS).expect("benches/documents.json");
    bench_case::<CloseTicketCase>(c, &file);
    bench_case::<SettingsCase>(c, &file);
    bench_case::<TriageCase>(c, &file);
    bench_case::<TicketExtractionCase>(c, &file);
    bench_case::<VacationCase>(c, &file);
    bench_case::<InvoiceCase>(c, &file);
}

/// One loop of `mode` over `C`'s valid documents, `iters` times.
fn profile_case<C: Case>(file: &File, mode: &str, size: usize, iters: usize) {
    let docs = &file.contracts[C::KEY];
    let split: Vec<Vec<&str>> = docs.valid.iter().map(|d| pieces(d, size)).collect();
    // Start-up, subtracted with the run of zero iterations: the plan is
    // compiled on the first stream of the type (once per program).
    drop(C::Ours::stream());
    for _ in 0..iters {
        for (doc, pieces) in docs.valid.iter().zip(&split) {
            match mode {
                "check" => {
                    black_box(C::Ours::check(black_box(doc)).is_accept());
                }
                "stream" => {
                    let mut stream = C::Ours::stream();
                    for piece in pieces {
                        black_box(stream.push(black_box(piece)));
                    }
                    black_box(stream.finish().is_accept());
                }
                _ => {
                    let mut text = String::new();
                    for piece in pieces {
                        text.push_str(piece);
                        black_box(C::Ours::check(black_box(&text)).is_reject());
                    }
                }
            }
        }
    }
}

fn profile(spec: &str) {
    let parts: Vec<&str> = spec.split(':').collect();
    let [contract, mode, size, iters] = parts.as_slice() else {
        panic!("STREAM_PROFILE=CONTRACT:MODE:SIZE:ITERS, not {spec}");
    };
    let size: usize = size.parse().expect("SIZE");
    let iters: usize = iters.parse().expect("ITERS");
    let file: File = serde_json::from_str(DOCUMENTS).expect("benches/documents.json");
    match *contract {
        "close_ticket" => profile_case::<CloseTicketCase>(&file, mode, size, iters),
        "settings" => profile_case::<SettingsCase>(&file, mode, size, iters),
        "triage" => profile_case::<TriageCase>(&file, mode, size, iters),
        "ticket_extraction" => profile_case::<TicketExtractionCase>(&file, mode, size, iters),
        "vacation" => profile_case::<VacationCase>(&file, mode, size, iters),
        _ => profile_case::<InvoiceCase>(&file, mode, size, iters),
    }
}

criterion_group!(stream, benches);

fn main() {
    if let Ok(spec) = std::env::var("STREAM_PROFILE") {
        profile(&spec);
        return;
    }
    stream();
    Criterion::default().configure_from_args().final_summary();
}
