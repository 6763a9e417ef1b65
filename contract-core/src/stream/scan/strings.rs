//! Strings: keys and values, escapes and surrogate pairs split anywhere
//! between pieces (the lexical escape machine, kept between pieces), and
//! what a string's prefix or whole decides.
use crate::stream::plan::Plan;

use super::{Scanner, State, Stop, UNCHECKED};
use crate::json::lexical::{Escape, EscapeStep, HIGHS, is_string_stop, stop_bits};
use crate::stream::verdict;

impl Scanner {
    /// A string value starts (its content at `after`).
    pub(super) fn begin_string(&mut self, after: usize) {
        let expect = self.expect;
        let plan: &'static Plan = self.plan;
        let rule = &plan.node(expect.node).text;
        let checked = !expect.quarantine && rule.checks();
        let keep = expect.tag || (checked && rule.reads_text()) || self.watched();
        let s = &mut self.string;
        s.expect = expect;
        s.rule = rule;
        s.chars = 0;
        s.keep = keep;
        s.live = checked || (expect.tag && !expect.quarantine);
        s.text.clear();
        s.raw = Some(after);
        s.escape = None;
        s.safe = after;
        self.state = State::InString;
    }

    /// A key starts: its text is kept, nothing is checked on it as it
    /// comes (the plan is not read until it is complete).
    pub(super) fn begin_key(&mut self, after: usize) {
        let s = &mut self.string;
        s.expect = UNCHECKED;
        s.chars = 0;
        s.keep = true;
        s.live = false;
        s.text.clear();
        s.raw = Some(after);
        s.escape = None;
        s.safe = after;
        self.state = State::InKey;
    }

    // Reads string bytes from `i`; returns where it stopped.
    pub(super) fn string(&mut self, plan: &Plan, text: &str, mut i: usize) -> Result<usize, Stop> {
        let bytes = text.as_bytes();
        let start = i;
        loop {
            if let Some(escape) = self.string.escape {
                let Some(&b) = bytes.get(i) else {
                    return Ok(i);
                };
                i += 1;
                match escape.step(b) {
                    EscapeStep::More(next) => self.string.escape = Some(next),
                    EscapeStep::Char(c) => {
                        let s = &mut self.string;
                        s.escape = None;
                        s.chars += 1;
                        if s.keep {
                            s.text.push(c);
                        }
                        s.safe = i;
                    }
                    EscapeStep::Refused(_) => return Err(Stop::Syntax),
                }
                continue;
            }
            // A run of plain content.
            let run = i;
            // Only a checked string's length is read: the others skip
            // counting its characters.
            let (end, chars) = if self.string.live {
                plain_run::<true>(bytes, i)
            } else {
                plain_run::<false>(bytes, i)
            };
            i = end;
            let s = &mut self.string;
            s.chars += chars;
            if s.keep && s.raw.is_none() {
                s.text.push_str(text.get(run..i).unwrap_or_default());
            }
            s.safe = i;
            match bytes.get(i) {
                None => {
                    if i > start {
                        self.check_prefix(plan, text)?;
                    }
                    return Ok(i);
                }
                Some(b'"') => {
                    // `end_string` judges the whole string (its prefix too).
                    self.end_string(plan, text, i + 1)?;
                    return Ok(i + 1);
                }
                Some(b'\\') => {
                    let s = &mut self.string;
                    // The decoded text differs from the raw bytes from here.
                    if let Some(raw) = s.raw.take()
                        && s.keep
                    {
                        s.text.push_str(text.get(raw..i).unwrap_or_default());
                    }
                    s.escape = Some(Escape::START);
                    i += 1;
                }
                Some(_) => return Err(Stop::Syntax),
            }
        }
    }

    /// The string's decoded text so far (`text`: the document).
    #[inline]
    pub(super) fn decoded<'a>(&'a self, text: &'a str) -> &'a str {
        let s = &self.string;
        match s.raw {
            Some(raw) => text.get(raw..s.safe).unwrap_or_default(),
            None => &s.text,
        }
    }

    // What the string so far decides.
    fn check_prefix(&mut self, plan: &Plan, text: &str) -> Result<(), Stop> {
        let s = &self.string;
        if !s.live || self.state == State::InKey {
            return Ok(());
        }
        if s.expect.tag {
            let decoded = self.decoded(text);
            let frame = self.depth.checked_sub(1).and_then(|d| self.frames.get(d));
            let union = frame.and_then(|f| plan.node(f.node).union.as_ref());
            if let Some(union) = union
                && !union
                    .variants
                    .iter()
                    .any(|(name, _)| name.starts_with(decoded))
            {
                return Err(self.schema_error(text, union.unknown));
            }
            return Ok(());
        }
        let rule = s.rule;
        // Only a length past `max_len`, a value list or a date decides on
        // a prefix: a string with none of them (or within its length)
        // skips the call.
        let decides = rule.max_len.is_some_and(|max| s.chars > max)
            || !rule.allowed.is_empty()
            || rule.date
            || rule.date_time;
        if !decides {
            return Ok(());
        }
        let v = verdict::string_prefix(rule, s.chars, self.decoded(text));
        self.judge(text, v)
    }

    fn end_string(&mut self, plan: &Plan, text: &str, after: usize) -> Result<(), Stop> {
        if self.state == State::InKey {
            let frame = self
                .depth
                .checked_sub(1)
                .and_then(|d| self.frames.get_mut(d));
            let Some(frame) = frame else {
                return Err(Stop::Syntax);
            };
            let s = &mut self.string;
            // A key without escapes stays where it is in the document.
            match s.raw {
                Some(raw) => frame.key_at = Some((raw, s.safe)),
                None => {
                    std::mem::swap(&mut frame.key, &mut s.text);
                    frame.key_at = None;
                }
            }
            self.state = State::Colon;
            return self.member(plan, text, after);
        }
        let s = &self.string;
        if s.expect.tag {
            self.tag(plan, text)?;
        } else if s.live {
            let v = verdict::string_end(s.rule, s.chars, self.decoded(text));
            self.judge(text, v)?;
        }
        if self.watched() {
            self.record_text(text)?;
        }
        self.value_done(after);
        Ok(())
    }
}

// Where the plain content from `i` ends (at a `"`, `\`, control byte or
// the end of `bytes`: the lexical string stops), and how many characters
// it holds: eight bytes at a time while a word remains (in the word that holds the end, the lowest
// flagged byte is the end: the tests below are exact for the lowest byte
// they flag, a borrow only runs upwards), then byte by byte.
// With `COUNT` false the count is 0 (a string whose length no check reads).
#[inline]
fn plain_run<const COUNT: bool>(bytes: &[u8], mut i: usize) -> (usize, usize) {
    let mut chars = 0;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let stop = stop_bits(x);
        if stop == 0 {
            if !COUNT {
                i += 8;
                continue;
            }
            chars += if x & HIGHS == 0 {
                8
            } else {
                // Continuation bytes, `10xxxxxx`, start no character.
                let continuation = x & !(x << 1) & HIGHS;
                8 - continuation.count_ones() as usize
            };
            i += 8;
            continue;
        }
        // The bytes before the end.
        let n = (stop.trailing_zeros() / 8) as usize;
        if !COUNT {
            return (i + n, 0);
        }
        let before = x & ((1u64 << (8 * n)) - 1);
        // ASCII bytes before the end (the common case) are a character
        // each: no count of continuation bytes (a popcount in software on
        // the baseline target).
        if before & HIGHS == 0 {
            return (i + n, chars + n);
        }
        let continuation = before & !(before << 1) & HIGHS;
        return (i + n, chars + n - continuation.count_ones() as usize);
    }
    while let Some(&b) = bytes.get(i) {
        if is_string_stop(b) {
            break;
        }
        if COUNT {
            chars += usize::from(b & 0xC0 != 0x80);
        }
        i += 1;
    }
    (i, chars)
}

#[cfg(test)]
mod tests {
    use super::plain_run;

    fn slow(bytes: &[u8], mut i: usize) -> (usize, usize) {
        let mut chars = 0;
        while let Some(&b) = bytes.get(i) {
            if b == b'"' || b == b'\\' || b < 0x20 {
                break;
            }
            chars += usize::from(b & 0xC0 != 0x80);
            i += 1;
        }
        (i, chars)
    }

    #[test]
    fn a_plain_run_ends_and_counts_as_byte_by_byte() {
        let texts = [
            "",
            "plain ascii text, long enough for two words",
            "stops at a quote\" here",
            "stops at a backslash \\ here",
            "stops at a tab\t here",
            "caf\u{e9} na\u{ef}ve \u{1F600} \u{4e2d}\u{6587} and more text after it",
            "\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff} \u{1f}",
            "0123456\"",
            "01234567\"",
            "012345678\u{0}",
        ];
        for text in texts {
            let bytes = text.as_bytes();
            for i in 0..=bytes.len() {
                if text.is_char_boundary(i) {
                    assert_eq!(
                        plain_run::<true>(bytes, i),
                        slow(bytes, i),
                        "{text:?} from {i}"
                    );
                    assert_eq!(plain_run::<false>(bytes, i), (slow(bytes, i).0, 0));
                }
            }
        }
        // Every byte value at every place of a word, next to the others.
        for b in 0..=255u8 {
            for c in [b'a', 0x80, 0xC3, 0x1F, b'"', 0xFF] {
                for at in 0..8 {
                    let mut bytes = *b"abcdefghijklmnop";
                    bytes[at] = b;
                    bytes[(at + 3) % 8] = c;
                    assert_eq!(
                        plain_run::<true>(&bytes, 0),
                        slow(&bytes, 0),
                        "{b:#x} at {at}"
                    );
                    assert_eq!(plain_run::<false>(&bytes, 0), (slow(&bytes, 0).0, 0));
                }
            }
        }
    }
}
