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
    use super::{Match, Seen};
    use serde_json::json;

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
