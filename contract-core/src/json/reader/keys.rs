//! Object keys: a predicted key matched as raw bytes, the set that refuses
//! duplicates, and the duplicate-key error.
use std::borrow::Cow;
use std::collections::HashSet;

use super::Reader;
use crate::code;
use crate::json::{ParseError, Path};

impl Reader<'_> {
    /// At the start of a member, consumes its key and `:` when the next
    /// bytes are exactly `member`: the key literal with its quotes, no
    /// escapes, then `:` (`"name":`, as a generated decoder predicts the
    /// next key in schema order); otherwise consumes nothing, and
    /// [`Reader::read_key`] reads the key (escaped, or with whitespace
    /// before its `:`). The length is a constant, so the comparison is a
    /// few integer compares rather than a call. A generated decoder also
    /// tries a string value it expects this way, with its quotes and no
    /// `:` (`equals`, `one_of` on a string, an enum's variant names).
    #[inline]
    pub fn eat_key<const N: usize>(&mut self, member: &[u8; N]) -> bool {
        let start = self.pos;
        let end = start.wrapping_add(N);
        match self.bytes().get(start..end) {
            Some(next) if next == member => {
                self.pos = end;
                true
            }
            _ => false,
        }
    }
}

impl Reader<'_> {
    /// At the start of a member (its key's opening quote next), the byte
    /// after that quote: a generated decoder picks the keys to try with
    /// [`Reader::eat_key`] by it. 0 at the end of the input (a key never
    /// starts with a raw control character).
    #[inline]
    pub fn key_byte(&self) -> u8 {
        self.bytes()
            .get(self.pos.wrapping_add(1))
            .copied()
            .unwrap_or(0)
    }
}

/// The parse error for a key seen twice in one object, at the member's pointer.
pub fn duplicate_key(offset: usize, path: &Path<'_>, key: &str) -> ParseError {
    duplicate_key_at(offset, path.key(key).to_pointer())
}

// The parse error for a duplicate key whose member pointer is known.
pub(in crate::json) fn duplicate_key_at(offset: usize, pointer: String) -> ParseError {
    ParseError::new(
        code::DUPLICATE_KEY,
        "the same key appears twice in one object",
        offset,
    )
    .with_pointer(pointer)
}

/// The keys seen so far in one object, to refuse duplicates: a short list
/// scanned linearly, turning into a hash set past a few dozen keys so that a
/// huge object stays linear.
///
/// A key read from the input without escapes is kept as its byte range
/// ([`KeySet::insert_in`], [`KeySet::last_in`]), so that recording one costs
/// no allocation; a key with escapes (read from the scanner's buffer) or
/// given without the input ([`KeySet::insert`]) is copied.
///
/// The set keeps the standard library's randomly keyed SipHash: the keys
/// come from the document, so a predictable hash would let a document force
/// collisions.
#[derive(Debug, Default)]
pub struct KeySet {
    // The first key, held without allocating: most objects that need a set
    // at all (one with an unknown key) have one such key.
    first: Option<Entry>,
    // Every later key while there are few, in the order inserted. An entry
    // owns nothing (a byte range of the input or of `copies`), so dropping
    // a set is two capacity tests and a null test, inline in every
    // generated struct decoder, which has a set per object it reads.
    list: Vec<Entry>,
    // The text of the keys that are copies, one after the other.
    copies: String,
    // Made only past `KEYSET_LINEAR` keys: an empty `HashSet` would draw its
    // random keys for every object read. Boxed: a `KeySet` sits in every
    // generated struct decoder's frame, once per nesting level.
    set: Option<Box<Large>>,
}

// The keys of an object with many, and the last one inserted.
#[derive(Debug, Default)]
struct Large {
    keys: HashSet<Box<str>>,
    last: String,
}

// One key of the list: a byte range of the input, or of the copies.
#[derive(Debug, Clone, Copy)]
struct Entry {
    start: usize,
    end: usize,
    copied: bool,
}

impl Entry {
    // The key, against the input it was read from and the set's copies.
    fn get<'a>(self, src: &'a str, copies: &'a str) -> &'a str {
        let text = if self.copied { copies } else { src };
        text.get(self.start..self.end).unwrap_or_default()
    }
}

// Where `key` lies in `src`, if it is a slice of it.
fn span_in(src: &str, key: &str) -> Option<(usize, usize)> {
    let start = (key.as_ptr() as usize).checked_sub(src.as_ptr() as usize)?;
    let end = start.checked_add(key.len())?;
    (end <= src.len()).then_some((start, end))
}

impl<'de> Reader<'de> {
    /// The key of the member whose opening `"` is at byte `at`, read
    /// before as `len` bytes (a key the caller let go): a slice of the
    /// input, copied only when it has escapes. The scanner stays where it
    /// was.
    #[cold]
    pub fn key_at(&mut self, at: usize, len: usize) -> Cow<'de, str> {
        // Without escapes the key is the `len` bytes after the quote, and a
        // quote follows them: a `"` inside a key is escaped, and escapes
        // only shorten a key, so no `\` before it means none at all.
        let src = self.src;
        let start = at + 1;
        let raw = src.get(start..start + len);
        if let Some(key) = raw
            && src.as_bytes().get(start + len) == Some(&b'"')
            && !key.as_bytes().contains(&b'\\')
        {
            return Cow::Borrowed(key);
        }
        let back = self.checkpoint();
        self.pos = at;
        // The key was read once already, so it reads again; `""` is only a
        // guard.
        let key = self.read_str().unwrap_or_default();
        self.rewind(back);
        key
    }
}

const KEYSET_LINEAR: usize = 32;

impl KeySet {
    /// Adds `key` (a copy of it); `false` if it was already there.
    pub fn insert(&mut self, key: &str) -> bool {
        self.insert_in("", key)
    }

    /// Adds `key`, read from the input `src`: kept as its byte range when it
    /// is a slice of `src`, else copied; `false` if it was already there.
    pub fn insert_in(&mut self, src: &str, key: &str) -> bool {
        // The first key of the input (an object's first unknown key):
        // nothing to compare with, nothing to allocate.
        if self.first.is_none()
            && self.set.is_none()
            && let Some((start, end)) = span_in(src, key)
        {
            self.first = Some(Entry {
                start,
                end,
                copied: false,
            });
            return true;
        }
        if self.contains(src, key) {
            return false;
        }
        self.insert_new(src, key);
        true
    }

    /// [`KeySet::insert`] of a key the caller owns already; a key already
    /// there is handed back as the error.
    pub fn insert_owned(&mut self, key: String) -> Result<(), String> {
        if self.contains("", &key) {
            return Err(key);
        }
        self.insert_new("", &key);
        Ok(())
    }

    fn contains(&self, src: &str, key: &str) -> bool {
        match &self.set {
            None => self
                .first
                .iter()
                .chain(&self.list)
                .any(|k| k.get(src, &self.copies) == key),
            Some(set) => set.keys.contains(key),
        }
    }

    // Adds a key known to be absent.
    fn insert_new(&mut self, src: &str, key: &str) {
        if self.set.is_none() {
            if self.first.is_none() || self.list.len() < KEYSET_LINEAR {
                let entry = match span_in(src, key) {
                    Some((start, end)) => Entry {
                        start,
                        end,
                        copied: false,
                    },
                    None => {
                        let start = self.copies.len();
                        self.copies.push_str(key);
                        Entry {
                            start,
                            end: self.copies.len(),
                            copied: true,
                        }
                    }
                };
                if self.first.is_none() {
                    self.first = Some(entry);
                } else {
                    self.list.push(entry);
                }
                return;
            }
            let keys = self
                .first
                .take()
                .into_iter()
                .chain(self.list.drain(..))
                .map(|old| old.get(src, &self.copies).into())
                .collect();
            self.copies = String::new();
            self.set = Some(Box::new(Large {
                keys,
                last: String::new(),
            }));
        }
        if let Some(set) = &mut self.set {
            set.last.clear();
            set.last.push_str(key);
            set.keys.insert(key.into());
        }
    }

    /// Drops the set; one that holds no allocation (no key, or one key of
    /// the input) costs nothing to drop. A generated struct decoder ends
    /// with it, so that its set's drop is not an out-of-line call per
    /// object read.
    #[inline]
    pub fn discard(self) {
        if self.list.capacity() == 0 && self.copies.capacity() == 0 && self.set.is_none() {
            // Nothing to free, so nothing is leaked.
            std::mem::forget(self);
        }
    }

    /// The key inserted last ("" when none), of a set filled with
    /// [`KeySet::insert`] or [`KeySet::insert_owned`].
    pub fn last(&self) -> &str {
        self.last_in("")
    }

    /// The key inserted last ("" when none), against the input `src` the
    /// keys given to [`KeySet::insert_in`] were read from.
    pub fn last_in<'a>(&'a self, src: &'a str) -> &'a str {
        match &self.set {
            None => self
                .list
                .last()
                .or(self.first.as_ref())
                .map_or("", |k| k.get(src, &self.copies)),
            Some(set) => &set.last,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{KEYSET_LINEAR, KeySet};
    use crate::json::Reader;

    // Keys held as ranges of the input, as copies, in the first slot, the
    // list and the hash set: each is found again, and `last_in` is the one
    // inserted last, through every change of storage.
    #[test]
    fn a_key_set_finds_every_key_through_each_storage() {
        let src: String = (0..KEYSET_LINEAR * 2).map(|i| format!("k{i},")).collect();
        let keys: Vec<&str> = src.split(',').filter(|k| !k.is_empty()).collect();
        let mut set = KeySet::default();
        for (i, key) in keys.iter().enumerate() {
            // Every third key is given as a copy, not as a slice of `src`.
            let copy = key.to_string();
            let given: &str = if i % 3 == 0 { &copy } else { key };
            assert!(set.insert_in(&src, given), "{key}");
            assert_eq!(set.last_in(&src), *key);
            for earlier in &keys[..=i] {
                assert!(!set.insert_in(&src, earlier), "{earlier} again");
            }
            assert!(!set.insert_in(&src, &copy));
        }
        assert!(set.insert_in(&src, "k"));
        let mut owned = KeySet::default();
        assert!(owned.insert("a"));
        assert!(owned.insert_owned("b".to_owned()).is_ok());
        assert_eq!(owned.insert_owned("a".to_owned()), Err("a".to_owned()));
        assert_eq!(owned.last(), "b");
    }

    // `key_at` gives back the key read at an offset: borrowed when written
    // without escapes, unescaped (a copy) otherwise, the scanner unmoved.
    #[test]
    fn key_at_reads_a_key_again() {
        let src = r#"{"plain":1,"a\"b":2,"\"\"x":3,"\u0041/":4,"":5}"#;
        let mut r = Reader::new(src, 8);
        let mut more = r.begin_object().unwrap();
        let mut seen = Vec::new();
        while more {
            let at = r.offset();
            let len = r.read_key().unwrap().len();
            let here = r.offset();
            let key = r.key_at(at, len);
            assert_eq!(r.offset(), here);
            seen.push((
                key.to_string(),
                matches!(key, std::borrow::Cow::Borrowed(_)),
            ));
            r.skip_value(&crate::json::Path::Root).unwrap();
            more = r.object_more().unwrap();
        }
        let expected = [
            ("plain", true),
            ("a\"b", false),
            ("\"\"x", false),
            ("A/", false),
            ("", true),
        ];
        let expected: Vec<(String, bool)> =
            expected.iter().map(|(k, b)| (k.to_string(), *b)).collect();
        assert_eq!(seen, expected);
    }
}
