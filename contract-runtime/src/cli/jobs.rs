//! `--jobs N`: the lines checked on N threads, the output unchanged.
//!
//! The calling thread is one of the N: it spawns N − 1 more
//! (`std::thread::scope`, no pool crate) and shares one queue of batches
//! with them (a mutex and two condition variables; a thread holds the lock
//! only to take or hand back a whole batch, never while it waits or checks).
//! A batch is up to [`BATCH_LINES`] lines or [`BATCH_BYTES`] bytes of input.
//! Every thread takes the oldest batch not yet taken, checks its lines and
//! writes their decisions into the batch's own output buffer. Between two
//! batches, the calling thread reads more input into the queue and writes
//! the checked batches to the output in the order of the input, recording
//! their outcomes in that order: the output and the summary are byte for
//! byte those of one thread, and the output needs no `Send` (it may be a
//! locked stdout). N busy threads on N cores, no thread that only waits.
//!
//! At most `2 × N + 4` batches are in flight (read, not yet written), so
//! memory stays bounded whatever the input's size: about `(2 × N + 4) ×
//! (BATCH_BYTES + max_bytes)` of input plus their output. A batch's buffers
//! are reused for the next one.
use std::collections::{BTreeMap, VecDeque};
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

use super::args::Format;
use super::check::check_line;
use super::checker::Checker;
use super::output::{write_decision, write_header};
use super::read::append_line_capped;
use crate::report::Report;
use crate::{OutcomeKind, Stage};

/// The most lines in one batch.
pub const BATCH_LINES: usize = 1024;
/// A batch ends at the first line that takes its input past this size.
pub const BATCH_BYTES: usize = 256 << 10;

/// Batches in flight beyond two per thread: enough that the other threads
/// rarely find the queue empty while the calling thread checks a batch of
/// its own and cannot refill it.
const IN_FLIGHT_SLACK: usize = 4;

/// Lines read (their kept bytes one after another), then once checked
/// their output and outcomes. Its buffers are reused from batch to batch:
/// no allocation once the first batches have grown them.
#[derive(Default)]
struct Batch {
    /// 1-based number of its first line.
    first_line: u64,
    bytes: Vec<u8>,
    /// Each line's end in `bytes` and its full length.
    lines: Vec<(usize, usize)>,
    /// The decisions, written in the output format.
    output: Vec<u8>,
    /// Each line's outcome, for the report.
    outcomes: Vec<(OutcomeKind, Option<Stage>)>,
}

/// What the threads share, behind one lock.
#[derive(Default)]
struct State {
    /// Batches read and not yet taken, oldest first, with their place in
    /// the input.
    queued: VecDeque<(u64, Batch)>,
    /// Batches checked and not yet written, by their place in the input.
    checked: BTreeMap<u64, Batch>,
    /// No batch will come any more: the calling thread stopped (at the
    /// end of the input, or on an error).
    closed: bool,
    /// A check panicked (a business check of the user's).
    panicked: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Signalled when a batch is queued or the queue closes.
    queued: Condvar,
    /// Signalled when a batch is checked or a check panicked.
    checked: Condvar,
}

impl Shared {
    /// The state; a poisoned lock is taken as it is (no thread panics
    /// while it holds the lock: checks run outside it).
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait<'a>(&self, on: &Condvar, state: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        on.wait(state).unwrap_or_else(PoisonError::into_inner)
    }
}

/// Closes the queue when the calling thread stops, for any reason, so
/// the other threads stop too.
struct CloseOnDrop<'a>(&'a Shared);

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.lock().closed = true;
        self.0.queued.notify_all();
    }
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
    let shared = Shared::default();
    thread::scope(|scope| {
        for _ in 1..jobs.max(1) {
            let shared = &shared;
            scope.spawn(move || worker(checker, format, shared));
        }
        let _close = CloseOnDrop(&shared);
        feed(checker, input, output, format, report, jobs, &shared)
    })?;
    output.flush()
}

/// Checks batches until the queue closes or a check panics.
fn worker(checker: &Checker, format: Format, shared: &Shared) {
    loop {
        let (seq, batch) = {
            let mut state = shared.lock();
            loop {
                if state.closed || state.panicked {
                    return;
                }
                if let Some(next) = state.queued.pop_front() {
                    break next;
                }
                state = shared.wait(&shared.queued, state);
            }
        };
        let checked = check_caught(checker, format, batch);
        let mut state = shared.lock();
        let ok = checked.is_some();
        match checked {
            Some(batch) => {
                state.checked.insert(seq, batch);
            }
            None => state.panicked = true,
        }
        drop(state);
        shared.checked.notify_one();
        if !ok {
            return;
        }
    }
}

/// [`check_batch`], or `None` if a check panicked: the calling thread
/// must not wait for a batch that will never come.
fn check_caught(checker: &Checker, format: Format, batch: Batch) -> Option<Batch> {
    panic::catch_unwind(AssertUnwindSafe(|| check_batch(checker, format, batch))).ok()
}

/// The decisions on a batch's lines, written in `format`, and their
/// outcomes.
fn check_batch(checker: &Checker, format: Format, mut batch: Batch) -> Batch {
    batch.output.clear();
    batch.outcomes.clear();
    let mut start = 0;
    for (i, &(end, len)) in batch.lines.iter().enumerate() {
        let decision = check_line(checker, &batch.bytes[start..end], len);
        start = end;
        batch
            .outcomes
            .push((decision.outcome, decision.rejected_at()));
        let line = batch.first_line + i as u64;
        // Writing into a `Vec` does not fail.
        let _ = write_decision(&mut batch.output, format, line, &decision);
    }
    batch
}

/// Reads the next batch into `batch` (emptied first), its first line
/// numbered `first_line`; returns whether the input ended.
fn read_batch<R: BufRead + ?Sized>(
    input: &mut R,
    batch: &mut Batch,
    cap: usize,
    first_line: u64,
) -> io::Result<bool> {
    batch.bytes.clear();
    batch.lines.clear();
    batch.first_line = first_line;
    while batch.lines.len() < BATCH_LINES && batch.bytes.len() < BATCH_BYTES {
        match append_line_capped(input, &mut batch.bytes, cap)? {
            Some(len) => batch.lines.push((batch.bytes.len(), len)),
            None => return Ok(true),
        }
    }
    Ok(false)
}

fn panicked() -> io::Error {
    io::Error::other("a check panicked")
}

/// The calling thread: reads batches and keeps at most
/// `2 × jobs + IN_FLIGHT_SLACK` of them in flight, writes the checked ones
/// in order, and checks the oldest queued batch when it has nothing else
/// to do.
fn feed<R: BufRead + ?Sized>(
    checker: &Checker,
    input: &mut R,
    output: &mut dyn Write,
    format: Format,
    report: &mut Report,
    jobs: usize,
    shared: &Shared,
) -> io::Result<()> {
    let cap = checker.limits().max_bytes.saturating_add(1);
    let in_flight_max = (2 * jobs.max(1) + IN_FLIGHT_SLACK) as u64;
    let mut spare: Vec<Batch> = Vec::new();
    let mut ready: Vec<Batch> = Vec::new();
    let (mut sent, mut written, mut line) = (0u64, 0u64, 0u64);
    let mut at_end = false;
    loop {
        while !at_end && sent - written < in_flight_max {
            let mut batch = spare.pop().unwrap_or_default();
            at_end = read_batch(input, &mut batch, cap, line + 1)?;
            if batch.lines.is_empty() {
                spare.push(batch);
                break;
            }
            line += batch.lines.len() as u64;
            shared.lock().queued.push_back((sent, batch));
            shared.queued.notify_one();
            sent += 1;
        }
        // Take what is checked, in order, and write it outside the lock.
        {
            let mut state = shared.lock();
            if state.panicked {
                return Err(panicked());
            }
            let mut next = written;
            while let Some(batch) = state.checked.remove(&next) {
                ready.push(batch);
                next += 1;
            }
        }
        for batch in ready.drain(..) {
            output.write_all(&batch.output)?;
            for &(kind, stage) in &batch.outcomes {
                report.record_kind(kind, stage);
            }
            spare.push(batch);
            written += 1;
        }
        if written == sent {
            if at_end {
                return Ok(());
            }
            continue;
        }
        // Nothing to write yet: check the oldest queued batch here, or
        // wait until the next one to write is checked.
        let mut state = shared.lock();
        if let Some((seq, batch)) = state.queued.pop_front() {
            drop(state);
            let batch = check_caught(checker, format, batch).ok_or_else(panicked)?;
            shared.lock().checked.insert(seq, batch);
            continue;
        }
        while !state.panicked && !state.checked.contains_key(&written) {
            state = shared.wait(&shared.checked, state);
        }
    }
}
