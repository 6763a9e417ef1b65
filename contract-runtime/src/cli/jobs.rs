//! `--jobs N`: the lines checked on N threads, the output unchanged.
//!
//! The calling thread reads the input in raw chunks of whole lines
//! (`cli/chunks.rs`: about [`BATCH_BYTES`] each, at most [`BATCH_LINES`]
//! lines) and hands them to N workers (`std::thread::scope`, no pool
//! crate); a worker splits a batch into its lines, checks each and writes
//! its decisions into the batch's own output buffer; the calling thread
//! writes the buffers in the order of the batches and records the outcomes
//! in that order, so the output and the summary are byte for byte those of
//! one thread. At most `2 × N` batches are in flight, so memory stays
//! bounded whatever the input's size: about `2 × N × (2 × BATCH_BYTES +
//! max_bytes)` of input plus their output.
//!
//! [`BATCH_BYTES`]: super::BATCH_BYTES
//! [`BATCH_LINES`]: super::BATCH_LINES
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, mpsc};
use std::thread;

use super::args::Format;
use super::check::check_line;
use super::checker::Checker;
use super::chunks::{Batch, Chunks};
use super::output::{write_decision, write_header};
use crate::report::Report;

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
    format: Format,
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
    format: Format,
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
fn check_batch(checker: &Checker, format: Format, seq: u64, mut batch: Batch) -> Checked {
    let cap = checker.limits().max_bytes.saturating_add(1);
    let (mut output, mut outcomes) = (
        std::mem::take(&mut batch.output),
        std::mem::take(&mut batch.outcomes),
    );
    output.clear();
    outcomes.clear();
    let mut line = batch.first_line;
    batch.for_each_line(cap, |bytes, len| {
        let decision = check_line(checker, bytes, len);
        outcomes.push((decision.outcome, decision.rejected_at()));
        // Writing into a `Vec` does not fail.
        let _ = write_decision(&mut output, format, line, &decision);
        line += 1;
    });
    batch.output = output;
    batch.outcomes = outcomes;
    Checked { seq, batch }
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
    let mut chunks = Chunks::new(cap);
    let mut at_end = false;
    loop {
        while !at_end && sent - written < in_flight_max as u64 {
            let mut batch = spare.pop().unwrap_or_default();
            chunks.next(input, &mut batch, line + 1)?;
            if batch.lines == 0 {
                spare.push(batch);
                at_end = true;
                break;
            }
            line += batch.lines as u64;
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
