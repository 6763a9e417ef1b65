//! A key or a string value matched as raw bytes, for a caller that knows
//! which strings it expects (a tagged union's tag and variant names).
use super::Reader;

impl Reader<'_> {
    /// After whitespace, consumes a string value whose raw bytes are exactly
    /// `quoted`: a string literal with its quotes and nothing inside that
    /// JSON would escape (no `"`, `\` or control character), so that the
    /// bytes matched are the whole string. Otherwise consumes only the
    /// whitespace: a string written with escapes is not matched here, and
    /// is read as any string.
    #[inline]
    pub fn eat_str(&mut self, quoted: &[u8]) -> bool {
        self.skip_ws();
        self.eat_quoted(quoted)
    }

    /// At the start of a member, consumes the key and its `:` when the raw
    /// bytes of the key are exactly `quoted` (a key literal with its quotes
    /// and no escapes; whitespace may come before the `:`); otherwise
    /// consumes nothing. A key written with escapes is not matched here:
    /// [`Reader::read_key`] unescapes it. For a key known at compile time,
    /// [`Reader::eat_key`] is cheaper.
    #[inline]
    pub fn eat_quoted_key(&mut self, quoted: &[u8]) -> bool {
        let start = self.pos;
        if !self.eat_quoted(quoted) {
            return false;
        }
        self.skip_ws();
        if self.bytes().get(self.pos) == Some(&b':') {
            self.pos += 1;
            true
        } else {
            self.pos = start;
            false
        }
    }

    /// At a string value, reads it with `parse` when it is written as
    /// exactly `N` bytes between its quotes and `parse` takes them (a value
    /// of fixed width, such as a date): the string is consumed and its
    /// value returned. Otherwise consumes nothing, and the caller reads the
    /// string as any other. `parse` must refuse a `\` and a `"`, so that
    /// the bytes it takes are the whole string, unescaped.
    #[inline]
    pub fn read_fixed<T, const N: usize>(
        &mut self,
        parse: impl FnOnce(&[u8; N]) -> Option<T>,
    ) -> Option<T> {
        let bytes = self.bytes();
        if bytes.get(self.pos) != Some(&b'"') {
            return None;
        }
        let start = self.pos + 1;
        let inner = bytes.get(start..)?.first_chunk::<N>()?;
        if bytes.get(start + N) != Some(&b'"') {
            return None;
        }
        let value = parse(inner)?;
        self.pos = start + N + 1;
        Some(value)
    }

    // Consumes `quoted` (a string literal with its quotes, at least `""`)
    // when the next bytes are exactly it.
    #[inline]
    fn eat_quoted(&mut self, quoted: &[u8]) -> bool {
        let end = self.pos + quoted.len();
        if quoted.len() < 2 || self.bytes().get(self.pos..end) != Some(quoted) {
            return false;
        }
        self.pos = end;
        true
    }
}
