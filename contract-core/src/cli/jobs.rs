//! `--jobs N`: the lines checked on N threads, the output unchanged.
//!
//! The calling thread reads the input into batches (up to [`BATCH_LINES`]
//! lines or [`BATCH_BYTES`] bytes each) and hands them to N workers
//! (`std::thread::scope`, no pool crate); a worker checks every line of a
//! batch and writes its decisions into the batch's own output buffer; the
//! calling thread writes the buffers in the order of the batches and records
//! the outcomes in that order, so the output and the summary are byte for
//! byte those of one thread. At most `2 × N` batches are in flight, so memory
//! stays bounded whatever the input's size: about `2 × N × (BATCH_BYTES +
//! max_bytes)` of input plus their output.
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, mpsc};
use std::thread;

use super::args::OutputFormat;
use super::checker::Checker;
use super::line::check_line;
use super::output::{write_decision, write_header};
use super::read::append_line_capped;
use crate::report::Report;
use crate::{OutcomeKind, Stage};

/// The most lines in one batch.
pub const BATCH_LINES: usize = 512;
/// A batch ends at the first line that takes its input past this size.
pub const BATCH_BYTES: usize = 256 << 10;

/// Lines read (their kept bytes, see [`read_batch`]), then once checked
/// their output and outcomes. Its buffers are reused from batch to batch:
/// no allocation once the first `2 × N` batches have grown them.
#[derive(Default)]
struct Batch {
    /// 1-based number of its first line.
    first_line: u64,
    /// The lines' kept bytes, with their terminators when they were
    /// copied as a run of whole lines.
    bytes: Vec<u8>,
    /// Each line's kept bytes (`start..end` in `bytes`, without its
    /// terminator) and its full length.
    lines: Vec<(usize, usize, usize)>,
    /// The decisions, written in the output format.
    output: Vec<u8>,
    /// Each line's outcome, for the report.
    outcomes: Vec<(OutcomeKind, Option<Stage>)>,
}

/// A batch checked, with its place in the input.
struct Checked {
    seq: u64,
    batch: Batch,
}

/// [`super::run_lines`] on `jobs` threads: the same output and report.
pub fn run_lines_parallel<R: BufRead + ?Sized>(
    checker: &Checker,
    input: &mut R,
    output: &mut dyn Write,
    format: OutputFormat,
    report: &mut Report,
    jobs: usize,
) -> io::Result<()> {
    write_header(output, format)?;
    let (work, queue) = mpsc::channel::<(u64, Batch)>();
    let queue = Mutex::new(queue);
    let (done, results) = mpsc::channel::<Option<Checked>>();
    thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let done = done.clone();
            let queue = &queue;
            scope.spawn(move || worker(checker, format, queue, &done));
        }
        drop(done);
        // `work` is moved in: when the feeding ends, for any reason, the
        // queue closes and the workers stop.
        feed(checker, input, output, report, jobs, work, &results)
    })?;
    output.flush()
}

/// Checks batches until the queue closes.
fn worker(
    checker: &Checker,
    format: OutputFormat,
    queue: &Mutex<mpsc::Receiver<(u64, Batch)>>,
    done: &mpsc::Sender<Option<Checked>>,
) {
    loop {
        let next = match queue.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        let Ok((seq, batch)) = next else {
            return;
        };
        // A check that panics (a business check of the user's) must not
        // leave the calling thread waiting for its batch: it gets `None`.
        let checked = panic::catch_unwind(AssertUnwindSafe(|| {
            check_batch(checker, format, seq, batch)
        }))
        .ok();
        let failed = checked.is_none();
        if done.send(checked).is_err() || failed {
            return;
        }
    }
}

/// The decisions on a batch's lines, written in `format`, and their
/// outcomes.
fn check_batch(checker: &Checker, format: OutputFormat, seq: u64, mut batch: Batch) -> Checked {
    batch.output.clear();
    batch.outcomes.clear();
    for (i, &(start, end, len)) in batch.lines.iter().enumerate() {
        let decision = check_line(checker, &batch.bytes[start..end], len);
        batch
            .outcomes
            .push((decision.outcome, decision.rejected_at()));
        let line = batch.first_line + i as u64;
        // Writing into a `Vec` does not fail.
        let _ = write_decision(&mut batch.output, format, line, &decision);
    }
    Checked { seq, batch }
}

/// Reads the next batch into `batch` (emptied first), its first line
/// numbered `first_line`; returns whether the input ended.
///
/// The lines that lie whole in the reader's buffer are found with one
/// search for their ends and copied as one run, terminators included (no
/// call to the reader and no copy per line); a line past `cap` bytes is
/// copied alone, `cap` bytes of it. A line that runs past the buffer's end
/// is read by [`append_line_capped`], at most `cap` bytes of it kept.
fn read_batch<R: BufRead + ?Sized>(
    input: &mut R,
    batch: &mut Batch,
    cap: usize,
    first_line: u64,
) -> io::Result<bool> {
    batch.bytes.clear();
    batch.lines.clear();
    batch.first_line = first_line;
    let full = |batch: &Batch, pending: usize| {
        batch.lines.len() >= BATCH_LINES || batch.bytes.len() + pending >= BATCH_BYTES
    };
    while !full(batch, 0) {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        // `available[run..taken]`: whole lines not yet copied.
        let (mut run, mut taken) = (0, 0);
        for end in memchr::memchr_iter(b'\n', available) {
            let len = if end > taken && available[end - 1] == b'\r' {
                end - 1 - taken
            } else {
                end - taken
            };
            if len > cap {
                batch.bytes.extend_from_slice(&available[run..taken]);
                let start = batch.bytes.len();
                batch
                    .bytes
                    .extend_from_slice(&available[taken..taken + cap]);
                batch.lines.push((start, batch.bytes.len(), len));
                run = end + 1;
            } else {
                let start = batch.bytes.len() + (taken - run);
                batch.lines.push((start, start + len, len));
            }
            taken = end + 1;
            if full(batch, taken - run) {
                break;
            }
        }
        batch.bytes.extend_from_slice(&available[run..taken]);
        input.consume(taken);
        if full(batch, 0) {
            break;
        }
        // What is left of the buffer is part of a line (or nothing).
        let start = batch.bytes.len();
        match append_line_capped(input, &mut batch.bytes, cap)? {
            Some(len) => batch.lines.push((start, batch.bytes.len(), len)),
            None => return Ok(true),
        }
    }
    Ok(false)
}

/// Reads batches, keeps `2 × jobs` of them in flight, and writes the
/// checked ones in order.
fn feed<R: BufRead + ?Sized>(
    checker: &Checker,
    input: &mut R,
    output: &mut dyn Write,
    report: &mut Report,
    jobs: usize,
    work: mpsc::Sender<(u64, Batch)>,
    results: &mpsc::Receiver<Option<Checked>>,
) -> io::Result<()> {
    let cap = checker.limits().max_bytes.saturating_add(1);
    let in_flight_max = 2 * jobs.max(1);
    let mut spare: Vec<Batch> = Vec::new();
    let mut waiting: BTreeMap<u64, Checked> = BTreeMap::new();
    let (mut sent, mut written, mut line) = (0u64, 0u64, 0u64);
    let mut at_end = false;
    loop {
        while !at_end && sent - written < in_flight_max as u64 {
            let mut batch = spare.pop().unwrap_or_default();
            at_end = read_batch(input, &mut batch, cap, line + 1)?;
            if batch.lines.is_empty() {
                spare.push(batch);
                break;
            }
            line += batch.lines.len() as u64;
            work.send((sent, batch))
                .map_err(|_| io::Error::other("the checking threads stopped"))?;
            sent += 1;
        }
        if written == sent {
            return Ok(());
        }
        let checked = results
            .recv()
            .ok()
            .flatten()
            .ok_or_else(|| io::Error::other("a checking thread stopped (a check panicked)"))?;
        waiting.insert(checked.seq, checked);
        while let Some(checked) = waiting.remove(&written) {
            output.write_all(&checked.batch.output)?;
            for &(kind, stage) in &checked.batch.outcomes {
                report.record_kind(kind, stage);
            }
            spare.push(checked.batch);
            written += 1;
        }
    }
}
