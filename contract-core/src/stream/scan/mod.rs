//! The resumable scanner: reads the text a piece at a time (an explicit
//! state and a stack of open containers, no recursion, nothing re-read),
//! checks the JSON grammar and walks the contract's [`Plan`] as it goes.
//!
//! It stops at the first byte that decides a rejection: [`Stop::Schema`]
//! when the plan knows the error (its pointer and code), [`Stop::Syntax`]
//! when the text breaks the grammar or the parse policy (the stream asks
//! the pipeline which parse error that is). Escapes, surrogate pairs and
//! numbers may be split anywhere between pieces; pieces are `&str`, so a
//! UTF-8 character never is.
use super::plan::rules::{Marks, Seen};
use super::plan::{ANY, MemberSet, NodeId, Object, Plan, Text, types};

#[cfg(test)]
mod agreement;
mod errors;
mod members;
mod numbers;
mod rules;
mod strings;
use super::verdict::{self, Verdict};
use crate::code;
use crate::error::Error;
use crate::json::KeySet;
use crate::json::lexical::{Escape, NumberStep, NumberSyntax, Peek, is_whitespace};

/// Why the scanner stopped.
#[derive(Debug)]
pub(crate) enum Stop {
    /// A schema-stage error that every continuation has.
    Schema(Box<Error>),
    /// The text is not JSON under the strict policy from here on.
    Syntax,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// A value is expected.
    Value,
    /// After `[`: a value or `]`.
    ArrayStart,
    /// After `{`: a key or `}`.
    ObjectStart,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value in a container: `,` or its close.
    After,
    InKey,
    InString,
    /// In a number (where in its grammar: [`Scanner::number`]).
    Number,
    Literal,
    /// The root value is complete: only whitespace may follow.
    Done,
}

/// What the next value is checked against.
#[derive(Debug, Clone, Copy)]
struct Expect {
    node: NodeId,
    quarantine: bool,
    /// The value is a tagged union's tag.
    tag: bool,
}

const UNCHECKED: Expect = Expect {
    node: ANY,
    quarantine: false,
    tag: false,
};

// An open array or object.
#[derive(Debug, Default)]
struct Frame {
    object: bool,
    node: NodeId,
    quarantine: bool,
    /// A value below may have failed with an error the plan did not report:
    /// a length check that needs every item to have passed waits.
    doubt: bool,
    /// The member being read (objects): where its key is in the
    /// document while it holds no escape (its text is the document's, not
    /// copied), `None` when `key` holds its decoded text.
    key_at: Option<(usize, usize)>,
    key: String,
    /// Complete elements (arrays).
    count: usize,
    /// The object whose declared members are checked (a struct's, or
    /// that of the variant a union's tag chose); `None` when none.
    members: Option<&'static Object>,
    /// The declared members met (by index).
    seen: MemberSet,
    /// The member after the last one found: where the next key is looked
    /// for first (keys mostly come in the declared order).
    next: usize,
    /// Keys of maps and unchecked objects, for duplicates.
    keys: Option<KeySet>,
    /// A tagged union: whether the tag was read, and the members met
    /// before it (judged once the tag names the variant).
    union: bool,
    tag_seen: bool,
    before: Vec<Before>,
    /// The offset after the last complete element (or the opener).
    complete: usize,
    /// The member being read, when a rule reads its value.
    watch: Option<usize>,
    /// The values of the members rules read, by member index, and the
    /// text of those that are strings.
    values: Vec<Option<Seen>>,
    arena: String,
    /// The members complete and null, and the conditions holding, as bits.
    marks: Marks,
}

impl Frame {
    /// The key of the member being read (`text`: the document).
    fn key<'a>(&'a self, text: &'a str) -> &'a str {
        match self.key_at {
            Some((start, end)) => text.get(start..end).unwrap_or_default(),
            None => &self.key,
        }
    }
}

// A member of a tagged union met before its tag: its key, and where its
// value is written (`from` is past the key's closing quote, so the text
// there is `:`, the value and any whitespace around them).
#[derive(Debug)]
struct Before {
    key: String,
    from: usize,
    to: usize,
}

// The string being read.
#[derive(Debug)]
struct Str {
    expect: Expect,
    /// What the plan checks on a string value (`expect`'s; not read for
    /// a key).
    rule: &'static Text,
    chars: usize,
    /// Whether the decoded text is kept (keys, enums, dates, tags).
    keep: bool,
    /// Whether the plan still has something to decide on this string.
    live: bool,
    /// The decoded text, once an escape made it differ from the raw
    /// bytes; before that it is empty and the text is `raw..safe` of the
    /// document (plain content is not copied piece by piece).
    text: String,
    /// Where the string's content starts in the document, while no escape
    /// has been met (`None` after one: `text` holds the decoded text).
    raw: Option<usize>,
    /// Where the string is in an escape, inside one.
    escape: Option<Escape>,
    /// The offset after the last complete character.
    safe: usize,
}

/// The scanner's state between pieces.
#[derive(Debug)]
pub(crate) struct Scanner {
    plan: &'static Plan,
    max_depth: usize,
    state: State,
    expect: Expect,
    frames: Vec<Frame>,
    depth: usize,
    string: Str,
    number_start: usize,
    /// Where the number being read is in its grammar (kept apart from
    /// `state`, whose match is then a plain jump table).
    number: NumberSyntax,
    number_expect: Expect,
    literal: &'static [u8],
    literal_at: usize,
    /// The key just read repeats one of its object: the decoder reports
    /// that at the `:`.
    duplicate: bool,
    /// The root value may fail with an error the plan did not report (a
    /// member written before its union's tag, judged on its own).
    root_doubt: bool,
    /// An object was read whose rules the scanner does not decide (a rule
    /// the plan leaves to `finish`, or rules under a `quarantine`).
    undecided: bool,
}

impl Scanner {
    pub(crate) fn new(plan: &'static Plan, max_depth: usize) -> Scanner {
        let root = plan.root;
        Scanner {
            plan,
            max_depth,
            state: State::Value,
            expect: Expect {
                node: root,
                quarantine: false,
                tag: false,
            },
            frames: Vec::new(),
            depth: 0,
            string: Str {
                expect: UNCHECKED,
                rule: &plan.node(ANY).text,
                chars: 0,
                keep: false,
                live: false,
                text: String::new(),
                raw: None,
                escape: None,
                safe: 0,
            },
            number_start: 0,
            number: NumberSyntax::Start,
            number_expect: UNCHECKED,
            literal: b"",
            literal_at: 0,
            duplicate: false,
            root_doubt: false,
            undecided: false,
        }
    }

    /// The scanner at the start of a document of `plan`, keeping the
    /// buffers of the one before (its frames, key and string buffers).
    pub(crate) fn reset(&mut self, plan: &'static Plan, max_depth: usize) {
        self.plan = plan;
        self.max_depth = max_depth;
        self.state = State::Value;
        self.expect = Expect {
            node: plan.root,
            quarantine: false,
            tag: false,
        };
        self.depth = 0;
        self.string.escape = None;
        self.string.text.clear();
        self.string.raw = None;
        self.duplicate = false;
        self.literal_at = 0;
        self.root_doubt = false;
        self.undecided = false;
    }

    /// Whether the text read is one complete document whose every value
    /// the plan decided and whose every rule the scanner decided, none of
    /// them failing: `finish` then knows the rule stage finds nothing.
    pub(crate) fn decided(&self) -> bool {
        self.state == State::Done && !self.root_doubt && !self.undecided
    }

    /// The bytes this scanner's buffers hold (a reused scanner keeps them).
    pub(crate) fn capacity(&self) -> usize {
        self.string.text.capacity()
            + self
                .frames
                .iter()
                .map(|f| f.key.capacity() + f.seen.capacity() + f.before.capacity())
                .sum::<usize>()
    }

    /// Reads `text[from..]` (`text` is everything pushed so far).
    pub(crate) fn feed(&mut self, text: &str, from: usize) -> Result<(), Stop> {
        let plan = self.plan;
        let bytes = text.as_bytes();
        let mut i = from;
        while let Some(&b) = bytes.get(i) {
            match self.state {
                State::InString | State::InKey => {
                    i = self.string(plan, text, i)?;
                    continue;
                }
                State::Number => {
                    let num = self.number;
                    match num.step(b) {
                        NumberStep::More(next) => {
                            if num.is_integer() && !next.is_integer() && self.integer_only() {
                                return Err(self.schema_error(text, code::INVALID_TYPE));
                            }
                            self.number = next;
                            i += 1;
                        }
                        // The byte after the number ends it and is read again.
                        NumberStep::End => self.end_number(plan, text, i)?,
                        NumberStep::Refused(_) => return Err(Stop::Syntax),
                    }
                    continue;
                }
                State::Literal => {
                    if self.literal.get(self.literal_at) != Some(&b) {
                        return Err(Stop::Syntax);
                    }
                    self.literal_at += 1;
                    i += 1;
                    if self.literal_at == self.literal.len() {
                        if self.watched() {
                            let seen = match self.literal {
                                b"null" => Seen::Null,
                                l => Seen::Bool(l == b"true"),
                            };
                            self.record(text, seen)?;
                        }
                        self.value_done(i);
                    }
                    continue;
                }
                _ => {}
            }
            i += 1;
            if is_whitespace(b) {
                continue;
            }
            match self.state {
                State::ArrayStart if b == b']' => self.close(plan, text, i)?,
                // One call site: `begin_value` is inlined here.
                State::Value | State::ArrayStart => self.begin_value(plan, text, b, i - 1)?,
                State::ObjectStart if b == b'}' => self.close(plan, text, i)?,
                State::ObjectStart | State::Key if b == b'"' => self.begin_key(i),
                State::Colon if b == b':' && !self.duplicate => self.state = State::Value,
                State::After => match (b, self.top_is_object()) {
                    (b',', Some(true)) => self.state = State::Key,
                    (b',', Some(false)) => {
                        self.expect = self.item_expect();
                        self.state = State::Value;
                    }
                    (b'}', Some(true)) | (b']', Some(false)) => self.close(plan, text, i)?,
                    _ => return Err(Stop::Syntax),
                },
                _ => return Err(Stop::Syntax),
            }
        }
        Ok(())
    }

    fn top(&mut self) -> Option<&mut Frame> {
        self.depth
            .checked_sub(1)
            .and_then(|d| self.frames.get_mut(d))
    }

    fn top_is_object(&self) -> Option<bool> {
        let d = self.depth.checked_sub(1)?;
        self.frames.get(d).map(|f| f.object)
    }

    fn mark_doubt(&mut self) {
        match self.top() {
            Some(frame) => frame.doubt = true,
            None => self.root_doubt = true,
        }
    }

    // A verdict on the value being read.
    fn judge(&mut self, text: &str, verdict: Verdict) -> Result<(), Stop> {
        match verdict {
            Verdict::Fine => Ok(()),
            Verdict::Reject(code) => Err(self.schema_error(text, code)),
        }
    }

    // The node a value of JSON type `kind` is checked against: `expect`'s,
    // or the one it defers to for other types (a nullable `$ref`).
    // The node itself (the common case) is found inline.
    #[inline]
    fn resolve(&self, id: NodeId, kind: u8) -> NodeId {
        if self.plan.node(id).types & kind != 0 {
            return id;
        }
        self.resolve_or(id, kind)
    }

    fn resolve_or(&self, mut id: NodeId, kind: u8) -> NodeId {
        for _ in 0..16 {
            let node = self.plan.node(id);
            if node.types & kind != 0 {
                return id;
            }
            match node.or {
                Some(next) => id = next,
                None => return id,
            }
        }
        ANY
    }

    fn integer_only(&self) -> bool {
        let node = self.plan.node(self.number_expect.node);
        node.types & types::NUMBER == 0
    }

    fn item_expect(&self) -> Expect {
        let Some(frame) = self.depth.checked_sub(1).and_then(|d| self.frames.get(d)) else {
            return UNCHECKED;
        };
        let node = self
            .plan
            .node(frame.node)
            .items
            .as_ref()
            .map_or(ANY, |i| i.node);
        Expect {
            node,
            quarantine: frame.quarantine,
            tag: false,
        }
    }

    // The first byte of a value, at offset `at` (inlined into `feed`'s
    // loop: a call's prologue and epilogue per value cost more).
    #[inline(always)]
    fn begin_value(&mut self, plan: &Plan, text: &str, b: u8, at: usize) -> Result<(), Stop> {
        let expect = self.expect;
        let Some(peek) = Peek::of(b) else {
            return Err(Stop::Syntax);
        };
        let kind = match peek {
            Peek::Object => types::OBJECT,
            Peek::Array => types::ARRAY,
            Peek::String => types::STRING,
            Peek::Number => types::INTEGER,
            Peek::True | Peek::False => types::BOOL,
            Peek::Null => types::NULL,
        };
        if expect.tag {
            // A tag that is not a string: `invalid_type` at the tag.
            if kind != types::STRING {
                return Err(self.schema_error(text, code::INVALID_TYPE));
            }
        }
        let node = self.resolve(expect.node, kind);
        let rule = plan.node(node);
        if rule.types & kind == 0 {
            return Err(self.schema_error(text, code::INVALID_TYPE));
        }
        // A tag is judged against the union's variants (`tag`), not a node.
        if !expect.tag && (node == ANY || rule.unsure) {
            self.mark_doubt();
        }
        let expect = Expect { node, ..expect };
        match peek {
            Peek::Object | Peek::Array => self.open(peek == Peek::Object, expect, at + 1)?,
            Peek::String => {
                self.expect = expect;
                self.begin_string(at + 1);
            }
            Peek::True | Peek::False | Peek::Null => {
                self.literal = match peek {
                    Peek::True => b"true",
                    Peek::False => b"false",
                    _ => b"null",
                };
                self.literal_at = 1;
                self.state = State::Literal;
            }
            Peek::Number => {
                let NumberStep::More(first) = NumberSyntax::Start.step(b) else {
                    return Err(Stop::Syntax);
                };
                self.number_start = at;
                self.number_expect = expect;
                self.number = first;
                self.state = State::Number;
            }
        }
        Ok(())
    }

    fn open(&mut self, object: bool, expect: Expect, after: usize) -> Result<(), Stop> {
        if self.depth >= self.max_depth {
            return Err(Stop::Syntax);
        }
        let plan: &'static Plan = self.plan;
        let rule = plan.node(expect.node);
        let union = object && rule.union.is_some();
        let members = match &rule.object {
            Some(o) if object && !union => Some(o),
            _ => None,
        };
        if self.depth == self.frames.len() {
            // Sized once for typical keys and members: no regrowth later.
            self.frames.push(Frame {
                key: String::with_capacity(32),
                ..Frame::default()
            });
        }
        let Some(frame) = self.frames.get_mut(self.depth) else {
            return Err(Stop::Syntax);
        };
        frame.object = object;
        frame.node = expect.node;
        frame.quarantine = expect.quarantine;
        frame.doubt = false;
        frame.key_at = Some((0, 0));
        frame.count = 0;
        frame.members = members;
        frame.seen.clear();
        frame.next = 0;
        frame.keys = None;
        frame.union = union;
        frame.tag_seen = false;
        frame.before.clear();
        frame.complete = after;
        frame.watch = None;
        frame.values.clear();
        frame.arena.clear();
        frame.marks = Marks::default();
        if let Some(object) = members {
            if !object.rules.is_empty() && !expect.quarantine {
                frame.values.resize(object.members.len(), None);
            }
            self.undecided |= object.undecided || (expect.quarantine && !object.rules.is_empty());
        }
        self.depth += 1;
        if object {
            self.state = State::ObjectStart;
        } else {
            self.expect = self.item_expect();
            self.state = State::ArrayStart;
        }
        Ok(())
    }

    // A container closes at `after` (the offset past its closer).
    fn close(&mut self, plan: &Plan, text: &str, after: usize) -> Result<(), Stop> {
        let Some(frame) = self.depth.checked_sub(1).and_then(|d| self.frames.get(d)) else {
            return Err(Stop::Syntax);
        };
        if frame.object {
            if frame.union && !frame.tag_seen {
                let tag = plan.node(frame.node).union.as_ref().map(|u| u.tag.as_str());
                return Err(self.member_error(text, tag.unwrap_or_default(), code::MISSING_KEY));
            }
            if let Some(object) = frame.members
                && let Some(m) = object.missing(&frame.seen)
            {
                let name = object.members.get(m).map_or("", |m| m.name.as_str());
                return Err(self.member_error(text, name, code::MISSING_KEY));
            }
            if !frame.values.is_empty() {
                self.absent(plan, text)?;
            }
        } else if let Some(items) = &plan.node(frame.node).items
            && !frame.doubt
            && !frame.quarantine
        {
            let code = if items.min.is_some_and(|min| frame.count < min) {
                Some(code::TOO_SHORT)
            } else if items.max.is_some_and(|max| frame.count > max) {
                Some(code::TOO_LONG)
            } else {
                None
            };
            if let Some(code) = code {
                return Err(self.error_at(self.pointer(text, self.depth - 1), code));
            }
        }
        let doubt = self
            .depth
            .checked_sub(1)
            .and_then(|d| self.frames.get(d))
            .is_some_and(|f| f.doubt);
        self.depth -= 1;
        if doubt {
            self.mark_doubt();
        }
        if self.watched() {
            self.record(text, Seen::Other)?;
        }
        self.value_done(after);
        Ok(())
    }

    fn value_done(&mut self, after: usize) {
        match self.top() {
            None => self.state = State::Done,
            Some(frame) => {
                frame.complete = after;
                if !frame.object {
                    frame.count += 1;
                } else if frame.union
                    && !frame.tag_seen
                    && let Some(member) = frame.before.last_mut()
                {
                    member.to = after;
                }
                self.state = State::After;
            }
        }
    }
}
