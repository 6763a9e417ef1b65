//! `Path`: where the reader is in the document, and its RFC 6901 pointer
//! written in one pass when an error needs one.
use crate::error::PointerString;

#[doc(hidden)]
/// A location in the document being read, kept on the stack as a linked
/// list and turned into an RFC 6901 pointer only when an error needs one.
#[derive(Debug, Clone, Copy)]
pub enum Path<'a> {
    /// The whole document.
    Root,
    /// A member of an object.
    Key(&'a Path<'a>, &'a str),
    /// An element of an array.
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    /// The member `key` below this location.
    #[inline]
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    /// The element `index` below this location.
    #[inline]
    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path::Index(self, index)
    }

    /// The RFC 6901 pointer of this location, as an [`Error`] holds it:
    /// written in place, without a heap allocation, when none of its keys
    /// needs escaping and it is at most [`PointerString::INLINE`] bytes.
    #[inline]
    pub fn pointer(&self) -> PointerString {
        match self.inline_pointer() {
            Some(pointer) => pointer,
            None => self.heap_pointer(),
        }
    }

    // A pointer that does not fit inline, or needs escaping.
    #[cold]
    #[inline(never)]
    fn heap_pointer(&self) -> PointerString {
        PointerString::from(self.to_pointer())
    }

    // The pointer written inline, in one walk from its end (the leaf's
    // segment first) to the root, each key checked for `~` and `/` as it
    // is copied, a word at a time. `None` when it does not fit or a key
    // needs escaping.
    #[inline]
    fn inline_pointer(&self) -> Option<PointerString> {
        let mut buf = [0; PointerString::INLINE];
        let mut start = PointerString::INLINE;
        let mut at = self;
        loop {
            let parent = match at {
                Path::Root => return Some(PointerString::inline(buf, start)),
                Path::Key(parent, key) => {
                    let from = start.checked_sub(key.len())?;
                    copy_plain(buf.get_mut(from..start)?, key.as_bytes())?;
                    start = from;
                    parent
                }
                Path::Index(parent, index) => {
                    let mut n = *index;
                    loop {
                        start = start.checked_sub(1)?;
                        *buf.get_mut(start)? = b'0' + (n % 10) as u8;
                        n /= 10;
                        if n == 0 {
                            break;
                        }
                    }
                    parent
                }
            };
            start = start.checked_sub(1)?;
            *buf.get_mut(start)? = b'/';
            at = parent;
        }
    }

    /// The RFC 6901 pointer of this location.
    pub fn to_pointer(&self) -> String {
        // A member of the root (most errors' location) in two copies.
        if let Path::Key(Path::Root, key) = self
            && !crate::pointer::needs_escape(key)
        {
            let mut out = String::with_capacity(key.len() + 1);
            out.push('/');
            out.push_str(key);
            return out;
        }
        // One walk for the length and whether any key needs escaping, then
        // one allocation of the right size (a segment that needs escaping
        // grows it once more); the root allocates nothing.
        let (len, plain) = self.pointer_len();
        if len == 0 {
            return String::new();
        }
        let mut out = String::with_capacity(len);
        if plain {
            self.write_plain(&mut out);
        } else {
            self.write_pointer(&mut out);
        }
        out
    }

    // The pointer's length when no segment needs escaping, and whether
    // none does.
    fn pointer_len(&self) -> (usize, bool) {
        let mut len = 0;
        let mut plain = true;
        let mut at = self;
        loop {
            match at {
                Path::Root => return (len, plain),
                Path::Key(parent, key) => {
                    len += 1 + key.len();
                    plain = plain && !crate::pointer::needs_escape(key);
                    at = parent;
                }
                Path::Index(parent, index) => {
                    len += 1 + decimal_digits(*index);
                    at = parent;
                }
            }
        }
    }

    // `write_pointer` for a path none of whose keys needs escaping: each
    // key copied whole.
    fn write_plain(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Key(parent, key) => {
                parent.write_plain(out);
                out.push('/');
                out.push_str(key);
            }
            Path::Index(parent, index) => {
                parent.write_plain(out);
                crate::pointer::push_index(out, *index);
            }
        }
    }

    pub(crate) fn write_pointer(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Key(parent, key) => {
                parent.write_pointer(out);
                crate::pointer::push_escaped(out, key);
            }
            Path::Index(parent, index) => {
                parent.write_pointer(out);
                crate::pointer::push_index(out, *index);
            }
        }
    }
}

// Copies `src` into `dst` (of the same length), or `None` if `src` holds
// `~` or `/`: eight (or four) bytes at a time, the last word overlapping
// the one before it, so that a member name takes a few loads and stores.
#[inline]
fn copy_plain(dst: &mut [u8], src: &[u8]) -> Option<()> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const TILDES: u64 = ONES * b'~' as u64;
    const SLASHES: u64 = ONES * b'/' as u64;
    // Whether a byte of `w` is `~` or `/` (the classic zero-byte test on
    // `w` with either splatted byte taken out).
    fn special(w: u64) -> bool {
        let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
        (zero(w ^ TILDES) | zero(w ^ SLASHES)) != 0
    }
    let n = src.len();
    if n >= 8 {
        let mut i = 0;
        loop {
            // The last word ends at the end, overlapping the one before.
            let at = i.min(n - 8);
            let word: [u8; 8] = src.get(at..at + 8)?.try_into().ok()?;
            if special(u64::from_le_bytes(word)) {
                return None;
            }
            dst.get_mut(at..at + 8)?.copy_from_slice(&word);
            i += 8;
            if i >= n {
                return Some(());
            }
        }
    }
    if n >= 4 {
        // Two words of four, overlapping when `n < 8`, tested as one.
        let head: [u8; 4] = src.get(..4)?.try_into().ok()?;
        let tail: [u8; 4] = src.get(n - 4..)?.try_into().ok()?;
        let w = u64::from(u32::from_le_bytes(head)) | (u64::from(u32::from_le_bytes(tail)) << 32);
        if special(w) {
            return None;
        }
        dst.get_mut(..4)?.copy_from_slice(&head);
        dst.get_mut(n - 4..)?.copy_from_slice(&tail);
        return Some(());
    }
    for (d, &b) in dst.iter_mut().zip(src) {
        if b == b'~' || b == b'/' {
            return None;
        }
        *d = b;
    }
    Some(())
}

// How many decimal digits `n` has.
fn decimal_digits(mut n: usize) -> usize {
    let mut digits = 1;
    while n >= 10 {
        n /= 10;
        digits += 1;
    }
    digits
}

#[cfg(test)]
mod tests {
    use super::{Path, PointerString};

    // `to_pointer` (sized by `pointer_len`) writes what `write_pointer`
    // writes: short and long keys, keys that need escaping, multi-byte keys,
    // indices of every width.
    #[test]
    fn to_pointer_agrees_with_the_forward_writer() {
        let keys = [
            "a",
            "",
            "name",
            "é~ü",
            "a/b",
            "ключ",
            &"x".repeat(40),
            &"y".repeat(95),
        ];
        let indices = [0, 7, 10, 99, 12345, usize::MAX];
        let root = Path::Root;
        assert_eq!(root.to_pointer(), "");
        for k1 in keys {
            let p1 = root.key(k1);
            for i in indices {
                let p2 = p1.index(i);
                for k2 in keys {
                    let p3 = p2.key(k2);
                    for p in [&p1, &p2, &p3] {
                        let mut forwards = String::new();
                        p.write_pointer(&mut forwards);
                        assert_eq!(p.to_pointer(), forwards);
                    }
                }
            }
        }
        assert_eq!(
            root.key("a/b").index(10).key("~").to_pointer(),
            "/a~1b/10/~0"
        );
    }

    // `pointer` (inline when it fits and nothing needs escaping) writes
    // what `to_pointer` writes: keys of every length up to past the inline
    // room, with `~` or `/` at every position, multi-byte keys, indices.
    #[test]
    fn pointer_agrees_with_to_pointer() {
        let mut keys: Vec<String> = (0..=40).map(|n| "k".repeat(n)).collect();
        for n in 1..=20 {
            for at in 0..n {
                for special in ['~', '/'] {
                    let mut key: Vec<char> = "m".repeat(n).chars().collect();
                    key[at] = special;
                    keys.push(key.into_iter().collect());
                }
            }
        }
        keys.extend(["é~ü", "ключ", "ключи", "名前", "a/b"].map(String::from));
        let root = Path::Root;
        assert_eq!(root.pointer(), "");
        let mut inline = 0;
        for k1 in &keys {
            let p1 = root.key(k1);
            for i in [0, 7, 10, 99, 12345, usize::MAX] {
                let p2 = p1.index(i);
                for k2 in ["", "a", "qty", "unit_price", "x~y", "é"] {
                    let p3 = p2.key(k2);
                    for p in [&p1, &p2, &p3] {
                        let pointer = p.pointer();
                        assert_eq!(pointer, p.to_pointer());
                        assert_eq!(pointer.as_str(), p.to_pointer());
                        inline += usize::from(pointer.len() <= PointerString::INLINE);
                    }
                }
            }
        }
        assert!(inline > 1000, "{inline}");
    }
}
