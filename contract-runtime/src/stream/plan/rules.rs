//! A struct's cross-field rules as the stream decides them: `when` (from the
//! schema's `allOf` of `if`/`then`) and `order` (from `x-contract-rules`),
//! over the struct's members by index. A rule is decided once every member
//! it reads is complete; keys come in any order, and a member is read once
//! (a repeated key is a parse error).
use serde_json::{Map, Value};

use crate::code;
use crate::date::DateTime;
use crate::rules::{OrderKind, WhenKind, order_texts, when_texts};

/// A rule over the members of one object.
#[derive(Debug)]
pub(crate) enum Rule {
    /// `when(condition = values.., require(..), forbid(..))`.
    When {
        condition: usize,
        values: Vec<Value>,
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

/// How an `order` compares its two values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scalar {
    Date,
    DateTime,
    Integer,
    /// A float field: `f64` or `f32`, which the schema does not tell.
    Float,
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
                values,
                required,
                forbidden,
            } => {
                let cond = get(*condition)?;
                if !values.iter().any(|v| same(cond, text(cond), v)) {
                    return None;
                }
                let targets: &[usize] = if m == *condition { &[] } else { &[m] };
                let all = *condition == m;
                let pick = |list: &[usize], null: bool| {
                    list.iter()
                        .filter(|t| all || targets.contains(t))
                        .find(|&&t| get(t).is_some_and(|v| (*v == Seen::Null) == null))
                        .copied()
                };
                if let Some(t) = pick(required, true) {
                    return Some((t, code::REQUIRED));
                }
                pick(forbidden, false).map(|t| (t, code::FORBIDDEN))
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
                    Scalar::Float => float_pair(a, b).and_then(|(a, b)| {
                        // Broken as `f64` and as `f32` (rounding can make
                        // two values equal), or the field's type decides.
                        let wide = out_of_order(a.partial_cmp(&b)?, *strict);
                        let narrow = out_of_order((a as f32).partial_cmp(&(b as f32))?, *strict);
                        Some(wide && narrow)
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
                condition, values, ..
            } => {
                let cond = seen.get(*condition).and_then(Option::as_ref)?;
                let text = match *cond {
                    Seen::Text(start, end) => arena.get(start..end),
                    _ => None,
                };
                let value = values.iter().find(|v| same(cond, text, v))?;
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
                    Scalar::Integer | Scalar::Float => OrderKind::Number,
                };
                Some(order_texts(name(*first), *strict, kind))
            }
        }
    }
}

// The member a one-level pointer names.
fn member(pointer: &str) -> Option<&str> {
    pointer
        .strip_prefix('/')
        .filter(|n| !n.contains(['/', '~']))
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

// Whether a complete value equals a condition's JSON value.
fn same(seen: &Seen, text: Option<&str>, value: &Value) -> bool {
    match (seen, value) {
        (Seen::Text(..), Value::String(v)) => text == Some(v.as_str()),
        (Seen::Bool(s), Value::Bool(v)) => s == v,
        (Seen::Integer(s), Value::Number(v)) => {
            v.as_i64().map(i128::from) == Some(*s) || v.as_u64().map(i128::from) == Some(*s)
        }
        _ => false,
    }
}

/// The rules of the object schema `map` whose `names` are its members
/// (in plan order); `quarantined`: members whose failing value becomes
/// null (a rule over one is left to `finish`). `resolve` follows a `$ref`.
pub(crate) fn compile<'a>(
    map: &'a Map<String, Value>,
    names: &[&str],
    quarantined: &[bool],
    resolve: &dyn Fn(&'a Value) -> &'a Value,
) -> Vec<Rule> {
    let index = |name: &str| {
        let i = names.iter().position(|n| *n == name)?;
        (!quarantined.get(i).copied().unwrap_or(true)).then_some(i)
    };
    let mut rules = Vec::new();
    for when in map
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(rule) = when_rule(when, &index) {
            rules.push(rule);
        }
    }
    let entries = map.get(crate::schema::RULES_KEY).and_then(Value::as_array);
    for entry in entries.into_iter().flatten() {
        if entry.get("rule").and_then(Value::as_str) != Some("order") {
            continue;
        }
        let pointers: Vec<&str> = entry
            .get("pointers")
            .and_then(Value::as_array)
            .map(|p| p.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let [a, b] = pointers.as_slice() else {
            continue;
        };
        let (Some(a), Some(b)) = (member(a), member(b)) else {
            continue;
        };
        let (Some(first), Some(second)) = (index(a), index(b)) else {
            continue;
        };
        let properties = map.get("properties");
        let kind_of = |name: &str| {
            properties
                .and_then(|p| p.get(name))
                .map(|s| scalar(resolve(s), resolve))
        };
        let (Some(Some(ka)), Some(Some(kb))) = (kind_of(a), kind_of(b)) else {
            continue;
        };
        if ka != kb {
            continue;
        }
        let strict = entry
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| d.contains("` > `"));
        rules.push(Rule::Order {
            first,
            second,
            strict,
            kind: ka,
        });
    }
    rules
}

// `{"if": {"properties": {c: {"const": v} | {"enum": [..]}}, "required"?},
//   "then": {"properties": {t: {"not": {"type": "null"}} | {"type": "null"}}, "required"?}}`
fn when_rule(when: &Value, index: &dyn Fn(&str) -> Option<usize>) -> Option<Rule> {
    let condition = when.get("if")?.get("properties")?.as_object()?;
    let [(name, test)] = condition.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    let values = match (test.get("const"), test.get("enum")) {
        (Some(v), None) => vec![v.clone()],
        (None, Some(Value::Array(vs))) => vs.clone(),
        _ => return None,
    };
    let scalar = |v: &Value| v.is_string() || v.is_boolean() || v.is_i64() || v.is_u64();
    if !values.iter().all(scalar) {
        return None;
    }
    let condition = index(name)?;
    let (mut required, mut forbidden) = (Vec::new(), Vec::new());
    for (target, demand) in when.get("then")?.get("properties")?.as_object()? {
        let t = index(target)?;
        let null = serde_json::json!({ "type": "null" });
        if *demand == null {
            forbidden.push(t);
        } else if demand.get("not") == Some(&null)
            && demand.as_object().is_some_and(|d| d.len() == 1)
        {
            required.push(t);
        } else {
            return None;
        }
    }
    Some(Rule::When {
        condition,
        values,
        required,
        forbidden,
    })
}

// How a member's schema compares in an `order`, if the stream can tell.
fn scalar<'a>(schema: &'a Value, resolve: &dyn Fn(&'a Value) -> &'a Value) -> Option<Scalar> {
    let schema = match schema
        .get("anyOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        Some([x, n]) | Some([n, x]) if n.get("type") == Some(&Value::from("null")) => resolve(x),
        Some(_) => return None,
        None => schema,
    };
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    let base: Vec<&str> = types.into_iter().filter(|t| *t != "null").collect();
    if schema.get("enum").is_some() || schema.get("const").is_some() {
        return None;
    }
    match (
        base.as_slice(),
        schema.get("format").and_then(Value::as_str),
    ) {
        (["string"], Some("date")) => Some(Scalar::Date),
        (["string"], Some("date-time")) => Some(Scalar::DateTime),
        (["integer"], None) => Some(Scalar::Integer),
        (["number"], None) => Some(Scalar::Float),
        _ => None,
    }
}
