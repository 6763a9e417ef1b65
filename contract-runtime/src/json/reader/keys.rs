//! Object keys: a predicted key matched as raw bytes, the set that refuses
//! duplicates, and the duplicate-key error.
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
    /// few integer compares rather than a call.
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
/// The set keeps the standard library's randomly keyed SipHash: the keys
/// come from the document, so a predictable hash would let a document force
/// collisions.
#[derive(Debug, Default)]
pub struct KeySet {
    // Every key while there are few; emptied into `set` past `KEYSET_LINEAR`.
    list: Vec<Box<str>>,
    // Made only then: a `HashSet`'s random keys come from a thread-local,
    // which an object with no unknown key should not pay for.
    set: Option<HashSet<Box<str>>>,
    // The last key once `set` is in use (one buffer, reused).
    last: String,
}

const KEYSET_LINEAR: usize = 32;

impl KeySet {
    /// Adds `key`; `false` if it was already there.
    pub fn insert(&mut self, key: &str) -> bool {
        self.insert_with(key, || key.into())
    }

    /// [`KeySet::insert`] of a key the caller owns already (no copy);
    /// a key already there is handed back as the error.
    pub fn insert_owned(&mut self, key: String) -> Result<(), String> {
        if self.contains(&key) {
            return Err(key);
        }
        self.insert_new(key.into_boxed_str());
        Ok(())
    }

    fn contains(&self, key: &str) -> bool {
        match &self.set {
            None => self.list.iter().any(|k| &**k == key),
            Some(set) => set.contains(key),
        }
    }

    fn insert_with(&mut self, key: &str, make: impl FnOnce() -> Box<str>) -> bool {
        if self.contains(key) {
            return false;
        }
        self.insert_new(make());
        true
    }

    // Adds a key known to be absent.
    fn insert_new(&mut self, key: Box<str>) {
        let set = match &mut self.set {
            Some(set) => set,
            None if self.list.len() < KEYSET_LINEAR => {
                self.list.push(key);
                return;
            }
            None => self.set.insert(self.list.drain(..).collect()),
        };
        self.last.clear();
        self.last.push_str(&key);
        set.insert(key);
    }

    /// The key inserted last ("" when none).
    pub fn last(&self) -> &str {
        match self.set {
            None => self.list.last().map_or("", |k| k),
            Some(_) => &self.last,
        }
    }
}
