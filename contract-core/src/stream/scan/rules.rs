//! Cross-field rules: the values of the members a rule reads are kept as
//! they complete, and a rule is decided once every member it reads is
//! complete (its error is a rule-stage error, as the decoder's).
use serde_json::Value;

use super::{Scanner, Seen, Stop};
use crate::error::{Error, Stage};
use crate::json::lexical::{self, is_whitespace};
use crate::stream::plan::Plan;
use crate::stream::plan::rules::Broken;

impl Scanner {
    /// Whether a rule reads the value that is being completed (a member
    /// of the innermost object).
    #[inline]
    pub(super) fn watched(&self) -> bool {
        self.depth
            .checked_sub(1)
            .and_then(|d| self.frames.get(d))
            .is_some_and(|f| f.watch.is_some())
    }

    /// The innermost object closes: a member a rule reads that is absent
    /// (its key optional) is null to the decoder, when its type admits null.
    pub(super) fn absent(&mut self, plan: &Plan, text: &str) -> Result<(), Stop> {
        let Some(d) = self.depth.checked_sub(1) else {
            return Ok(());
        };
        let Some(frame) = self.frames.get(d) else {
            return Ok(());
        };
        if frame.values.is_empty() {
            return Ok(());
        }
        let Some(object) = frame.members else {
            return Ok(());
        };
        if object.members.len() <= 64 {
            // The optional members rules read, absent: a bit each.
            let mut absent = object.optional_read & !frame.seen.low();
            while absent != 0 {
                let m = absent.trailing_zeros() as usize;
                absent &= absent - 1;
                if object
                    .members
                    .get(m)
                    .is_some_and(|m| plan.admits_null(m.node))
                {
                    self.decide(text, d, m, Seen::Null)?;
                }
            }
            return Ok(());
        }
        for (m, member) in object.members.iter().enumerate() {
            let absent = self.frames.get(d).is_some_and(|f| !f.seen.contains(m));
            if !member.rules.is_empty()
                && absent
                && !member.required
                && plan.admits_null(member.node)
            {
                self.decide(text, d, m, Seen::Null)?;
            }
        }
        Ok(())
    }

    /// Keeps the value of the member being completed and decides the
    /// rules that read it.
    pub(super) fn record(&mut self, text: &str, seen: Seen) -> Result<(), Stop> {
        let Some(d) = self.depth.checked_sub(1) else {
            return Ok(());
        };
        let Some(frame) = self.frames.get_mut(d) else {
            return Ok(());
        };
        let Some(m) = frame.watch.take() else {
            return Ok(());
        };
        self.decide(text, d, m, seen)
    }

    /// The string just read is the value of the member being completed.
    pub(super) fn record_text(&mut self, text: &str) -> Result<(), Stop> {
        let s = &self.string;
        let decoded = match s.raw {
            Some(raw) => text.get(raw..s.safe).unwrap_or_default(),
            None => &s.text,
        };
        let Some(frame) = self
            .depth
            .checked_sub(1)
            .and_then(|d| self.frames.get_mut(d))
        else {
            return Ok(());
        };
        let start = frame.arena.len();
        frame.arena.push_str(decoded);
        let end = frame.arena.len();
        self.record(text, Seen::Text(start, end))
    }

    /// The union at depth `d` has its variant: the members met before the
    /// tag that rules read (`(member index, value text)`, the text `: value`
    /// as written) are kept and their rules decided, as they would have
    /// been had the tag come first.
    pub(super) fn before_tag(
        &mut self,
        text: &str,
        d: usize,
        read: &[(usize, &str)],
    ) -> Result<(), Stop> {
        for &(m, member) in read {
            let Some(frame) = self.frames.get_mut(d) else {
                return Ok(());
            };
            if frame.values.is_empty() {
                return Ok(());
            }
            let seen = seen_alone(member, &mut frame.arena);
            self.decide(text, d, m, seen)?;
        }
        Ok(())
    }

    // Member `m` of the object at depth `d` is `seen`: the rules that read it.
    fn decide(&mut self, text: &str, d: usize, m: usize, seen: Seen) -> Result<(), Stop> {
        let Some(frame) = self.frames.get_mut(d) else {
            return Ok(());
        };
        let Some(slot) = frame.values.get_mut(m) else {
            return Ok(());
        };
        *slot = Some(seen);
        let Some(object) = frame.members else {
            return Ok(());
        };
        let Some(member) = object.members.get(m) else {
            return Ok(());
        };
        // The bits rule out at once what cannot be broken yet.
        let suspects = match &object.masks {
            Some(masks) => {
                let suspects =
                    masks.complete(&object.rules, m, &seen, &frame.arena, &mut frame.marks);
                if suspects == 0 {
                    return Ok(());
                }
                Some(suspects)
            }
            None => None,
        };
        for &r in &member.rules {
            if suspects.is_some_and(|s| s.checked_shr(r as u32).unwrap_or(0) & 1 == 0) {
                continue;
            }
            if let Some(broken) = object
                .rules
                .get(r)
                .and_then(|rule| rule.decide(m, &frame.values, &frame.arena))
            {
                return Err(self.rule_error(text, d, r, broken));
            }
        }
        Ok(())
    }

    // Rule `r` of the object at depth `d` is broken: its error, worded as
    // the decoder words it (out of the way of the valid path).
    #[cold]
    #[inline(never)]
    fn rule_error(&self, text: &str, d: usize, r: usize, (member, code): Broken) -> Stop {
        let Some(frame) = self.frames.get(d) else {
            return Stop::Syntax;
        };
        let Some(object) = frame.members else {
            return Stop::Syntax;
        };
        let Some(rule) = object.rules.get(r) else {
            return Stop::Syntax;
        };
        let name = |i: usize| object.members.get(i).map_or("", |m| m.name.as_str());
        // The decoder's own words for the rule's error.
        let (message, expected) = rule
            .texts(code, name, &frame.values, &frame.arena)
            .unwrap_or_else(|| (super::errors::message(code).to_owned(), String::new()));
        let mut pointer = self.pointer(text, d);
        crate::pointer::push_escaped(&mut pointer, name(member));
        Stop::Schema(Box::new(
            Error::new(Stage::Rule, pointer, code, message).with_expected(expected),
        ))
    }
}

// A complete value as the rules read it, from its text (`: value`, read
// already for the grammar and the schema); a string's text goes to `arena`.
fn seen_alone(member: &str, arena: &mut String) -> Seen {
    let ws = |c: char| c.is_ascii() && is_whitespace(c as u8);
    let value = member
        .trim_matches(ws)
        .strip_prefix(':')
        .unwrap_or_default()
        .trim_matches(ws);
    match value.as_bytes().first() {
        Some(b'n') => Seen::Null,
        Some(b't') => Seen::Bool(true),
        Some(b'f') => Seen::Bool(false),
        Some(b'"') => match crate::json::parse_str(value, 1) {
            Ok(Value::String(text)) => {
                let start = arena.len();
                arena.push_str(&text);
                Seen::Text(start, arena.len())
            }
            _ => Seen::Other,
        },
        Some(b'-' | b'0'..=b'9') => match lexical::read_number(value, 0) {
            Ok((number, _)) => match number.as_i128() {
                Some(v) if number.integer_syntax => Seen::Integer(v),
                _ => Seen::Float(number.as_f64()),
            },
            Err(_) => Seen::Other,
        },
        _ => Seen::Other,
    }
}
