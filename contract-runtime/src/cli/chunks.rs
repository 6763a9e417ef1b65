//! The input of `--jobs N` read in large raw chunks of whole lines.
//!
//! The reading thread does not split the lines: it reads about
//! [`BATCH_BYTES`] straight into a batch's buffer, finds the last `\n` in
//! it (the bytes after it go to the next batch) and counts the `\n`s before
//! it, to number the lines; the checking thread splits them
//! ([`Batch::for_each_line`]). A line longer than the contract's limit that
//! no chunk holds whole is the one exception: the reader keeps the limit's
//! bytes of it, discards the rest as it reads it, and sends it alone.
//! Either way each line is given to the check as [`read_line_capped`]
//! gives it to `--jobs 1`: its terminator (`\n` or `\r\n`) removed, at most
//! `cap` bytes of it kept, and its full length.
//!
//! [`read_line_capped`]: super::read::read_line_capped
use std::io::{self, Read};

use crate::{OutcomeKind, Stage};

/// The most lines in one batch.
pub const BATCH_LINES: usize = 4096;
/// A batch's input is read until it holds this many bytes (then cut after
/// its last whole line), and read in calls of this size.
pub const BATCH_BYTES: usize = 256 << 10;

/// Lines read, then once checked their output and outcomes. Its buffers
/// are reused from batch to batch: no allocation once the first batches
/// have grown them.
#[derive(Default)]
pub(super) struct Batch {
    /// 1-based number of its first line.
    pub first_line: u64,
    /// The input: `bytes[..len]`. Past `len`, room to read into.
    bytes: Vec<u8>,
    len: usize,
    /// How many lines `bytes[..len]` holds.
    pub lines: usize,
    /// `Some(full length)`: `bytes[..len]` is the kept bytes of one line
    /// longer than the limit, its terminator removed. `None`: it is whole
    /// lines with their terminators (the last line of the input may have
    /// none).
    long: Option<usize>,
    /// The decisions, written in the output format.
    pub output: Vec<u8>,
    /// Each line's outcome, for the report.
    pub outcomes: Vec<(OutcomeKind, Option<Stage>)>,
}

impl Batch {
    /// Calls `f` with each line's kept bytes (at most `cap`, terminator
    /// removed) and its full length, in order.
    pub fn for_each_line(&self, cap: usize, mut f: impl FnMut(&[u8], usize)) {
        let bytes = &self.bytes[..self.len];
        if let Some(len) = self.long {
            f(bytes, len);
            return;
        }
        let mut line = |line: &[u8]| {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            f(&line[..line.len().min(cap)], line.len());
        };
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', bytes) {
            line(&bytes[start..end]);
            start = end + 1;
        }
        if start < bytes.len() {
            line(&bytes[start..]);
        }
    }
}

/// Reads the input into batches; what a batch's chunk holds past its last
/// whole line is carried to the next.
pub(super) struct Chunks {
    /// At most this many bytes of a line are kept.
    cap: usize,
    /// The start of the next batch.
    carry: Vec<u8>,
    /// The input ended (it is not read again).
    eof: bool,
}

impl Chunks {
    pub fn new(cap: usize) -> Self {
        Self {
            cap,
            carry: Vec::new(),
            eof: false,
        }
    }

    /// Reads the next batch into `batch`, its first line numbered
    /// `first_line`; no lines (`batch.lines == 0`) at the end of the input.
    pub fn next<R: Read + ?Sized>(
        &mut self,
        input: &mut R,
        batch: &mut Batch,
        first_line: u64,
    ) -> io::Result<()> {
        batch.first_line = first_line;
        batch.long = None;
        let mut filled = self.carry.len();
        room(&mut batch.bytes, filled, 0);
        batch.bytes[..filled].copy_from_slice(&self.carry);
        self.carry.clear();
        // No `\n` in `bytes[..searched]`.
        let mut searched = 0;
        let mut need = BATCH_BYTES;
        let mut end = loop {
            while !self.eof && filled < need {
                match read_into(input, &mut batch.bytes, filled)? {
                    0 => self.eof = true,
                    n => filled += n,
                }
            }
            if self.eof {
                break filled;
            }
            match memchr::memrchr(b'\n', &batch.bytes[searched..filled]) {
                Some(i) => break searched + i + 1,
                None if filled > self.cap => return self.long_line(input, batch, filled),
                None => {
                    searched = filled;
                    need = filled + 1;
                }
            }
        };
        let bytes = &batch.bytes[..end];
        let mut lines = memchr::memchr_iter(b'\n', bytes).count();
        if lines > BATCH_LINES {
            // Only lines of a few bytes each: the batch ends at the
            // `BATCH_LINES`-th, so that its output stays small.
            if let Some(i) = memchr::memchr_iter(b'\n', bytes).nth(BATCH_LINES - 1) {
                end = i + 1;
                lines = BATCH_LINES;
            }
        } else if end > 0 && bytes[end - 1] != b'\n' {
            // The last line of the input, without a terminator.
            lines += 1;
        }
        self.carry.extend_from_slice(&batch.bytes[end..filled]);
        batch.len = end;
        batch.lines = lines;
        Ok(())
    }

    /// `bytes[..filled]` is the start of one line, longer than `cap`: keeps
    /// `cap` bytes of it, reads the rest of it past them (discarded) and
    /// carries what follows its `\n`.
    fn long_line<R: Read + ?Sized>(
        &mut self,
        input: &mut R,
        batch: &mut Batch,
        filled: usize,
    ) -> io::Result<()> {
        let kept = self.cap.min(filled);
        let mut total = filled;
        let mut last = batch.bytes.get(filled.wrapping_sub(1)).copied();
        while !self.eof {
            let n = read_into(input, &mut batch.bytes, kept)?;
            let read = &batch.bytes[kept..kept + n];
            if n == 0 {
                self.eof = true;
            } else if let Some(i) = memchr::memchr(b'\n', read) {
                total += i;
                if i > 0 {
                    last = Some(read[i - 1]);
                }
                self.carry.extend_from_slice(&read[i + 1..]);
                break;
            } else {
                total += n;
                last = read.last().copied();
            }
        }
        let len = total - usize::from(last == Some(b'\r'));
        batch.len = kept.min(len);
        batch.long = Some(len);
        batch.lines = 1;
        Ok(())
    }
}

/// Makes `bytes` at least `at + extra` long (the added bytes zeroed, once:
/// a batch's buffer keeps its length from one use to the next).
fn room(bytes: &mut Vec<u8>, at: usize, extra: usize) {
    let want = at.saturating_add(extra);
    if bytes.len() < want {
        bytes.resize(want, 0);
    }
}

/// One read of up to [`BATCH_BYTES`] into `bytes[at..]`; 0 at the end of
/// the input.
fn read_into<R: Read + ?Sized>(input: &mut R, bytes: &mut Vec<u8>, at: usize) -> io::Result<usize> {
    room(bytes, at, BATCH_BYTES);
    let Some(to) = bytes.get_mut(at..at.saturating_add(BATCH_BYTES)) else {
        return Ok(0);
    };
    loop {
        match input.read(to) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}
