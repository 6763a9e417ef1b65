//! A struct's cross-field rules as the stream decides them: `when` and
//! `order`, as the contract's description states them, over the struct's
//! members by index. A rule is decided once every member
//! it reads is complete; keys come in any order, and a member is read once
//! (a repeated key is a parse error).
use serde_json::Value;

use crate::code;
use crate::date::DateTime;
use crate::describe::{self, Float, Type};
use crate::rules::{OrderKind, WhenKind, order_texts, when_texts};

/// A rule over the members of one object.
#[derive(Debug)]
pub(crate) enum Rule {
    /// `when(condition = values.., require(..), forbid(..))`.
    When {
        condition: usize,
        /// The condition's values as the decoder words them, and as the
        /// stream compares them (the same order).
        values: Vec<Value>,
        matches: Vec<Match>,
        /// Members that must not be null, and members that must be.
        required: Vec<usize>,
        forbidden: Vec<usize>,
    },
    /// `order(first <= second)` (`<` when `strict`), compared as `kind`.
    Order {
        first: usize,
        second: usize,
        strict: bool,
        kind: Scalar,
    },
}

/// A condition's value, typed once when the plan is built: a complete
/// value is compared without going through a `serde_json::Value`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Match {
    Text(String),
    Bool(bool),
    Integer(i128),
}

impl Match {
    fn of(value: &Value) -> Option<Match> {
        match value {
            Value::String(s) => Some(Match::Text(s.clone())),
            Value::Bool(b) => Some(Match::Bool(*b)),
            Value::Number(n) => n
                .as_i64()
                .map(i128::from)
                .or_else(|| n.as_u64().map(i128::from))
                .map(Match::Integer),
            _ => None,
        }
    }

    // Whether a complete value (`text`: its decoded text, for a string)
    // is this one.
    fn is(&self, seen: &Seen, text: Option<&str>) -> bool {
        match (self, seen) {
            (Match::Text(v), Seen::Text(..)) => text == Some(v.as_str()),
            (Match::Bool(v), Seen::Bool(s)) => s == v,
            (Match::Integer(v), Seen::Integer(s)) => s == v,
            _ => false,
        }
    }
}

/// How an `order` compares its two values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scalar {
    Date,
    DateTime,
    Integer,
    /// A float field, compared as its type compares (an `f32` narrowed).
    Float(Float),
}

/// A complete member value, as far as the rules read it (a string's
/// decoded text is kept in its object's arena: `start..end`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Seen {
    Null,
    Bool(bool),
    Integer(i128),
    Float(f64),
    Text(usize, usize),
    /// An object or array, or a value the rules do not read.
    Other,
}

/// A decided rule's error: the member's index and the code.
pub(crate) type Broken = (usize, &'static str);

impl Rule {
    /// Whether the rule reads member `m`.
    pub(crate) fn reads(&self, m: usize) -> bool {
        match self {
            Rule::When {
                condition,
                required,
                forbidden,
                ..
            } => *condition == m || required.contains(&m) || forbidden.contains(&m),
            Rule::Order { first, second, .. } => *first == m || *second == m,
        }
    }

    /// The errors the rule has once member `m` is complete (`seen`: the
    /// values complete so far, by member index; `arena`: their text). Each
    /// pair of members is decided once, when the later of the two arrives.
    pub(crate) fn decide(&self, m: usize, seen: &[Option<Seen>], arena: &str) -> Option<Broken> {
        let get = |i: usize| seen.get(i).and_then(Option::as_ref);
        let text = |v: &Seen| match *v {
            Seen::Text(start, end) => arena.get(start..end),
            _ => None,
        };
        match self {
            Rule::When {
                condition,
                matches,
                required,
                forbidden,
                ..
            } => {
                let cond = get(*condition)?;
                // What the rule would break, found before the condition's
                // value is compared: in a valid document nothing is, and
                // the comparison is skipped.
                let broken = if m == *condition {
                    // The condition completes last: every target.
                    let pick = |list: &[usize], null: bool| {
                        list.iter()
                            .find(|&&t| get(t).is_some_and(|v| (*v == Seen::Null) == null))
                            .copied()
                    };
                    pick(required, true)
                        .map(|t| (t, code::REQUIRED))
                        .or_else(|| pick(forbidden, false).map(|t| (t, code::FORBIDDEN)))
                } else {
                    // A target completes after the condition: that one.
                    let null = get(m).is_some_and(|v| *v == Seen::Null);
                    if null && required.contains(&m) {
                        Some((m, code::REQUIRED))
                    } else if !null && get(m).is_some() && forbidden.contains(&m) {
                        Some((m, code::FORBIDDEN))
                    } else {
                        None
                    }
                }?;
                let written = text(cond);
                matches
                    .iter()
                    .any(|v| v.is(cond, written))
                    .then_some(broken)
            }
            Rule::Order {
                first,
                second,
                strict,
                kind,
            } => {
                let (a, b) = (get(*first)?, get(*second)?);
                let broken = match kind {
                    // A date the scanner let through is valid: as text,
                    // `YYYY-MM-DD` sorts as the calendar does.
                    Scalar::Date => Some((text(a)?, text(b)?))
                        .filter(|(a, b)| a.len() == 10 && b.len() == 10)
                        .map(|(a, b)| out_of_order(a.cmp(b), *strict)),
                    Scalar::DateTime => Some((text(a)?, text(b)?))
                        .and_then(|(a, b)| {
                            Some((DateTime::parse(a).ok()?, DateTime::parse(b).ok()?))
                        })
                        .map(|(a, b)| out_of_order(a.cmp(&b), *strict)),
                    Scalar::Integer => match (a, b) {
                        (Seen::Integer(a), Seen::Integer(b)) => {
                            Some(out_of_order(a.cmp(b), *strict))
                        }
                        _ => None,
                    },
                    Scalar::Float(Float::F64) => float_pair(a, b)
                        .and_then(|(a, b)| Some(out_of_order(a.partial_cmp(&b)?, *strict))),
                    Scalar::Float(Float::F32) => float_pair(a, b).and_then(|(a, b)| {
                        // The decoder compares the narrowed values.
                        Some(out_of_order((a as f32).partial_cmp(&(b as f32))?, *strict))
                    }),
                };
                broken.unwrap_or(false).then_some((*second, code::ORDER))
            }
        }
    }
}

/// The rules of one object as bits, for a test that rules most of them
/// out before [`Rule::decide`] is called: which rules a member's
/// completion can break, given which members are complete, which of them
/// are null and which `when` conditions hold. Built only for an object of
/// at most 64 members and 64 rules (a larger one calls `decide` for every
/// rule a member is read by).
#[derive(Debug, Default)]
pub(crate) struct Masks {
    rules: Vec<RuleBits>,
    members: Vec<MemberBits>,
}

// A rule's members: those a `when` requires and forbids, an `order`'s two.
#[derive(Debug, Default, Clone, Copy)]
struct RuleBits {
    required: u64,
    forbidden: u64,
    pair: u64,
}

// A member's rules: the `when` rules it is the condition of, those that
// require it, those that forbid it, and the `order` rules that read it.
#[derive(Debug, Default, Clone, Copy)]
struct MemberBits {
    condition_of: u64,
    required_of: u64,
    forbidden_of: u64,
    order_of: u64,
}

/// Which members of an object are complete and null, and which `when`
/// conditions hold (a bit per member, per rule).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Marks {
    done: u64,
    null: u64,
    holds: u64,
}

impl Masks {
    /// The masks of `rules` over `members` members, if both fit in 64 bits.
    pub(crate) fn of(rules: &[Rule], members: usize) -> Option<Masks> {
        if rules.is_empty() || rules.len() > 64 || members > 64 {
            return None;
        }
        let bits = |list: &[usize]| list.iter().fold(0u64, |acc, &m| acc | bit(m));
        let mut masks = Masks {
            rules: Vec::with_capacity(rules.len()),
            members: vec![MemberBits::default(); members],
        };
        for (r, rule) in rules.iter().enumerate() {
            let me = bit(r);
            let mut mark = |m: usize, pick: fn(&mut MemberBits) -> &mut u64| {
                if let Some(bits) = masks.members.get_mut(m) {
                    *pick(bits) |= me;
                }
            };
            let bits = match rule {
                Rule::When {
                    condition,
                    required,
                    forbidden,
                    ..
                } => {
                    mark(*condition, |b| &mut b.condition_of);
                    for &t in required {
                        mark(t, |b| &mut b.required_of);
                    }
                    for &t in forbidden {
                        mark(t, |b| &mut b.forbidden_of);
                    }
                    RuleBits {
                        required: bits(required),
                        forbidden: bits(forbidden),
                        pair: 0,
                    }
                }
                Rule::Order { first, second, .. } => {
                    mark(*first, |b| &mut b.order_of);
                    mark(*second, |b| &mut b.order_of);
                    RuleBits {
                        pair: bit(*first) | bit(*second),
                        ..RuleBits::default()
                    }
                }
            };
            masks.rules.push(bits);
        }
        Some(masks)
    }

    /// Member `m` is complete as `seen`: marks it (and the `when` rules
    /// whose condition it is as holding when its value is one of theirs,
    /// `rules` being the object's), then returns the rules [`Rule::decide`]
    /// may find broken now. Every other rule is not (a superset: `decide`
    /// has the last word).
    #[inline]
    pub(crate) fn complete(
        &self,
        rules: &[Rule],
        m: usize,
        seen: &Seen,
        arena: &str,
        marks: &mut Marks,
    ) -> u64 {
        let Some(member) = self.members.get(m) else {
            return u64::MAX;
        };
        let null = *seen == Seen::Null;
        marks.done |= bit(m);
        if null {
            marks.null |= bit(m);
        }
        let own = member.condition_of;
        let mut suspects = 0;
        if own != 0 {
            let mut conditions = own;
            while conditions != 0 {
                let r = conditions.trailing_zeros() as usize;
                conditions &= conditions - 1;
                if rules.get(r).is_some_and(|rule| rule.holds(seen, arena)) {
                    marks.holds |= bit(r);
                    // A condition complete and holding: a target already wrong.
                    let b = self.rules.get(r).copied().unwrap_or_default();
                    if (b.required & marks.done & marks.null)
                        | (b.forbidden & marks.done & !marks.null)
                        != 0
                    {
                        suspects |= bit(r);
                    }
                }
            }
        }
        // A target complete after its condition held.
        let targets = if null {
            member.required_of
        } else {
            member.forbidden_of
        };
        suspects |= targets & marks.holds & !own;
        // An order whose two members are complete.
        let mut orders = member.order_of;
        while orders != 0 {
            let r = orders.trailing_zeros() as usize;
            orders &= orders - 1;
            let pair = self.rules.get(r).map_or(0, |b| b.pair);
            if pair & marks.done == pair {
                suspects |= bit(r);
            }
        }
        suspects
    }
}

// The bit of `i` (below 64: the masks are built only then).
#[inline]
fn bit(i: usize) -> u64 {
    1u64.checked_shl(i as u32).unwrap_or(0)
}

impl Rule {
    /// Whether a `when`'s condition holds for its complete value `seen`.
    #[inline]
    fn holds(&self, seen: &Seen, arena: &str) -> bool {
        let Rule::When { matches, .. } = self else {
            return false;
        };
        let text = match *seen {
            Seen::Text(start, end) => arena.get(start..end),
            _ => None,
        };
        matches.iter().any(|v| v.is(seen, text))
    }
}

impl Rule {
    /// The message and the expectation of the error `code` this rule
    /// decided, as the decoder words them (`name`: a member's JSON name by
    /// index; `seen`, `arena`: as for [`Rule::decide`]).
    pub(crate) fn texts<'n>(
        &self,
        code: &str,
        name: impl Fn(usize) -> &'n str,
        seen: &[Option<Seen>],
        arena: &str,
    ) -> Option<(String, String)> {
        match self {
            Rule::When {
                condition,
                values,
                matches,
                ..
            } => {
                let cond = seen.get(*condition).and_then(Option::as_ref)?;
                let text = match *cond {
                    Seen::Text(start, end) => arena.get(start..end),
                    _ => None,
                };
                let at = matches.iter().position(|v| v.is(cond, text))?;
                let value = values.get(at)?;
                let kind = if code == code::REQUIRED {
                    WhenKind::Required
                } else {
                    WhenKind::Forbidden
                };
                Some(when_texts(kind, name(*condition), value))
            }
            Rule::Order {
                first,
                strict,
                kind,
                ..
            } => {
                let kind = match kind {
                    Scalar::Date | Scalar::DateTime => OrderKind::Time,
                    Scalar::Integer | Scalar::Float(_) => OrderKind::Number,
                };
                Some(order_texts(name(*first), *strict, kind))
            }
        }
    }
}

fn out_of_order(ordering: std::cmp::Ordering, strict: bool) -> bool {
    if strict {
        ordering.is_ge()
    } else {
        ordering.is_gt()
    }
}

fn float_pair(a: &Seen, b: &Seen) -> Option<(f64, f64)> {
    let f = |v: &Seen| match v {
        Seen::Float(f) => Some(*f),
        Seen::Integer(i) => Some(*i as f64),
        _ => None,
    };
    Some((f(a)?, f(b)?))
}

/// The rules of `object`, whose members sit at `offset..` of the plan's
/// object (a union variant's tag comes first). A rule over a quarantined
/// member (a failing value there becomes null) is left to `finish`; so is
/// a `when` whose condition is not a string, boolean or integer, and an
/// `order` the stream cannot compare alone.
pub(crate) fn build(object: &describe::Object, offset: usize) -> Vec<Rule> {
    let index = |m: usize| {
        let member = object.members.get(m)?;
        (!member.quarantine).then_some(m + offset)
    };
    let mut rules = Vec::new();
    for when in object.whens {
        let values = (when.values)();
        let Some(matches) = values.iter().map(Match::of).collect::<Option<Vec<_>>>() else {
            continue;
        };
        let targets = |list: &[usize]| list.iter().map(|&t| index(t)).collect::<Option<Vec<_>>>();
        let (Some(condition), Some(required), Some(forbidden)) = (
            index(when.condition),
            targets(when.require),
            targets(when.forbid),
        ) else {
            continue;
        };
        rules.push(Rule::When {
            condition,
            values,
            matches,
            required,
            forbidden,
        });
    }
    for order in object.orders {
        let (Some(first), Some(second)) = (index(order.first), index(order.second)) else {
            continue;
        };
        let kind = |m: usize| object.members.get(m).and_then(scalar);
        let (Some(ka), Some(kb)) = (kind(order.first), kind(order.second)) else {
            continue;
        };
        if ka != kb {
            continue;
        }
        rules.push(Rule::Order {
            first,
            second,
            strict: order.strict,
            kind: ka,
        });
    }
    rules
}

// How a member compares in an `order`, if the stream can tell: a date, a
// date-time, an integer or a float without `equals` or `one_of`.
fn scalar(member: &describe::Member) -> Option<Scalar> {
    let listed = member.constraints.iter().any(|c| {
        matches!(
            c,
            describe::Constraint::Equals(_) | describe::Constraint::OneOf(_)
        )
    });
    if listed {
        return None;
    }
    let ty = match member.ty.unboxed() {
        Type::Option(inner) => inner.unboxed(),
        other => other,
    };
    match ty {
        Type::Date => Some(Scalar::Date),
        Type::DateTime => Some(Scalar::DateTime),
        Type::Int(_) => Some(Scalar::Integer),
        Type::Float(kind) => Some(Scalar::Float(*kind)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{Marks, Masks, Match, Rule, Scalar, Seen};
    use serde_json::json;

    // Every order of completing four members, each null, "a" or "b": the
    // bits never rule out a rule `decide` finds broken.
    #[test]
    fn the_masks_never_rule_out_a_broken_rule() {
        let when =
            |condition, value: &str, required: Vec<usize>, forbidden: Vec<usize>| Rule::When {
                condition,
                values: vec![json!(value)],
                matches: vec![Match::Text(value.into())],
                required,
                forbidden,
            };
        let rules = vec![
            when(0, "a", vec![1, 2], vec![3]),
            when(0, "b", vec![3], vec![]),
            when(0, "b", vec![], vec![1, 2]),
            when(3, "a", vec![0, 3], vec![1]),
            Rule::Order {
                first: 1,
                second: 2,
                strict: false,
                kind: Scalar::Integer,
            },
        ];
        let masks = Masks::of(&rules, 4).unwrap();
        let arena = "ab";
        let values = [
            Seen::Null,
            Seen::Text(0, 1),
            Seen::Text(1, 2),
            Seen::Integer(2),
        ];
        let mut broken = 0;
        for order in 0..24usize {
            // The `order`-th permutation of the four members.
            let mut left = vec![0, 1, 2, 3];
            let mut rest = order;
            let mut members = Vec::new();
            for n in (1..=4).rev() {
                members.push(left.remove(rest % n));
                rest /= n;
            }
            for pick in 0..4usize.pow(4) {
                let mut seen = vec![None; 4];
                let mut marks = Marks::default();
                for (k, &m) in members.iter().enumerate() {
                    let value = values[(pick / 4usize.pow(k as u32)) % 4];
                    seen[m] = Some(value);
                    let suspects = masks.complete(&rules, m, &value, arena, &mut marks);
                    for (r, rule) in rules.iter().enumerate() {
                        if !rule.reads(m) {
                            continue;
                        }
                        if let Some((_, code)) = rule.decide(m, &seen, arena) {
                            broken += 1;
                            assert!(
                                suspects & (1 << r) != 0,
                                "rule {r} ({code}) ruled out: {members:?}, {seen:?}"
                            );
                        }
                    }
                }
            }
        }
        // The test reaches broken rules of every kind.
        assert!(broken > 100, "{broken}");
    }

    #[test]
    fn a_condition_value_is_typed_as_the_stream_compares_it() {
        assert_eq!(Match::of(&json!("paid")), Some(Match::Text("paid".into())));
        assert_eq!(Match::of(&json!(true)), Some(Match::Bool(true)));
        assert_eq!(Match::of(&json!(-3)), Some(Match::Integer(-3)));
        assert_eq!(
            Match::of(&json!(u64::MAX)),
            Some(Match::Integer(i128::from(u64::MAX)))
        );
        // Not decided by the stream: left to `finish`.
        assert_eq!(Match::of(&json!(1.5)), None);
        assert_eq!(Match::of(&json!(null)), None);
        let arena = "paid";
        assert!(Match::Text("paid".into()).is(&Seen::Text(0, 4), arena.get(0..4)));
        assert!(!Match::Text("paid".into()).is(&Seen::Bool(true), None));
        assert!(Match::Integer(7).is(&Seen::Integer(7), None));
        assert!(!Match::Integer(7).is(&Seen::Float(7.0), None));
    }
}
