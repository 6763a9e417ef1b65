//! Object members: what a key's value is checked against (a declared
//! member, a map's values, nothing), duplicates, and a tagged union's tag
//! (the members met before it are judged once it names the variant).
use crate::stream::plan::{MemberSet, NodeId, Plan};

use super::{ANY, Before, Expect, Scanner, State, Stop, UNCHECKED, types};
use crate::code;
use crate::json::KeySet;
use crate::json::lexical::is_whitespace;

impl Scanner {
    // A member's key is complete (its closing quote ends before `after`):
    // what its value is checked against.
    pub(super) fn member(&mut self, plan: &Plan, text: &str, after: usize) -> Result<(), Stop> {
        let Some(d) = self.depth.checked_sub(1) else {
            return Err(Stop::Syntax);
        };
        let Some(frame) = self.frames.get_mut(d) else {
            return Err(Stop::Syntax);
        };
        let quarantine = frame.quarantine;
        frame.watch = None;
        let key = match frame.key_at {
            Some((start, end)) => text.get(start..end).unwrap_or_default(),
            None => frame.key.as_str(),
        };
        let union = match frame.union && frame.members.is_none() {
            true => plan.node(frame.node).union.as_ref(),
            false => None,
        };
        if let Some(union) = union {
            if key == union.tag {
                self.duplicate = frame.tag_seen;
                frame.tag_seen = true;
                self.expect = Expect {
                    node: ANY,
                    quarantine,
                    tag: true,
                };
                return Ok(());
            }
            if frame.tag_seen {
                // The tag named no variant (under quarantine): nothing to check.
                self.expect = UNCHECKED;
                return Ok(());
            }
            if frame.before.iter().any(|b| b.key == key) {
                self.duplicate = true;
                return Ok(());
            }
            // Read for the grammar only until the tag names the variant.
            frame.before.push(Before {
                key: key.to_owned(),
                from: after,
                to: after,
            });
            self.expect = UNCHECKED;
            return Ok(());
        }
        let object = frame.members;
        if let Some(object) = object {
            let found = match object.members.get(frame.next) {
                Some(m) if same(&m.name, key) => Some(frame.next),
                _ => object.members.iter().position(|m| same(&m.name, key)),
            };
            if let Some(index) = found {
                frame.next = index + 1;
                if !frame.seen.insert(index) {
                    self.duplicate = true;
                    return Ok(());
                }
                let m = object.members.get(index);
                if m.is_some_and(|m| !m.rules.is_empty()) && !frame.values.is_empty() {
                    frame.watch = Some(index);
                }
                self.expect = Expect {
                    node: m.map_or(ANY, |m| m.node),
                    quarantine: quarantine || m.is_some_and(|m| m.quarantine),
                    tag: false,
                };
                return Ok(());
            }
            if object.closed {
                return Err(self.schema_error(text, code::UNKNOWN_KEY));
            }
        }
        let other = plan.node(frame.node).object.as_ref().and_then(|o| o.other);
        if !frame.keys.get_or_insert_with(KeySet::default).insert(key) {
            self.duplicate = true;
            return Ok(());
        }
        self.expect = Expect {
            node: other.unwrap_or(ANY),
            quarantine,
            tag: false,
        };
        Ok(())
    }

    // A union's tag value is complete: choose the variant, then judge the
    // members met before the tag against it, in the order written, and the
    // rules that read them, as they would have been had the tag come first.
    pub(super) fn tag(&mut self, plan: &Plan, text: &str) -> Result<(), Stop> {
        let quarantine = self.string.expect.quarantine;
        let Some(d) = self.depth.checked_sub(1) else {
            return Err(Stop::Syntax);
        };
        let Some(frame) = self.frames.get(d) else {
            return Err(Stop::Syntax);
        };
        let Some(union) = plan.node(frame.node).union.as_ref() else {
            return Ok(());
        };
        let written = self.decoded(text);
        let chosen = union
            .variants
            .iter()
            .find(|(name, _)| name == written)
            .map(|(_, node)| self.resolve(*node, types::OBJECT));
        let Some(variant) = chosen else {
            if quarantine {
                self.mark_doubt();
                return Ok(());
            }
            return Err(self.schema_error(text, union.unknown));
        };
        let Some(object) = plan.node(variant).object.as_ref() else {
            self.mark_doubt();
            return Ok(());
        };
        let mut seen = MemberSet::default();
        if let Some(t) = object.members.iter().position(|m| m.name == union.tag) {
            seen.insert(t);
        }
        let mut doubt = false;
        // The members rules read, and their values' text.
        let mut read = Vec::new();
        for member in &frame.before {
            let (node, quarantined) = match object.members.iter().position(|m| m.name == member.key)
            {
                Some(index) => {
                    seen.insert(index);
                    let declared = object.members.get(index);
                    if declared.is_some_and(|m| !m.rules.is_empty()) {
                        read.push((index, text.get(member.from..member.to).unwrap_or_default()));
                    }
                    (
                        declared.map_or(ANY, |m| m.node),
                        declared.is_some_and(|m| m.quarantine),
                    )
                }
                None if object.closed => {
                    return Err(self.member_error(text, &member.key, code::UNKNOWN_KEY));
                }
                None => (object.other.unwrap_or(ANY), false),
            };
            let value = text.get(member.from..member.to).unwrap_or_default();
            match self.judge_alone(value, node, quarantine || quarantined) {
                Ok(certain) => doubt |= !certain,
                Err(Stop::Schema(mut error)) => {
                    let mut pointer = self.pointer(text, d);
                    crate::pointer::push_escaped(&mut pointer, &member.key);
                    pointer.push_str(&error.pointer);
                    error.pointer = pointer.into();
                    return Err(Stop::Schema(error));
                }
                Err(Stop::Syntax) => doubt = true,
            }
        }
        let members = self.plan.node(variant).object.as_ref();
        if let Some(frame) = self.frames.get_mut(d) {
            frame.members = members;
            frame.seen = seen;
            frame.doubt |= doubt;
            if !object.rules.is_empty() && !frame.quarantine {
                frame.values.clear();
                frame.values.resize(object.members.len(), None);
                frame.marks = Default::default();
            }
            self.undecided |= object.undecided || (frame.quarantine && !object.rules.is_empty());
        }
        self.before_tag(text, d, &read)
    }

    // A member's value met before its union's tag (`: value`, read once
    // already for the grammar), judged against `node` by a scanner of its
    // own: its error, pointed from the value, or whether nothing is left
    // in doubt. Rare (models write the tag first), so it may allocate.
    #[cold]
    fn judge_alone(&self, member: &str, node: NodeId, quarantine: bool) -> Result<bool, Stop> {
        let Some(value) = member
            .trim_start_matches(|c: char| c.is_ascii() && is_whitespace(c as u8))
            .strip_prefix(':')
        else {
            return Err(Stop::Syntax);
        };
        let max_depth = self.max_depth.saturating_sub(self.depth);
        let mut scanner = Scanner::new(self.plan, max_depth);
        scanner.expect = Expect {
            node,
            quarantine,
            tag: false,
        };
        scanner.feed(value, 0)?;
        // A number at the root ends with the text.
        if scanner.state == State::Number {
            scanner.end_number(self.plan, value, value.len())?;
        }
        if scanner.state != State::Done {
            return Err(Stop::Syntax);
        }
        Ok(!scanner.root_doubt && !scanner.undecided)
    }
}

// Whether a declared member's name is the key read: the lengths, then the
// bytes a word (or half a word) at a time, the last word overlapping the
// one before it. Keys are short: no call to the library's `memcmp`.
#[inline]
fn same(name: &str, key: &str) -> bool {
    let (a, b) = (name.as_bytes(), key.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 4 {
        return a == b;
    }
    if n < 8 {
        let half = |s: &[u8], at: usize| {
            s.get(at..at + 4)
                .and_then(|w| <[u8; 4]>::try_from(w).ok())
                .map(u32::from_le_bytes)
        };
        return half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4);
    }
    let word = |s: &[u8], at: usize| {
        s.get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map(u64::from_le_bytes)
    };
    let mut at = 0;
    while at + 8 < n {
        if word(a, at) != word(b, at) {
            return false;
        }
        at += 8;
    }
    word(a, n - 8) == word(b, n - 8)
}

#[cfg(test)]
mod tests {
    use super::same;

    #[test]
    fn a_name_is_the_key_exactly_when_their_bytes_are() {
        let names = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "abcdefghijklmnop",
            "abcdefghijklmnopq",
            "caf\u{e9}",
            "na\u{ef}ve_key",
        ];
        for name in names {
            for key in names {
                assert_eq!(same(name, key), name == key, "{name:?} {key:?}");
            }
            // Each byte changed in turn.
            for at in 0..name.len() {
                let mut other = name.as_bytes().to_vec();
                other[at] ^= 1;
                if let Ok(other) = std::str::from_utf8(&other) {
                    assert!(!same(name, other), "{name:?} {other:?}");
                    assert!(same(other, other));
                }
            }
        }
    }
}
