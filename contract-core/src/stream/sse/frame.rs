//! The server-sent events framing (WHATWG HTML, "Interpreting an event
//! stream"): bytes in any split to events, each the joined `data:` lines
//! of a block ended by a blank line.
//!
//! Lines end at CR, LF or CRLF (a CR at the end of one piece and the LF at
//! the start of the next are one line end); a line starting with `:` is a
//! comment; `field: value` loses one space after the colon; `data` lines
//! are joined with LF; `event`, `id`, `retry` and unknown fields are
//! skipped (the provider formats say what an event is in its JSON); a
//! block without `data` dispatches nothing; a leading byte-order mark is
//! skipped. Line ends are ASCII, never inside a UTF-8 sequence, so a line
//! is decoded once complete and a character split between pieces costs
//! nothing.
use super::{Error, ErrorKind};

/// The longest event read: its `data` and the line being read (16 MiB, a
/// CLI transcript's limit). Memory is bounded by it.
pub const MAX_EVENT_BYTES: usize = 16 << 20;

/// One dispatched event.
#[derive(Debug)]
pub(super) struct Frame {
    /// 1-based, among the dispatched events.
    pub number: usize,
    /// Its `data` lines joined with `\n`.
    pub data: String,
}

/// The framing state between pieces.
#[derive(Debug, Default)]
pub(super) struct Framer {
    /// The bytes of the line being read.
    line: Vec<u8>,
    /// The previous byte ended a line with CR: an LF now is part of it.
    after_cr: bool,
    /// No line was completed yet (a byte-order mark may start this one).
    first_line: bool,
    /// The data of the event being read (each line followed by `\n`).
    data: String,
    /// Whether a `data` field was met in this block.
    has_data: bool,
    /// Events dispatched so far.
    dispatched: usize,
}

impl Framer {
    pub(super) fn new() -> Self {
        Framer {
            first_line: true,
            ..Framer::default()
        }
    }

    /// The events dispatched so far.
    pub(super) fn dispatched(&self) -> usize {
        self.dispatched
    }

    /// Frames `bytes`, handing each complete event to `each` (which may
    /// fail, ending the feed).
    pub(super) fn feed(
        &mut self,
        mut bytes: &[u8],
        each: &mut dyn FnMut(Frame) -> Result<(), Error>,
    ) -> Result<(), Error> {
        while !bytes.is_empty() {
            if self.after_cr {
                self.after_cr = false;
                if bytes[0] == b'\n' {
                    bytes = &bytes[1..];
                    continue;
                }
            }
            match bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(at) => {
                    self.take(&bytes[..at])?;
                    self.after_cr = bytes[at] == b'\r';
                    bytes = &bytes[at + 1..];
                    self.end_line(each)?;
                }
                None => {
                    self.take(bytes)?;
                    bytes = &[];
                }
            }
        }
        Ok(())
    }

    /// The end of the stream: a line without its end and an event without
    /// its blank line are read as if both had come (a recording that lost
    /// its last newline replays whole).
    pub(super) fn finish(
        &mut self,
        each: &mut dyn FnMut(Frame) -> Result<(), Error>,
    ) -> Result<(), Error> {
        if !self.line.is_empty() {
            self.end_line(each)?;
        }
        self.dispatch(each)
    }

    fn take(&mut self, bytes: &[u8]) -> Result<(), Error> {
        if self.line.len() + self.data.len() + bytes.len() > MAX_EVENT_BYTES {
            return Err(Error::new(
                self.dispatched + 1,
                ErrorKind::TooLong,
                format!("is longer than {MAX_EVENT_BYTES} bytes"),
            ));
        }
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    fn end_line(&mut self, each: &mut dyn FnMut(Frame) -> Result<(), Error>) -> Result<(), Error> {
        let mut line = std::mem::take(&mut self.line);
        if std::mem::take(&mut self.first_line) && line.starts_with(b"\xEF\xBB\xBF") {
            line.drain(..3);
        }
        let result = self.field(&line, each);
        // Keep the allocation for the next line.
        line.clear();
        self.line = line;
        result
    }

    fn field(
        &mut self,
        line: &[u8],
        each: &mut dyn FnMut(Frame) -> Result<(), Error>,
    ) -> Result<(), Error> {
        if line.is_empty() {
            return self.dispatch(each);
        }
        if line[0] == b':' {
            return Ok(());
        }
        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(at) => {
                let value = &line[at + 1..];
                (&line[..at], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        if name != b"data" {
            return Ok(());
        }
        let Ok(value) = std::str::from_utf8(value) else {
            return Err(Error::new(
                self.dispatched + 1,
                ErrorKind::NotUtf8,
                "is not UTF-8".to_owned(),
            ));
        };
        self.data.push_str(value);
        self.data.push('\n');
        self.has_data = true;
        Ok(())
    }

    fn dispatch(&mut self, each: &mut dyn FnMut(Frame) -> Result<(), Error>) -> Result<(), Error> {
        if !std::mem::take(&mut self.has_data) {
            return Ok(());
        }
        let mut data = std::mem::take(&mut self.data);
        data.pop();
        self.dispatched += 1;
        each(Frame {
            number: self.dispatched,
            data,
        })
    }
}
