//! A contract's checks as the stream scanner reads them, built once per
//! type from the contract's [`Description`] (what the derive states of its
//! decoder: each field's Rust type, constraints and rules).
//!
//! A node is the checks of one value's type: its JSON types, a string's
//! lengths, values, date, format and pattern, a number's kind (the Rust
//! integer or float type), bounds and values, an array's items and count,
//! an object's members, other keys and rules, a tagged union's variants.
//! Nested contracts are built once each (by type: a recursive contract's
//! cycle ends at the node being built). What the plan does not evaluate is
//! marked `unsure` (the scanner then waits for `finish` below it): a
//! value of a type that does not describe itself ([`ANY`]), and `equals`
//! or `one_of` on a float or boolean field.
use std::any::TypeId;
use std::collections::HashMap;

use crate::code;
use crate::decode::{Format, Literal};
use crate::describe::{self, Body, Constraint, Description, Type, VariantMembers};

pub(crate) mod rules;
use rules::{Masks, Rule};

/// A node's index in [`Plan::nodes`].
pub(crate) type NodeId = usize;

/// The node that decides nothing: every plan has it at index 0.
pub(crate) const ANY: NodeId = 0;

/// JSON types a node admits, as bits.
pub(crate) mod types {
    pub(crate) const NULL: u8 = 1;
    pub(crate) const BOOL: u8 = 2;
    /// A number written as an integer.
    pub(crate) const INTEGER: u8 = 4;
    /// Any number (implies `INTEGER`).
    pub(crate) const NUMBER: u8 = 8;
    pub(crate) const STRING: u8 = 16;
    pub(crate) const ARRAY: u8 = 32;
    pub(crate) const OBJECT: u8 = 64;
    pub(crate) const ALL: u8 = 127;
}

/// The compiled checks of one contract.
#[derive(Debug)]
pub(crate) struct Plan {
    pub(crate) nodes: Vec<Node>,
    pub(crate) root: NodeId,
}

/// The checks of one schema.
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// The JSON types admitted ([`types`] bits).
    pub(crate) types: u8,
    /// A value of a type outside `types` is checked against this node
    /// instead (`anyOf: [X, {"type": "null"}]` is `null` or X).
    pub(crate) or: Option<NodeId>,
    /// A check not evaluated here could still refuse a value.
    pub(crate) unsure: bool,
    pub(crate) text: Text,
    pub(crate) number: Numeric,
    pub(crate) items: Option<Items>,
    pub(crate) object: Option<Object>,
    pub(crate) union: Option<Union>,
}

/// String checks.
#[derive(Debug, Default)]
pub(crate) struct Text {
    pub(crate) min_len: Option<usize>,
    pub(crate) max_len: Option<usize>,
    /// `equals` and `one_of` (an enum's variants) in the order checked,
    /// each with the code a value outside it gets.
    pub(crate) allowed: Vec<(Vec<String>, &'static str)>,
    /// A `Date`: `YYYY-MM-DD`, a calendar day.
    pub(crate) date: bool,
    /// A `DateTime`: RFC 3339, its date also decided on a prefix.
    pub(crate) date_time: bool,
    /// `format`: `email` or `uuid`, decided on the whole string.
    pub(crate) format: Option<Format>,
    /// `pattern`, as the decoder's matcher reads it.
    pub(crate) pattern: Option<regex_lite::Regex>,
}

impl Text {
    /// Whether the string's decoded text is needed.
    pub(crate) fn reads_text(&self) -> bool {
        !self.allowed.is_empty()
            || self.date
            || self.date_time
            || self.format.is_some()
            || self.pattern.is_some()
    }

    /// Whether the string is checked at all.
    pub(crate) fn checks(&self) -> bool {
        self.reads_text() || self.max_len.is_some() || self.min_len.is_some()
    }
}

/// Number checks.
#[derive(Debug, Default)]
pub(crate) struct Numeric {
    /// The field's Rust type (`None`: not a number field).
    pub(crate) kind: Option<Kind>,
    /// `min`, `max`: the declared bounds (the type's range is `kind`'s).
    pub(crate) minimum: Option<Bound>,
    pub(crate) maximum: Option<Bound>,
    /// An integer field's `equals` and `one_of`, in the order checked,
    /// each with its code.
    pub(crate) allowed: Vec<(Vec<i128>, &'static str)>,
}

/// A number field's Rust type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Int(describe::Int),
    Float(describe::Float),
}

/// A `minimum` or `maximum`: exact when it is an integer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bound {
    pub(crate) int: Option<i128>,
    pub(crate) float: f64,
}

impl Bound {
    pub(crate) fn integer(v: i128) -> Bound {
        Bound {
            int: Some(v),
            float: v as f64,
        }
    }

    fn of(literal: Literal) -> Option<Bound> {
        match literal {
            Literal::Int(v) => Some(Bound::integer(v)),
            Literal::Float(float) => Some(Bound { int: None, float }),
            Literal::Str(_) | Literal::Bool(_) => None,
        }
    }

    /// `v < self` (below a minimum).
    pub(crate) fn above(self, v: i128) -> bool {
        match self.int {
            Some(b) => v < b,
            None => (v as f64) < self.float,
        }
    }

    /// `v > self` (above a maximum).
    pub(crate) fn below(self, v: i128) -> bool {
        match self.int {
            Some(b) => v > b,
            None => (v as f64) > self.float,
        }
    }
}

/// Array checks.
#[derive(Debug)]
pub(crate) struct Items {
    pub(crate) node: NodeId,
    pub(crate) min: Option<usize>,
    pub(crate) max: Option<usize>,
}

/// Object checks: a struct (declared members, closed), a map (any key, one
/// value schema) or an open object.
#[derive(Debug, Default)]
pub(crate) struct Object {
    pub(crate) members: Vec<Member>,
    /// No other key is allowed.
    pub(crate) closed: bool,
    /// The schema of every other key's value (a map).
    pub(crate) other: Option<NodeId>,
    /// The `when` and `order` rules over the members.
    pub(crate) rules: Vec<Rule>,
    /// The rules as bits (see [`Masks`]), when they fit.
    pub(crate) masks: Option<Masks>,
    /// Some rule of the description is not in `rules` (`finish` decides it).
    pub(crate) undecided: bool,
    /// The required members among the first 64, a bit each.
    pub(crate) required: u64,
    /// The optional members among the first 64 that rules read.
    pub(crate) optional_read: u64,
}

impl Object {
    /// The first required member (by index) that `seen` lacks.
    #[inline]
    pub(crate) fn missing(&self, seen: &MemberSet) -> Option<usize> {
        let low = self.required & !seen.low();
        if low != 0 {
            return Some(low.trailing_zeros() as usize);
        }
        if self.members.len() <= 64 {
            return None;
        }
        let rest = self.members.iter().enumerate().skip(64);
        rest.filter(|(i, m)| m.required && !seen.contains(*i))
            .map(|(i, _)| i)
            .next()
    }
}

/// A set of member indices: a bit each, the first 64 in a word of their
/// own (an object rarely declares more), the others in `more`.
#[derive(Debug, Default)]
pub(crate) struct MemberSet {
    low: u64,
    more: Vec<u64>,
}

impl MemberSet {
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.low = 0;
        if !self.more.is_empty() {
            self.more.clear();
        }
    }

    /// Whether `i` is in the set.
    #[inline]
    pub(crate) fn contains(&self, i: usize) -> bool {
        match i.checked_sub(64) {
            None => self.low >> i & 1 != 0,
            Some(j) => self
                .more
                .get(j / 64)
                .is_some_and(|w| w >> (j % 64) & 1 != 0),
        }
    }

    /// Adds `i`; whether it was not in the set before.
    #[inline]
    pub(crate) fn insert(&mut self, i: usize) -> bool {
        let (word, bit) = match i.checked_sub(64) {
            None => (&mut self.low, i),
            Some(j) => {
                if self.more.len() <= j / 64 {
                    self.more.resize(j / 64 + 1, 0);
                }
                match self.more.get_mut(j / 64) {
                    Some(word) => (word, j % 64),
                    None => return false,
                }
            }
        };
        let fresh = *word >> bit & 1 == 0;
        *word |= 1 << bit;
        fresh
    }

    /// The first 64 members' bits.
    #[inline]
    pub(crate) fn low(&self) -> u64 {
        self.low
    }

    pub(crate) fn capacity(&self) -> usize {
        self.more.capacity() * 8
    }
}

/// A declared member.
#[derive(Debug)]
pub(crate) struct Member {
    pub(crate) name: String,
    pub(crate) node: NodeId,
    pub(crate) required: bool,
    /// Value failures below it are review reasons, not errors.
    pub(crate) quarantine: bool,
    /// The rules (indices into [`Object::rules`]) that read its value.
    pub(crate) rules: Vec<usize>,
}

/// A tagged union: the tag member and one object node per variant.
#[derive(Debug)]
pub(crate) struct Union {
    pub(crate) tag: String,
    pub(crate) variants: Vec<(String, NodeId)>,
    /// The code of a tag that names no variant.
    pub(crate) unknown: &'static str,
}

impl From<&'static Description> for Plan {
    /// The plan of a contract.
    fn from(description: &'static Description) -> Plan {
        let mut builder = Builder::new();
        let root = builder.contract(description);
        Plan {
            nodes: builder.nodes,
            root,
        }
    }
}

impl Plan {
    /// The plan of a value of type `ty` (a contract's `JsonType::TYPE`).
    pub(crate) fn of(ty: &'static Type) -> Plan {
        let mut builder = Builder::new();
        let root = builder.value(ty, &[]);
        Plan {
            nodes: builder.nodes,
            root,
        }
    }

    /// The plan that decides nothing: JSON's grammar only.
    #[cfg(test)]
    pub(crate) fn any() -> Plan {
        Plan::of(&Type::Any)
    }

    /// Whether a value of node `id` may be null.
    pub(crate) fn admits_null(&self, id: NodeId) -> bool {
        let mut id = id;
        for _ in 0..16 {
            let node = self.node(id);
            if node.types & types::NULL != 0 {
                return true;
            }
            match node.or {
                Some(next) => id = next,
                None => return false,
            }
        }
        false
    }

    pub(crate) fn node(&self, id: NodeId) -> &Node {
        self.nodes.get(id).unwrap_or(&self.nodes[ANY])
    }
}

struct Builder {
    nodes: Vec<Node>,
    /// Contracts built (or being built): a cycle ends here.
    contracts: HashMap<TypeId, NodeId>,
}

fn any() -> Node {
    Node {
        types: types::ALL,
        unsure: true,
        ..Node::default()
    }
}

impl Builder {
    fn new() -> Builder {
        Builder {
            nodes: vec![any()],
            contracts: HashMap::new(),
        }
    }

    fn push(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    // The node of a contract, built once.
    fn contract(&mut self, description: &'static Description) -> NodeId {
        let key = (description.id)();
        if let Some(&id) = self.contracts.get(&key) {
            return id;
        }
        // The slot is taken before the body is built, so that the contract
        // reached again inside it resolves to this id.
        let id = self.push(Node::default());
        self.contracts.insert(key, id);
        let node = match &description.body {
            Body::Struct(object) => Node {
                types: types::OBJECT,
                object: Some(self.object(object, None)),
                ..Node::default()
            },
            Body::Enum(names) => {
                let mut node = Node {
                    types: types::STRING,
                    ..Node::default()
                };
                let names = names.iter().map(|n| (*n).to_owned()).collect();
                node.text.allowed.push((names, code::NOT_ONE_OF));
                node
            }
            Body::Union(union) => self.union(union),
        };
        if let Some(slot) = self.nodes.get_mut(id) {
            *slot = node;
        }
        id
    }

    // The node of a value of type `ty` with `constraints`.
    fn value(&mut self, ty: &'static Type, constraints: &[Constraint]) -> NodeId {
        match ty.unboxed() {
            // A contract value takes no constraints (the derive refuses them).
            Type::Contract(describe) if constraints.is_empty() => self.contract(describe()),
            Type::Contract(_) => ANY,
            Type::Option(inner) if matches!(inner.unboxed(), Type::Contract(_)) => {
                let id = self.value(inner, constraints);
                self.push(Node {
                    types: types::NULL,
                    or: Some(id),
                    ..Node::default()
                })
            }
            Type::Option(inner) => {
                let id = self.value(inner, constraints);
                if let Some(node) = self.nodes.get_mut(id) {
                    node.types |= types::NULL;
                }
                id
            }
            other => {
                let node = self.leaf(other, constraints);
                self.push(node)
            }
        }
    }

    // A value that is neither a contract nor an `Option`.
    fn leaf(&mut self, ty: &'static Type, constraints: &[Constraint]) -> Node {
        let mut node = Node::default();
        match ty {
            Type::Bool => node.types = types::BOOL,
            Type::Int(kind) => {
                node.types = types::INTEGER;
                node.number.kind = Some(Kind::Int(*kind));
            }
            Type::Float(kind) => {
                node.types = types::NUMBER | types::INTEGER;
                node.number.kind = Some(Kind::Float(*kind));
            }
            Type::String => node.types = types::STRING,
            Type::Date => {
                node.types = types::STRING;
                node.text.date = true;
            }
            Type::DateTime => {
                node.types = types::STRING;
                node.text.date_time = true;
            }
            Type::Array(items) => {
                // Lengths count the items; every other constraint is each item's.
                let (counts, each): (Vec<Constraint>, Vec<Constraint>) = constraints
                    .iter()
                    .partition(|c| matches!(c, Constraint::MinLen(_) | Constraint::MaxLen(_)));
                let count = |min: bool| {
                    counts.iter().find_map(|c| match *c {
                        Constraint::MinLen(n) if min => usize::try_from(n).ok(),
                        Constraint::MaxLen(n) if !min => usize::try_from(n).ok(),
                        _ => None,
                    })
                };
                let (min, max) = (count(true), count(false));
                let items = self.value(items, &each);
                return Node {
                    types: types::ARRAY,
                    items: Some(Items {
                        node: items,
                        min,
                        max,
                    }),
                    ..Node::default()
                };
            }
            Type::Map(values) => {
                let other = self.value(values, &[]);
                return Node {
                    types: types::OBJECT,
                    unsure: !constraints.is_empty(),
                    object: Some(Object {
                        other: Some(other),
                        ..Object::default()
                    }),
                    ..Node::default()
                };
            }
            Type::Any | Type::Option(_) | Type::Boxed(_) | Type::Contract(_) => return any(),
        }
        for constraint in constraints {
            node.unsure |= !constrain(&mut node, constraint);
        }
        node
    }

    // A struct's object, or a union variant's (`tag`: the tag member
    // first, with its variant's name).
    fn object(&mut self, object: &'static describe::Object, tag: Option<(&str, &str)>) -> Object {
        let mut members = Vec::new();
        if let Some((tag, name)) = tag {
            let mut node = Node {
                types: types::STRING,
                ..Node::default()
            };
            node.text
                .allowed
                .push((vec![name.to_owned()], code::NOT_EQUAL));
            members.push(Member {
                name: tag.to_owned(),
                node: self.push(node),
                required: true,
                quarantine: false,
                rules: Vec::new(),
            });
        }
        let offset = members.len();
        for member in object.members {
            members.push(Member {
                name: member.name.to_owned(),
                node: self.value(member.ty, member.constraints),
                required: !member.optional,
                quarantine: member.quarantine,
                rules: Vec::new(),
            });
        }
        let rules = rules::build(object, offset);
        for (i, member) in members.iter_mut().enumerate() {
            let reading = rules.iter().enumerate().filter(|(_, r)| r.reads(i));
            member.rules = reading.map(|(r, _)| r).collect();
        }
        let masks = Masks::of(&rules, members.len());
        let undecided = rules.len() < object.whens.len() + object.orders.len();
        let required = members
            .iter()
            .take(64)
            .enumerate()
            .filter(|(_, m)| m.required)
            .fold(0, |bits, (i, _)| bits | 1 << i);
        let optional_read = members
            .iter()
            .take(64)
            .enumerate()
            .filter(|(_, m)| !m.required && !m.rules.is_empty())
            .fold(0, |bits, (i, _)| bits | 1 << i);
        Object {
            members,
            closed: true,
            other: None,
            rules,
            masks,
            undecided,
            required,
            optional_read,
        }
    }

    fn union(&mut self, union: &'static describe::Union) -> Node {
        let mut variants = Vec::new();
        for variant in union.variants {
            let tag = Some((union.tag, variant.name));
            let object = match &variant.members {
                VariantMembers::Unit => Some(self.object(&describe::NO_MEMBERS, tag)),
                VariantMembers::Struct(object) => Some(self.object(object, tag)),
                VariantMembers::Newtype(ty) => match ty.unboxed() {
                    Type::Contract(describe) => match &describe().body {
                        Body::Struct(object) => Some(self.object(object, tag)),
                        _ => None,
                    },
                    _ => None,
                },
            };
            let node = match object {
                Some(object) => Node {
                    types: types::OBJECT,
                    object: Some(object),
                    ..Node::default()
                },
                None => any(),
            };
            variants.push((variant.name.to_owned(), self.push(node)));
        }
        Node {
            types: types::OBJECT,
            union: Some(Union {
                tag: union.tag.to_owned(),
                variants,
                unknown: union.unknown,
            }),
            ..Node::default()
        }
    }
}

// One constraint on a leaf node; `false` when the plan does not evaluate
// it there (the node is then `unsure`).
fn constrain(node: &mut Node, constraint: &Constraint) -> bool {
    let string = node.types & types::STRING != 0 && node.number.kind.is_none();
    let integer = matches!(node.number.kind, Some(Kind::Int(_)));
    let number = node.number.kind.is_some();
    let plain = string && !node.text.date && !node.text.date_time;
    let count = |n: u64| usize::try_from(n).ok();
    match *constraint {
        Constraint::Min(bound) if number => {
            node.number.minimum = Bound::of(bound);
            node.number.minimum.is_some()
        }
        Constraint::Max(bound) if number => {
            node.number.maximum = Bound::of(bound);
            node.number.maximum.is_some()
        }
        Constraint::MinLen(n) if plain => {
            node.text.min_len = count(n);
            node.text.min_len.is_some()
        }
        Constraint::MaxLen(n) if plain => {
            node.text.max_len = count(n);
            node.text.max_len.is_some()
        }
        Constraint::Equals(value) => allow(node, &[value], code::NOT_EQUAL, string, integer),
        Constraint::OneOf(values) => allow(node, values, code::NOT_ONE_OF, string, integer),
        Constraint::Pattern { engine, .. } if plain => {
            node.text.pattern = regex_lite::Regex::new(engine).ok();
            node.text.pattern.is_some()
        }
        Constraint::Format(format) if plain => {
            node.text.format = Some(format);
            true
        }
        _ => false,
    }
}

// `equals` or `one_of` (`code`) on a string or integer node.
fn allow(
    node: &mut Node,
    values: &[Literal],
    code: &'static str,
    string: bool,
    integer: bool,
) -> bool {
    if string {
        let strings: Option<Vec<String>> = values
            .iter()
            .map(|v| match v {
                Literal::Str(s) => Some((*s).to_owned()),
                _ => None,
            })
            .collect();
        return strings.is_some_and(|strings| {
            node.text.allowed.push((strings, code));
            true
        });
    }
    if integer {
        let numbers: Option<Vec<i128>> = values
            .iter()
            .map(|v| match v {
                Literal::Int(n) => Some(*n),
                _ => None,
            })
            .collect();
        return numbers.is_some_and(|numbers| {
            node.number.allowed.push((numbers, code));
            true
        });
    }
    false
}
