//! The walk over two schemas: each keyword compared, each `$ref` followed
//! once per pair of definitions.
use std::cmp::Ordering;
use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::{Change, ChangeKind};
use crate::pointer::{child, push_index};
use crate::schema::RULES_KEY;

/// Every change from `old` to `new`, in schema order.
pub(super) fn changes(old: &Value, new: &Value) -> Vec<Change> {
    let mut cmp = Comparison {
        old_root: old,
        new_root: new,
        pairs: BTreeSet::from([(String::new(), String::new())]),
        changes: Vec::new(),
    };
    cmp.node(old, new, "", "");
    cmp.changes
}

/// One comparison of two schemas: both roots (to follow `$ref`s), the
/// definition pairs already compared, and the changes found.
struct Comparison<'v> {
    old_root: &'v Value,
    new_root: &'v Value,
    /// Definition pairs already compared (old pointer, new pointer).
    pairs: BTreeSet<(String, String)>,
    changes: Vec<Change>,
}

/// A schema with its nullability taken apart.
struct Norm<'v> {
    nullable: bool,
    /// The schema without the `null` branch.
    core: &'v Value,
    /// `core`'s keywords.
    map: &'v Map<String, Value>,
    /// Where `core` is, relative to the schema (`/anyOf/0`, or empty).
    core_at: String,
    /// Non-null JSON types.
    types: BTreeSet<String>,
    /// Allowed non-null values (`enum`, or `const`), if restricted.
    values: Option<Vec<Value>>,
}

static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

fn norm(schema: &Value) -> Norm<'_> {
    let map = match schema {
        Value::Object(map) => map,
        _ => &EMPTY,
    };
    // `anyOf: [X, {"type": "null"}]`
    if let Some(Value::Array(branches)) = map.get("anyOf")
        && let [a, b] = branches.as_slice()
        && (is_null_schema(a) || is_null_schema(b))
    {
        let (i, core) = if is_null_schema(a) { (1, b) } else { (0, a) };
        let inner = norm(core);
        let mut core_at = String::from("/anyOf");
        push_index(&mut core_at, i);
        core_at.push_str(&inner.core_at);
        return Norm {
            nullable: true,
            core_at,
            ..inner
        };
    }
    let mut types = BTreeSet::new();
    match map.get("type") {
        Some(Value::String(t)) => {
            types.insert(t.clone());
        }
        Some(Value::Array(list)) => {
            types.extend(list.iter().filter_map(Value::as_str).map(str::to_owned));
        }
        _ => {}
    }
    let mut nullable = types.remove("null");
    let mut values = match (map.get("enum"), map.get("const")) {
        (Some(Value::Array(values)), _) => Some(values.clone()),
        (_, Some(c)) => Some(vec![c.clone()]),
        _ => None,
    };
    if let Some(values) = &mut values {
        nullable |= values.iter().any(Value::is_null);
        values.retain(|v| !v.is_null());
    }
    Norm {
        nullable,
        core: schema,
        map,
        core_at: String::new(),
        types,
        values,
    }
}

fn is_null_schema(v: &Value) -> bool {
    v.get("type") == Some(&Value::String("null".into()))
        && v.as_object().is_some_and(|m| m.len() == 1)
}

/// Lower bounds: a larger value is stricter.
const LOWER: &[&str] = &[
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
];
/// Upper bounds: a smaller value is stricter.
const UPPER: &[&str] = &[
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
];
/// A numeric bound, compared exactly: integers as integers (the 64-bit
/// ranges differ from their neighbours only past 2^53, where an `f64`
/// cannot tell them apart), anything else as an `f64`.
#[derive(Debug, Clone, Copy)]
enum Bound {
    Integer(i128),
    Float(f64),
}

impl Bound {
    fn of(value: &Value) -> Option<Bound> {
        match (value.as_i64(), value.as_u64()) {
            (Some(i), _) => Some(Bound::Integer(i128::from(i))),
            (None, Some(u)) => Some(Bound::Integer(i128::from(u))),
            (None, None) => value.as_f64().map(Bound::Float),
        }
    }

    fn compare(self, other: Bound) -> Option<Ordering> {
        match (self, other) {
            (Bound::Integer(a), Bound::Integer(b)) => Some(a.cmp(&b)),
            _ => self.as_f64().partial_cmp(&other.as_f64()),
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            Bound::Integer(i) => i as f64,
            Bound::Float(f) => f,
        }
    }
}

/// Constraints that are only the same or different.
const OTHER: &[&str] = &["pattern", "format", "multipleOf"];

impl<'v> Comparison<'v> {
    fn push(
        &mut self,
        pointer: String,
        kind: ChangeKind,
        detail: String,
        backward: bool,
        forward: bool,
    ) {
        self.changes.push(Change {
            pointer,
            kind,
            detail,
            breaks_backward: backward,
            breaks_forward: forward,
        });
    }

    /// A change that makes the accepted set smaller (`stricter`) or larger.
    fn narrowing(&mut self, pointer: String, kind: ChangeKind, detail: String, stricter: bool) {
        self.push(pointer, kind, detail, stricter, !stricter);
    }

    fn node(&mut self, old: &'v Value, new: &'v Value, old_ptr: &str, new_ptr: &str) {
        let o = norm(old);
        let n = norm(new);
        if o.nullable != n.nullable {
            let detail = if n.nullable {
                "now accepts null"
            } else {
                "no longer accepts null"
            };
            // Accepting null is looser.
            self.narrowing(
                new_ptr.to_owned(),
                ChangeKind::NullabilityChanged,
                detail.into(),
                !n.nullable,
            );
        }
        let old_at = format!("{old_ptr}{}", o.core_at);
        let new_at = format!("{new_ptr}{}", n.core_at);
        let old_ref = o.map.get("$ref").and_then(Value::as_str);
        let new_ref = n.map.get("$ref").and_then(Value::as_str);
        if old_ref.is_none() && new_ref.is_none() {
            self.core(&o, &n, &old_at, &new_at);
            return;
        }
        // Follow references: compare what they lead to, each pair once.
        let (old_target, old_at) = ref_target(self.old_root, old_ref, o.core, old_at);
        let (new_target, new_at) = ref_target(self.new_root, new_ref, n.core, new_at);
        if self.pairs.insert((old_at.clone(), new_at.clone())) {
            self.node(old_target, new_target, &old_at, &new_at);
        }
    }

    fn core(&mut self, o: &Norm<'v>, n: &Norm<'v>, old_at: &str, new_at: &str) {
        // Types.
        if o.types != n.types && !o.types.is_empty() && !n.types.is_empty() {
            let widened = o.types.iter().all(|t| accepts(&n.types, t));
            let narrowed = n.types.iter().all(|t| accepts(&o.types, t));
            let detail = format!("{} → {}", join(&o.types), join(&n.types));
            let (backward, forward) = match (widened, narrowed) {
                (true, false) => (false, true),
                (false, true) => (true, false),
                _ => (true, true),
            };
            self.push(
                child(new_at, "type"),
                ChangeKind::TypeChanged,
                detail,
                backward,
                forward,
            );
            if !widened && !narrowed {
                return;
            }
        }
        self.values(o, n, new_at);
        self.bounds(o.map, n.map, new_at);
        self.object(o.map, n.map, old_at, new_at);
        if let (Some(oi), Some(ni)) = (o.map.get("items"), n.map.get("items")) {
            self.node(oi, ni, &child(old_at, "items"), &child(new_at, "items"));
        }
        self.rules(o.map, n.map, old_at, new_at);
    }

    fn values(&mut self, o: &Norm<'v>, n: &Norm<'v>, new_at: &str) {
        let keyword = |n: &Norm<'_>| {
            if n.map.contains_key("enum") {
                "enum"
            } else {
                "const"
            }
        };
        match (&o.values, &n.values) {
            (Some(old), Some(new)) => {
                let at = child(new_at, keyword(n));
                for v in old.iter().filter(|v| !new.contains(v)) {
                    self.narrowing(
                        at.clone(),
                        ChangeKind::EnumValueRemoved,
                        v.to_string(),
                        true,
                    );
                }
                for v in new.iter().filter(|v| !old.contains(v)) {
                    self.narrowing(at.clone(), ChangeKind::EnumValueAdded, v.to_string(), false);
                }
            }
            (None, Some(new)) => {
                let detail = format!("{} added: {}", keyword(n), Value::Array(new.clone()));
                self.narrowing(
                    child(new_at, keyword(n)),
                    ChangeKind::BoundTightened,
                    detail,
                    true,
                );
            }
            (Some(old), None) => {
                let detail = format!("{} removed: {}", keyword(o), Value::Array(old.clone()));
                self.narrowing(new_at.to_owned(), ChangeKind::BoundLoosened, detail, false);
            }
            (None, None) => {}
        }
    }

    fn bounds(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, new_at: &str) {
        for (keywords, lower) in [(LOWER, true), (UPPER, false)] {
            for &kw in keywords {
                let (ov, nv) = (o.get(kw).and_then(Bound::of), n.get(kw).and_then(Bound::of));
                let at = child(new_at, kw);
                let show =
                    |v: Option<&Value>| v.map_or_else(|| "none".to_owned(), Value::to_string);
                let detail = format!("{kw} {} → {}", show(o.get(kw)), show(n.get(kw)));
                match (ov, nv) {
                    (None, Some(_)) => self.narrowing(at, ChangeKind::BoundTightened, detail, true),
                    (Some(_), None) => {
                        self.narrowing(new_at.to_owned(), ChangeKind::BoundLoosened, detail, false);
                    }
                    (Some(a), Some(b)) if a.compare(b) != Some(Ordering::Equal) => {
                        let larger = b.compare(a) == Some(Ordering::Greater);
                        let stricter = if lower { larger } else { !larger };
                        let kind = if stricter {
                            ChangeKind::BoundTightened
                        } else {
                            ChangeKind::BoundLoosened
                        };
                        self.narrowing(at, kind, detail, stricter);
                    }
                    _ => {}
                }
            }
        }
        for &kw in OTHER {
            let at = child(new_at, kw);
            match (o.get(kw), n.get(kw)) {
                (None, Some(v)) => {
                    self.narrowing(
                        at,
                        ChangeKind::BoundTightened,
                        format!("{kw} {v} added"),
                        true,
                    );
                }
                (Some(v), None) => self.narrowing(
                    new_at.to_owned(),
                    ChangeKind::BoundLoosened,
                    format!("{kw} {v} removed"),
                    false,
                ),
                (Some(a), Some(b)) if a != b => {
                    self.push(
                        at,
                        ChangeKind::ConstraintChanged,
                        format!("{kw} {a} → {b}"),
                        true,
                        true,
                    );
                }
                _ => {}
            }
        }
    }

    fn object(
        &mut self,
        o: &'v Map<String, Value>,
        n: &'v Map<String, Value>,
        old_at: &str,
        new_at: &str,
    ) {
        let props = |m: &'v Map<String, Value>| match m.get("properties") {
            Some(Value::Object(p)) => p,
            _ => &*EMPTY,
        };
        // A struct that became a map (or the reverse) is one change: its
        // properties are not compared one by one.
        match (o.get("additionalProperties"), n.get("additionalProperties")) {
            (Some(a @ Value::Object(_)), Some(b @ Value::Object(_))) => self.node(
                a,
                b,
                &child(old_at, "additionalProperties"),
                &child(new_at, "additionalProperties"),
            ),
            (Some(Value::Object(_)), Some(Value::Bool(false))) => {
                let detail = "a map became a struct".into();
                let at = child(new_at, "additionalProperties");
                return self.push(at, ChangeKind::TypeChanged, detail, true, true);
            }
            (Some(Value::Bool(false)), Some(Value::Object(_))) => {
                let detail = "a struct became a map".into();
                let at = child(new_at, "additionalProperties");
                return self.push(at, ChangeKind::TypeChanged, detail, true, true);
            }
            _ => {}
        }
        let (op, np) = (props(o), props(n));
        let closed =
            |m: &Map<String, Value>| m.get("additionalProperties") == Some(&Value::Bool(false));
        let (o_closed, n_closed) = (closed(o), closed(n));
        let required = |m: &Map<String, Value>, k: &str| matches!(m.get("required"), Some(Value::Array(r)) if r.iter().any(|x| x == k));
        for (name, sub) in op {
            let o_ptr = child(&child(old_at, "properties"), name);
            match np.get(name) {
                None => self.push(
                    o_ptr,
                    ChangeKind::FieldRemoved,
                    format!("`{name}` removed"),
                    n_closed,
                    required(o, name),
                ),
                Some(nsub) => {
                    let n_ptr = child(&child(new_at, "properties"), name);
                    match (required(o, name), required(n, name)) {
                        (false, true) => self.narrowing(
                            n_ptr.clone(),
                            ChangeKind::RequiredChanged,
                            format!("`{name}` is now required"),
                            true,
                        ),
                        (true, false) => self.narrowing(
                            n_ptr.clone(),
                            ChangeKind::RequiredChanged,
                            format!("`{name}` may now be absent"),
                            false,
                        ),
                        _ => {}
                    }
                    self.node(sub, nsub, &o_ptr, &n_ptr);
                }
            }
        }
        for name in np.keys().filter(|k| !op.contains_key(*k)) {
            self.push(
                child(&child(new_at, "properties"), name),
                ChangeKind::FieldAdded,
                format!("`{name}` added"),
                required(n, name),
                o_closed,
            );
        }
    }

    fn rules(
        &mut self,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        old_at: &str,
        new_at: &str,
    ) {
        for key in ["allOf", RULES_KEY] {
            let (old, new) = (list_of(o, key), list_of(n, key));
            for (i, rule) in old.iter().enumerate() {
                if !new.contains(rule) {
                    let loosens = !lenient(rule);
                    self.push(
                        child(&child(old_at, key), &i.to_string()),
                        ChangeKind::RuleRemoved,
                        describe_rule(rule),
                        false,
                        loosens,
                    );
                }
            }
            for (i, rule) in new.iter().enumerate() {
                if !old.contains(rule) {
                    let tightens = !lenient(rule);
                    self.push(
                        child(&child(new_at, key), &i.to_string()),
                        ChangeKind::RuleAdded,
                        describe_rule(rule),
                        tightens,
                        false,
                    );
                }
            }
        }
    }
}

fn list_of<'v>(m: &'v Map<String, Value>, key: &str) -> &'v [Value] {
    match m.get(key) {
        Some(Value::Array(items)) => items,
        _ => &[],
    }
}

/// `quarantine` makes the decoder more lenient, never stricter: adding or
/// removing it breaks no reader of schema-valid documents.
fn lenient(rule: &Value) -> bool {
    rule.get("rule").and_then(Value::as_str) == Some("quarantine")
}

/// A `when` rule or an extension rule, in words.
fn describe_rule(rule: &Value) -> String {
    if let Some(d) = rule.get("description").and_then(Value::as_str) {
        let name = rule.get("rule").and_then(Value::as_str).unwrap_or("rule");
        return format!("{name}: {d}");
    }
    let cond = rule
        .pointer("/if/properties")
        .and_then(Value::as_object)
        .and_then(|props| props.iter().next())
        .map(|(field, s)| {
            let value = s
                .get("const")
                .or_else(|| s.get("enum"))
                .cloned()
                .unwrap_or(Value::Null);
            format!("when {field} = {value}")
        })
        .unwrap_or_else(|| "when ..".to_owned());
    let mut require = Vec::new();
    let mut forbid = Vec::new();
    if let Some(props) = rule.pointer("/then/properties").and_then(Value::as_object) {
        for (field, s) in props {
            if s.get("not").is_some() {
                require.push(field.as_str());
            } else {
                forbid.push(field.as_str());
            }
        }
    }
    let mut out = cond;
    if !require.is_empty() {
        out.push_str(&format!(": require {}", require.join(", ")));
    }
    if !forbid.is_empty() {
        out.push_str(&format!(
            "{} forbid {}",
            if require.is_empty() { ":" } else { ";" },
            forbid.join(", ")
        ));
    }
    out
}

/// Whether a value of type `t` is accepted by `types` (`integer` is a `number`).
fn accepts(types: &BTreeSet<String>, t: &str) -> bool {
    types.contains(t) || (t == "integer" && types.contains("number"))
}

fn join(types: &BTreeSet<String>) -> String {
    types
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join("|")
}

/// What a `$ref` leads to (or the schema itself, when it is not a
/// reference), and its pointer.
fn ref_target<'v>(
    root: &'v Value,
    reference: Option<&str>,
    itself: &'v Value,
    at: String,
) -> (&'v Value, String) {
    match reference.and_then(|r| r.strip_prefix('#')) {
        Some(pointer) => (
            root.pointer(pointer).unwrap_or(&Value::Null),
            pointer.to_owned(),
        ),
        None => (itself, at),
    }
}
