//! The members of one object of the baseline, matched with the keys the text
//! walk reads for the same object: by position while the keys agree, by
//! lookup from the first key that does not; and the keys read, to refuse a
//! duplicate, kept only from that key on.
use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Value};

use super::same::same_str;

/// One object of the baseline against the keys of the text's object.
pub(super) struct Members<'k> {
    map: &'k Map<String, Value>,
    in_order: serde_json::map::Iter<'k>,
    // `Some(n)` while the keys read are `map`'s first `n`, in order: they
    // are then unique (a map's keys are), so none is stored. `None` from the
    // first key out of step on, when `keys` holds every key read.
    in_step: Option<usize>,
    keys: Keys<'k>,
}

impl<'k> Members<'k> {
    pub(super) fn new(map: &'k Map<String, Value>) -> Self {
        Members {
            map,
            in_order: map.iter(),
            in_step: Some(0),
            keys: Keys::default(),
        }
    }

    /// The member of the baseline named `key`, the next key read from the
    /// text (`Ok(None)` when the baseline has none); `Err(())` when `key`
    /// was already read in this object.
    pub(super) fn take(&mut self, key: &Cow<'k, str>) -> Result<Option<&'k Value>, ()> {
        let next = self.in_order.next();
        if let Some(n) = self.in_step {
            if let Some((k, v)) = next
                && same_str(k, key)
            {
                self.in_step = Some(n + 1);
                return Ok(Some(v));
            }
            // Out of step: the keys read so far are `map`'s first `n`.
            self.in_step = None;
            for k in self.map.keys().take(n) {
                self.keys.insert(Cow::Borrowed(k));
            }
        }
        if !self.keys.insert(key.clone()) {
            return Err(());
        }
        Ok(match next {
            Some((k, v)) if same_str(k, key) => Some(v),
            _ => self.map.get(&**key),
        })
    }

    /// The keys of the baseline's object that were not read.
    pub(super) fn missing(&self) -> impl Iterator<Item = &'k String> + '_ {
        let in_step = self.in_step;
        self.map
            .keys()
            .enumerate()
            .filter(move |&(i, k)| match in_step {
                Some(n) => i >= n,
                None => !self.keys.contains(k),
            })
            .map(|(_, k)| k)
    }
}

// The keys of one object so far, to refuse a duplicate, as `json::KeySet`
// does but borrowing each key (from the text when it has no escapes, or
// from the baseline): a short list, then a hash set (std's randomly keyed
// SipHash: the keys come from the document) past `KEYS_LINEAR`.
#[derive(Default)]
struct Keys<'k> {
    list: Vec<Cow<'k, str>>,
    set: HashSet<Cow<'k, str>>,
}

const KEYS_LINEAR: usize = 32;

impl<'k> Keys<'k> {
    fn contains(&self, key: &str) -> bool {
        if self.set.is_empty() {
            self.list.iter().any(|k| same_str(k, key))
        } else {
            self.set.contains(key)
        }
    }

    // Adds `key`; `false` if it was already there.
    fn insert(&mut self, key: Cow<'k, str>) -> bool {
        if self.set.is_empty() {
            if self.list.iter().any(|k| same_str(k, &key)) {
                return false;
            }
            if self.list.len() < KEYS_LINEAR {
                self.list.push(key);
                return true;
            }
            self.set.extend(self.list.drain(..));
        }
        self.set.insert(key)
    }
}
