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
    pub(super) fn member(&mut self, plan: &Plan, after: usize) -> Result<(), Stop> {
        let Some(d) = self.depth.checked_sub(1) else {
            return Err(Stop::Syntax);
        };
        let Some(frame) = self.frames.get_mut(d) else {
            return Err(Stop::Syntax);
        };
        let quarantine = frame.quarantine;
        frame.watch = None;
        let union = plan.node(frame.node).union.as_ref();
        if let (true, Some(union)) = (frame.union && frame.members == ANY, union) {
            if frame.key == union.tag {
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
            if frame.before.iter().any(|b| b.key == frame.key) {
                self.duplicate = true;
                return Ok(());
            }
            // Read for the grammar only until the tag names the variant.
            frame.before.push(Before {
                key: frame.key.clone(),
                from: after,
                to: after,
            });
            self.expect = UNCHECKED;
            return Ok(());
        }
        let object = plan.node(frame.members).object.as_ref();
        if let Some(object) = object {
            let found = match object.members.get(frame.next) {
                Some(m) if m.name == frame.key => Some(frame.next),
                _ => object.members.iter().position(|m| m.name == frame.key),
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
                return Err(self.schema_error(code::UNKNOWN_KEY));
            }
        }
        let other = plan.node(frame.node).object.as_ref().and_then(|o| o.other);
        if !frame
            .keys
            .get_or_insert_with(KeySet::default)
            .insert(&frame.key)
        {
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
            return Err(self.schema_error(union.unknown));
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
                    return Err(self.member_error(&member.key, code::UNKNOWN_KEY));
                }
                None => (object.other.unwrap_or(ANY), false),
            };
            let value = text.get(member.from..member.to).unwrap_or_default();
            match self.judge_alone(value, node, quarantine || quarantined) {
                Ok(certain) => doubt |= !certain,
                Err(Stop::Schema(mut error)) => {
                    let mut pointer = self.pointer(d);
                    crate::pointer::push_escaped(&mut pointer, &member.key);
                    pointer.push_str(&error.pointer);
                    error.pointer = pointer.into();
                    return Err(Stop::Schema(error));
                }
                Err(Stop::Syntax) => doubt = true,
            }
        }
        if let Some(frame) = self.frames.get_mut(d) {
            frame.members = variant;
            frame.seen = seen;
            frame.doubt |= doubt;
            if !object.rules.is_empty() && !frame.quarantine {
                frame.values.clear();
                frame.values.resize(object.members.len(), None);
                frame.marks = Default::default();
            }
            self.undecided |= object.undecided || (frame.quarantine && !object.rules.is_empty());
        }
        self.before_tag(plan, d, &read)
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
