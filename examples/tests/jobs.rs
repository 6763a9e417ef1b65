//! `--jobs N` (and one thread) when a check of the user's panics: the command stops with
//! one line on stderr and the I/O exit code, and never waits for a batch
//! that will not come. Also the output of the threads against one
//! thread's, on messages that need escaping and on lines cut every way a
//! reader's buffer can cut them.

// A test may unwrap: a panic here is a failure, as in `contract-tests`.
#![allow(clippy::unwrap_used)]
use std::path::{Path, PathBuf};

use contract_runtime::cli::{self, BATCH_BYTES, BATCH_LINES, EXIT_IO, EXIT_OK};
use contract_runtime::{Contract, Violation};

/// Panics on `n == 7`, rejects `n == 8` with a message that needs escaping.
#[derive(Contract, Debug)]
#[contract(context = Trusted, check = explode)]
struct Boom {
    n: u64,
}

#[derive(serde::Deserialize)]
struct Trusted {}

fn explode(boom: &Boom, _: &Trusted) -> Result<(), Violation> {
    match boom.n {
        7 => panic!("a check of the user's panics"),
        8 => Err(Violation::business(
            "/n",
            "eight",
            "\"8\" \\ is\tnot\u{1} wanted: é😀",
        )),
        _ => Ok(()),
    }
}

/// A temporary input file, removed when dropped (a failing test too).
struct TempInput(PathBuf);

impl TempInput {
    fn new(test: &str, text: &str) -> Self {
        let path = std::env::temp_dir().join(format!("jobs-{}-{test}.jsonl", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempInput(path)
    }
}

impl std::ops::Deref for TempInput {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempInput {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn input(test: &str, lines: impl Iterator<Item = u64>) -> TempInput {
    let mut text = String::new();
    for n in lines {
        text.push_str(&format!("{{\"n\":{n}}}\n"));
    }
    TempInput::new(test, &text)
}

fn run(path: &Path, jobs: &str) -> (i32, Vec<u8>, String) {
    let entries = [cli::entry::<Boom>("boom").with_context::<Trusted>()];
    let args = [
        "boom",
        path.to_str().unwrap(),
        "--context={}",
        "--jobs",
        jobs,
    ];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = cli::main_with(entries, args, &mut out, &mut err);
    (code, out, String::from_utf8(err).unwrap())
}

fn assert_stops(path: &Path) {
    for jobs in ["1", "2", "3"] {
        for _ in 0..4 {
            let (code, _, err) = run(path, jobs);
            assert_eq!(code, EXIT_IO, "--jobs {jobs}: {err}");
            assert_eq!(err.lines().count(), 1, "--jobs {jobs}: {err}");
            assert!(err.contains("a check panicked"), "--jobs {jobs}: {err}");
        }
    }
}

#[test]
fn a_check_that_panics_on_every_line_stops_the_command() {
    // Every line panics: the first check of every thread does.
    let path = input("every", std::iter::repeat_n(7, 20 * BATCH_LINES));
    assert_stops(&path);
}

#[test]
fn a_check_that_panics_on_one_line_stops_the_command() {
    // One line in the middle of many batches.
    let lines = 20 * BATCH_LINES as u64;
    let path = input(
        "one",
        (0..lines).map(|i| if i == lines / 2 { 7 } else { 1 }),
    );
    assert_stops(&path);
}

#[test]
fn threads_print_what_one_thread_prints_with_escaped_messages() {
    let path = input("escaped", (0..5 * BATCH_LINES as u64).map(|i| 8 + i % 2));
    let (code, one, err) = run(&path, "1");
    assert_eq!(code, EXIT_OK, "{err}");
    let first = std::str::from_utf8(&one).unwrap().lines().next().unwrap();
    assert_eq!(
        first,
        r#"{"line":1,"outcome":"reject","errors":[{"stage":"business","pointer":"/n","code":"eight","message":"\"8\" \\ is\tnot\u0001 wanted: é😀"}]}"#
    );
    for jobs in ["2", "3"] {
        let (code, many, err) = run(&path, jobs);
        assert_eq!(code, EXIT_OK, "{err}");
        assert!(many == one, "--jobs {jobs}: stdout differs");
    }
}

/// Lines cut every way a reader's buffer can cut them: `\n` and `\r\n`,
/// a `\r` alone, blank lines, lines past the contract's `max_bytes` (4,096
/// for vacation) and past the reader's buffer (64 KiB), a line cut by the
/// buffer's end, and a last line without a terminator: `--jobs 2` and `3`
/// print what `--jobs 1` prints.
#[test]
fn threads_read_lines_as_one_thread_reads_them() {
    let shipped = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/vacation.jsonl"),
    )
    .unwrap();
    let mut text = String::new();
    for round in 0..400usize {
        for (i, line) in shipped.lines().enumerate() {
            text.push_str(line);
            text.push_str(if (round + i) % 3 == 0 { "\r\n" } else { "\n" });
        }
        text.push_str(&" ".repeat(round * 37 % 700));
        text.push_str(match round % 5 {
            0 => "\n",
            1 => "\r\n",
            2 => "\r\r\n",
            3 => "\r \n",
            _ => "\n\n",
        });
        if round % 50 == 7 {
            let long = if round % 100 == 7 { 70_000 } else { 4_097 };
            text.push_str(&"x".repeat(long));
            text.push_str("\r\n");
        }
    }
    text.push_str("{\"status\":\"not_a_request\"}\r");
    assert!(text.len() > 4 * BATCH_BYTES);
    assert_same_output("cut", &text, 2_048);
}

/// `--jobs 2` and `3` print what `--jobs 1` prints on `text`, which
/// gives more than `min_lines` lines of output.
fn assert_same_output(test: &str, text: &str, min_lines: usize) {
    let path = TempInput::new(test, text);
    let run = |jobs: &str| {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let args = ["vacation", path.to_str().unwrap(), "--jobs", jobs];
        let code = contract_examples::cli::main_with(args, &mut out, &mut err);
        (code, out, String::from_utf8(err).unwrap())
    };
    let one = run("1");
    assert_eq!(one.0, EXIT_OK, "{}", one.2);
    assert!(one.1.split(|&b| b == b'\n').count() > min_lines);
    for jobs in ["2", "3"] {
        let many = run(jobs);
        assert_eq!(many.0, one.0, "--jobs {jobs}");
        assert!(many.1 == one.1, "--jobs {jobs}: stdout differs");
        assert_eq!(many.2, one.2, "--jobs {jobs}: summary");
    }
}

/// Appends a line of spaces so that `text` ends `before` bytes before a
/// multiple of [`BATCH_BYTES`] (the next one it can reach with a line):
/// the end of a batch's bytes and of the reader's 64 KiB buffer.
fn pad_to_chunk_end(text: &mut String, before: usize) {
    let mut end = (text.len() / BATCH_BYTES + 1) * BATCH_BYTES - before;
    if end <= text.len() {
        end += BATCH_BYTES;
    }
    text.push_str(&" ".repeat(end - text.len() - 1));
    text.push('\n');
}

/// Lines cut every way a multiple of [`BATCH_BYTES`] in the input can cut
/// them (a reader that reads `BATCH_BYTES` at a time, or 64 KiB): after
/// `\r` and before `\n`, on `\n` and just after it, a line at, under and
/// past vacation's `max_bytes` (4,096) across it, lines longer than
/// `BATCH_BYTES` (cut after their `\r`, or ending with it at the end of the
/// input), more than [`BATCH_LINES`] blank lines across it, each a few
/// bytes on either side: `--jobs 2` and `3` print what `--jobs 1` prints.
#[test]
fn threads_read_lines_across_chunk_ends_as_one_thread_reads_them() {
    let shipped = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/vacation.jsonl"),
    )
    .unwrap();
    let valid = shipped.lines().next().unwrap();
    let mut text = String::new();
    let mut scenarios = 0;
    for shift in 0..5usize {
        // A valid line whose `\r`, then `\n`, then the byte after it is
        // the chunk's last byte.
        for end in 0..3usize {
            pad_to_chunk_end(&mut text, valid.len() + 2 + shift - end);
            text.push_str(valid);
            text.push_str("\r\n");
            text.push_str(valid);
            text.push('\n');
            scenarios += 1;
        }
        // Lines of 4,095 to 4,098 bytes across a chunk's end, with `\r\n`
        // and with `\n`.
        for len in 4_095..4_099usize {
            pad_to_chunk_end(&mut text, len / 2 + shift);
            text.push_str(&"x".repeat(len));
            text.push_str(if len % 2 == 0 { "\r\n" } else { "\n" });
            scenarios += 1;
        }
        // Longer than a chunk, its `\r` the chunk's last byte, its `\n` the
        // next one's first, or past the next chunk's end.
        for extra in [0, BATCH_BYTES / 2] {
            pad_to_chunk_end(&mut text, 0);
            text.push_str(&"y".repeat(BATCH_BYTES + extra - 1 + shift));
            text.push_str("\r\n");
            text.push_str(valid);
            text.push('\n');
            scenarios += 1;
        }
        // More blank lines than a batch holds, across a chunk's end.
        pad_to_chunk_end(&mut text, 3 * BATCH_LINES + shift);
        for i in 0..2 * BATCH_LINES {
            text.push_str(if i % 2 == 0 { "\n" } else { "\r\n" });
        }
        text.push_str(valid);
        text.push('\n');
        scenarios += 1;
    }
    assert_eq!(scenarios, 5 * 10);
    // The last line: longer than a chunk, ending with `\r`, no `\n`.
    text.push_str(&"z".repeat(BATCH_BYTES + 10));
    text.push('\r');
    assert_same_output("chunks", &text, 10 * BATCH_LINES);
}
