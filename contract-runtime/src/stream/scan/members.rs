//! Object members: what a key's value is checked against (a declared
//! member, a map's values, nothing), duplicates, and a tagged union's tag.
use crate::stream::plan::Plan;

use super::{ANY, Expect, Scanner, Stop, UNCHECKED, types};
use crate::code;
use crate::json::KeySet;

impl Scanner {
    // A member's key is complete: what its value is checked against.
    pub(super) fn member(&mut self, plan: &Plan) -> Result<(), Stop> {
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
            if frame.before.contains(&frame.key) {
                self.duplicate = true;
                return Ok(());
            }
            frame.before.push(frame.key.clone());
            frame.doubt = true;
            self.expect = UNCHECKED;
            return Ok(());
        }
        let object = plan.node(frame.members).object.as_ref();
        if let Some(object) = object {
            let found = object.members.iter().position(|m| m.name == frame.key);
            if let Some(index) = found {
                let seen = frame.seen.get_mut(index);
                if seen.as_deref() == Some(&true) {
                    self.duplicate = true;
                    return Ok(());
                }
                if let Some(seen) = seen {
                    *seen = true;
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

    // A union's tag value is complete: choose the variant, then check the
    // keys met before the tag against it.
    pub(super) fn tag(&mut self, plan: &Plan) -> Result<(), Stop> {
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
        let chosen = union
            .variants
            .iter()
            .find(|(name, _)| *name == self.string.text)
            .map(|(_, node)| self.resolve(*node, types::OBJECT));
        let Some(variant) = chosen else {
            if quarantine {
                self.mark_doubt();
                return Ok(());
            }
            return Err(self.schema_error(code::UNKNOWN_VARIANT));
        };
        let Some(object) = plan.node(variant).object.as_ref() else {
            self.mark_doubt();
            return Ok(());
        };
        let mut seen = vec![false; object.members.len()];
        let tag = object.members.iter().position(|m| m.name == union.tag);
        if let Some(slot) = tag.and_then(|t| seen.get_mut(t)) {
            *slot = true;
        }
        for key in &frame.before {
            match object.members.iter().position(|m| m.name == *key) {
                Some(index) => {
                    if let Some(slot) = seen.get_mut(index) {
                        *slot = true;
                    }
                }
                None if object.closed => return Err(self.member_error(key, code::UNKNOWN_KEY)),
                None => {}
            }
        }
        if let Some(frame) = self.frames.get_mut(d) {
            frame.members = variant;
            frame.seen = seen;
            if !object.rules.is_empty() && !frame.quarantine {
                frame.values.clear();
                frame.values.resize(object.members.len(), None);
            }
        }
        Ok(())
    }
}
