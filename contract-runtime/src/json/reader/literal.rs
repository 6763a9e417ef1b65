//! A string value matched as raw bytes, for a caller that knows which
//! strings it expects (a tagged union's variant names).
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
        let end = self.pos + quoted.len();
        if quoted.len() < 2 || self.bytes().get(self.pos..end) != Some(quoted) {
            return false;
        }
        self.pos = end;
        true
    }
}
