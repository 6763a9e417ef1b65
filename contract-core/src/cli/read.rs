//! Bounded reads: a whole file up to a limit and never a byte past it, and
//! the input one line at a time, keeping at most a cap of each line.
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use super::args::Input;
use super::failure::{Failure, usage};

/// The longest `--source` text read: the e-mail or page the model read.
pub const MAX_SOURCE_BYTES: usize = 4 << 20;

/// A file that cannot be opened or read (it does not exist, is a
/// directory, is not readable, or fails while read): an I/O error, exit
/// code 3.
fn cannot_read(what: &str, path: &Path, e: &io::Error) -> Failure {
    Failure::Read(format!("cannot read {what}{}: {e}", path.display()))
}

fn refuse_directory(what: &str, path: &Path) -> Result<(), Failure> {
    if path.is_dir() {
        return Err(Failure::Read(format!(
            "cannot read {what}{}: it is a directory",
            path.display()
        )));
    }
    Ok(())
}

/// Reads a whole file of at most `limit` bytes. No byte past `limit + 1` is
/// ever read, so `/dev/zero` or a huge file costs `limit` bytes of memory;
/// past the limit, the error names `limit` and what it is (`why`).
pub(super) fn read_capped(
    what: &str,
    path: &Path,
    limit: usize,
    why: &str,
) -> Result<Vec<u8>, Failure> {
    let what_ = format!("{what} ");
    refuse_directory(&what_, path)?;
    let file = File::open(path).map_err(|e| cannot_read(&what_, path, &e))?;
    let cap = u64::try_from(limit).map_or(u64::MAX, |l| l.saturating_add(1));
    let mut bytes = Vec::new();
    file.take(cap)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot_read(&what_, path, &e))?;
    if bytes.len() > limit {
        return Err(usage(format!(
            "{what} {} is larger than {limit} bytes ({why})",
            path.display()
        ))
        .into());
    }
    Ok(bytes)
}

/// `--source FILE`, when given, read within [`MAX_SOURCE_BYTES`].
pub(super) fn read_source(path: Option<&Path>) -> Result<Option<String>, Failure> {
    path.map(|path| {
        read_text(
            "--source",
            path,
            MAX_SOURCE_BYTES,
            "the limit for a source text",
        )
    })
    .transpose()
}

/// [`read_capped`] of a text file.
pub(super) fn read_text(
    what: &str,
    path: &Path,
    limit: usize,
    why: &str,
) -> Result<String, Failure> {
    String::from_utf8(read_capped(what, path, limit, why)?).map_err(|_| {
        usage(format!(
            "cannot read {what} {}: it is not valid UTF-8",
            path.display()
        ))
        .into()
    })
}

/// Opens the input: a buffered reader over the file or stdin.
pub(super) fn open_input(input: &Input) -> Result<Box<dyn BufRead>, Failure> {
    match input {
        Input::Stdin => Ok(Box::new(io::stdin().lock())),
        Input::File(path) => {
            refuse_directory("", path)?;
            let file = File::open(path).map_err(|e| cannot_read("", path, &e))?;
            Ok(Box::new(BufReader::with_capacity(64 * 1024, file)))
        }
    }
}

/// Reads one line into `buf` (cleared first), keeping at most `cap` bytes of
/// it; the terminator (`\n` or `\r\n`) is not kept. Returns the line's full
/// length, or `None` at the end of the input.
pub fn read_line_capped<R: BufRead + ?Sized>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<usize>> {
    buf.clear();
    append_line_capped(reader, buf, cap)
}

/// [`read_line_capped`] appending to `buf`: the line's kept bytes start at
/// the length `buf` had (at most `cap` of them).
pub(super) fn append_line_capped<R: BufRead + ?Sized>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<usize>> {
    let start = buf.len();
    let mut len = 0usize;
    let mut last = None;
    let mut any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match memchr::memchr(b'\n', available) {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        let room = cap.saturating_sub(buf.len() - start);
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        len += chunk.len();
        if let Some(&b) = chunk.last() {
            last = Some(b);
        }
        let consumed = chunk.len() + usize::from(done);
        reader.consume(consumed);
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if last == Some(b'\r') {
        len -= 1;
        if buf.len() - start > len {
            buf.truncate(start + len);
        }
    }
    Ok(Some(len))
}
