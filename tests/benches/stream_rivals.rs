//! Streaming against its rivals (results and the command in
//! `BENCHMARKS.md`): one document of the [`Notes`] shape (a notebook of
//! notes: strings with escapes and non-ASCII text, integers, an enum, a
//! date, booleans, an array of tags), 16 KiB, cut into 100, 1,000 and 5,000
//! pieces of equal length, read by
//!
//! - **ours**: `Notes::stream()`, a push per piece, then `finish()`: typed,
//!   every check of the contract, `finish()` is `check` on the whole text;
//! - **jsonmodem**: `jsonmodem::StreamingParser`, a `feed` per piece and
//!   its events drained: incremental, untyped (parse events only);
//! - **jiter**: the text accumulated so far parsed again with
//!   `jiter::PartialMode::TrailingStrings` after every piece, what
//!   Pydantic's partial validation does at each delta (untyped);
//! - **check**: `Notes::check` once on the whole text, the one-shot path.
//!
//! A second group reads documents of 16 KiB and 1 MiB in 16-byte pieces
//! with ours, for the cost per byte as the document grows.
//!
//! Run: `cargo bench -p contract-tests --bench stream_rivals -- --warm-up-time 1 --measurement-time 3`
//!
//! Instructions (deterministic where wall time is not, on a shared
//! machine): `RIVALS_PROFILE=MODE:BYTES:PIECES:ITERS` runs one loop
//! without criterion (`MODE` `ours`, `jsonmodem`, `jiter` or `check`;
//! `PIECES` 0 for pieces of 16 bytes), for `valgrind --tool=callgrind`;
//! `benches/stream-rivals.sh` runs them and subtracts the start-up.
use std::fmt::Write as _;
use std::hint::black_box;

use contract_runtime::stream::Progress;
use contract_runtime::{Contract, Date};
use criterion::{Criterion, Throughput, criterion_group};
use jiter::{JsonValue, PartialMode};
use jsonmodem::{ParserOptions, StreamingParser};

/// A notebook a model writes: a title and its notes.
#[derive(Contract, Debug)]
#[contract(max_bytes = 2_097_152)]
pub struct Notes {
    /// The notebook's title.
    #[contract(min_len = 1, max_len = 200)]
    title: String,
    /// The notes, in the order written.
    #[contract(min_len = 1, max_len = 100_000)]
    notes: Vec<Note>,
}

/// One note.
#[derive(Contract, Debug)]
pub struct Note {
    /// The note's number.
    #[contract(min = 1)]
    id: u64,
    /// A one-line heading.
    #[contract(min_len = 1, max_len = 120)]
    heading: String,
    /// The text of the note.
    #[contract(max_len = 4000)]
    body: String,
    /// Labels, at most eight.
    #[contract(max_len = 8)]
    tags: Vec<String>,
    /// How urgent it is.
    priority: Priority,
    /// Whether it is done.
    done: bool,
    /// When it is due, if it is.
    due: Option<Date>,
}

/// How urgent a note is.
#[derive(Contract, Debug, Clone, Copy)]
#[contract(rename_all = "lowercase")]
pub enum Priority {
    /// Some day.
    Low,
    /// This week.
    Normal,
    /// Today.
    High,
}

const WORDS: [&str; 16] = [
    "the", "meeting", "moved", "to", "Thursday", "café", "budget", "review", "naïve", "plan",
    "ship", "release", "notes", "über", "draft", "check",
];

/// A valid `Notes` document of at least `bytes` bytes (just past it).
fn document(bytes: usize) -> String {
    let mut out = String::from(r#"{"title": "Project notebook", "notes": ["#);
    let mut id = 1u64;
    loop {
        if id > 1 {
            out.push_str(", ");
        }
        let w = |k: u64| WORDS[(k % WORDS.len() as u64) as usize];
        let _ = write!(
            out,
            r#"{{"id": {id}, "heading": "{} {} {}", "body": ""#,
            w(id),
            w(id * 7 + 1),
            w(id * 3 + 2)
        );
        for k in 0..(8 + id % 24) {
            if k > 0 {
                out.push(' ');
            }
            out.push_str(w(id * 5 + k));
            if k % 9 == 8 {
                out.push_str(r#"\n\"quoted\""#);
            }
        }
        out.push_str(r#"", "tags": ["#);
        for k in 0..id % 4 {
            if k > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, r#""{}""#, w(id + k * 11));
        }
        let priority = ["low", "normal", "high"][(id % 3) as usize];
        let done = id.is_multiple_of(2);
        let _ = write!(
            out,
            r#"], "priority": "{priority}", "done": {done}, "due": "#
        );
        if id.is_multiple_of(5) {
            out.push_str("null}");
        } else {
            let _ = write!(out, r#""2027-{:02}-{:02}"}}"#, 1 + id % 12, 1 + id % 28);
        }
        id += 1;
        if out.len() + 2 >= bytes {
            break;
        }
    }
    out.push_str("]}");
    out
}

/// `text` cut into `count` pieces of about equal length (at char
/// boundaries), or into pieces of 16 bytes when `count` is 0.
fn pieces(text: &str, count: usize) -> Vec<&str> {
    let size = if count == 0 {
        16
    } else {
        text.len().div_ceil(count)
    };
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

fn ours(text: &[&str]) -> bool {
    let mut stream = Notes::stream();
    for piece in text {
        black_box(stream.push(black_box(piece)));
    }
    stream.finish().is_accept()
}

fn jsonmodem(text: &[&str]) -> usize {
    let mut parser = StreamingParser::new(ParserOptions::default());
    let mut events = 0;
    for piece in text {
        parser.feed(black_box(piece));
        for event in parser.by_ref() {
            black_box(event.is_ok());
            events += 1;
        }
    }
    for event in parser.finish() {
        black_box(event.is_ok());
        events += 1;
    }
    events
}

fn jiter(text: &[&str]) -> bool {
    let mut so_far = String::new();
    let mut fine = true;
    for piece in text {
        so_far.push_str(piece);
        let value = JsonValue::parse_with_config(
            black_box(so_far.as_bytes()),
            false,
            PartialMode::TrailingStrings,
        );
        fine &= black_box(value).is_ok();
    }
    fine
}

fn check(text: &str) -> bool {
    Notes::check(black_box(text)).is_accept()
}

/// Every reader agrees the document is fine before anything is timed.
fn sanity(text: &str, split: &[&str]) {
    assert!(check(text), "the document is a valid Notes");
    let mut stream = Notes::stream();
    for piece in split {
        assert_eq!(stream.push(piece), Progress::Pending);
    }
    assert!(stream.finish().is_accept());
    assert!(jsonmodem(split) > 0);
    assert!(jiter(split));
}

fn rivals(c: &mut Criterion) {
    let text = document(16 * 1024);
    let mut g = c.benchmark_group("notes-16k");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("check", |b| b.iter(|| check(&text)));
    for count in [100, 1_000, 5_000] {
        let split = pieces(&text, count);
        sanity(&text, &split);
        g.bench_function(format!("ours/{count}"), |b| b.iter(|| ours(&split)));
        g.bench_function(format!("jsonmodem/{count}"), |b| {
            b.iter(|| jsonmodem(&split))
        });
        g.bench_function(format!("jiter/{count}"), |b| b.iter(|| jiter(&split)));
    }
    g.finish();
    let mut g = c.benchmark_group("notes-per-byte");
    for bytes in [16 * 1024, 1024 * 1024] {
        let text = document(bytes);
        let split = pieces(&text, 0);
        sanity(&text, &split);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("ours/{bytes}"), |b| b.iter(|| ours(&split)));
    }
    g.finish();
}

/// One loop of `mode` on a document of `bytes`, `iters` times.
fn profile(spec: &str) {
    let parts: Vec<&str> = spec.split(':').collect();
    let [mode, bytes, count, iters] = parts.as_slice() else {
        panic!("RIVALS_PROFILE=MODE:BYTES:PIECES:ITERS, not {spec}");
    };
    let text = document(bytes.parse().expect("BYTES"));
    let split = pieces(&text, count.parse().expect("PIECES"));
    let iters: usize = iters.parse().expect("ITERS");
    // Start-up, subtracted with the run of zero iterations: the plan is
    // compiled on the first stream of the type (once per program).
    drop(Notes::stream());
    println!("bytes {}", text.len());
    for _ in 0..iters {
        match *mode {
            "ours" => black_box(ours(&split)),
            "jsonmodem" => black_box(jsonmodem(&split) > 0),
            "jiter" => black_box(jiter(&split)),
            _ => black_box(check(&text)),
        };
    }
}

criterion_group!(stream_rivals, rivals);

fn main() {
    if let Ok(spec) = std::env::var("RIVALS_PROFILE") {
        profile(&spec);
        return;
    }
    stream_rivals();
    Criterion::default().configure_from_args().final_summary();
}
