//! Documents generated around a contract's schema: valid ones and near
//! misses with exactly one defect (the schema agreement test and the
//! streaming test share them).
use serde_json::{Value, json};

use contract_runtime::Rejection;
/// Nesting past which generated values close a recursive schema.
const DEEP: usize = 8;

// ------------------------------------------------------------------ documents

/// A document as written: keys may repeat or be escaped, numbers keep
/// their spelling.
#[derive(Clone, Debug)]
pub enum Doc {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Doc>),
    Obj(Vec<(String, bool, Doc)>),
}

impl Doc {
    fn write(&self, out: &mut String) {
        match self {
            Doc::Null => out.push_str("null"),
            Doc::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Doc::Num(n) => out.push_str(n),
            Doc::Str(s) => out.push_str(&serde_json::to_string(s).unwrap()),
            Doc::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Doc::Obj(members) => {
                out.push('{');
                for (i, (key, escaped, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    if *escaped && let Some(first) = key.chars().next() {
                        // `"\u0073tatus"` is the key `status`.
                        let rest = serde_json::to_string(&key[first.len_utf8()..]).unwrap();
                        out.push_str(&format!("\"\\u{:04x}{}", first as u32, &rest[1..]));
                    } else {
                        out.push_str(&serde_json::to_string(key).unwrap());
                    }
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }

    pub fn text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    pub fn has_duplicate_key(&self) -> bool {
        match self {
            Doc::Arr(items) => items.iter().any(Doc::has_duplicate_key),
            Doc::Obj(members) => {
                let mut seen = std::collections::BTreeSet::new();
                members.iter().any(|(k, _, _)| !seen.insert(k))
                    || members.iter().any(|(_, _, v)| v.has_duplicate_key())
            }
            _ => false,
        }
    }
}

// ------------------------------------------------------------------ generator

const DATES: &[&str] = &[
    "2027-06-01",
    "2027-06-12",
    "2024-02-29",
    "2000-01-01",
    "0000-01-01",
    "9999-12-31",
    "2027-12-31",
];
const BAD_DATES: &[&str] = &[
    "2027-02-30",
    "2027-6-1",
    "2027-13-01",
    "20270601",
    "2027-06-01T00:00:00Z",
    "2027-06-01 ",
    "2023-02-29",
];
const DATE_TIMES: &[&str] = &[
    "2027-06-01T09:30:00Z",
    "2027-06-01T09:30:00.5+02:00",
    "2024-02-29T23:59:59.123456789-05:30",
    "0000-01-01T00:00:00+00:00",
    "9999-12-31T23:59:59Z",
];
const BAD_DATE_TIMES: &[&str] = &[
    "2027-06-01T09:30:00",
    "2027-06-01 09:30:00Z",
    "2027-02-29T09:30:00Z",
    "2027-06-01T24:00:00Z",
    "2027-06-01T09:60:00Z",
    "2027-06-01",
    "2027-06-01T09:30:00+24:00",
];
const EMAILS: &[&str] = &[
    "ana@example.com",
    "first.last+tag@sub.example.org",
    "x_y@example.co",
];
const BAD_EMAILS: &[&str] = &[
    "ana",
    "ana@",
    "@example.com",
    "a b@example.com",
    "ana@@example.com",
];
const UUIDS: &[&str] = &[
    "123e4567-e89b-12d3-a456-426614174000",
    "123E4567-E89B-12D3-A456-426614174000",
    "00000000-0000-0000-0000-000000000000",
];
const BAD_UUIDS: &[&str] = &[
    "123e4567e89b12d3a456426614174000",
    "123e4567-e89b-12d3-a456-42661417400",
    "123e4567-e89b-12d3-a456-42661417400g",
    "{123e4567-e89b-12d3-a456-426614174000}",
];
/// Valid and invalid strings for each `pattern` of the test contracts.
const PATTERN_SAMPLES: &[(&str, &[&str], &[&str])] = &[(
    "^[A-Z]{2}-[0-9]{4}$",
    &["AB-1234", "ZZ-0000"],
    &["ab-1234", "AB-12345", "AB1234", "AB-\u{663}234"],
)];

/// The valid and the invalid samples for a string schema with a `format`
/// (other than `date`) or a `pattern`, if it has one.
fn samples(schema: &Value) -> Option<(&'static [&'static str], &'static [&'static str])> {
    match schema.get("format").and_then(Value::as_str) {
        Some("date-time") => return Some((DATE_TIMES, BAD_DATE_TIMES)),
        Some("email") => return Some((EMAILS, BAD_EMAILS)),
        Some("uuid") => return Some((UUIDS, BAD_UUIDS)),
        _ => {}
    }
    let pattern = schema.get("pattern").and_then(Value::as_str)?;
    PATTERN_SAMPLES
        .iter()
        .find(|(p, _, _)| *p == pattern)
        .map(|(_, good, bad)| (*good, *bad))
}

const ALPHABET: &[char] = &['a', 'b', ' ', 'é', '😀', '"', '\\', '\n', 'Z'];

/// Draws choices from a tape of numbers (proptest shrinks it towards zeros,
/// which means: first choices, valid values, no mutation).
struct Gen<'a> {
    tape: &'a [u32],
    /// Where in the tape reading starts (it wraps around).
    offset: usize,
    pos: usize,
    root: &'a Value,
    /// Schema nodes visited so far.
    count: usize,
    /// Values being generated around this one: past `DEEP`, a recursive
    /// schema is closed (empty arrays, nulls, optional members left out).
    depth: usize,
    /// The node to mutate (0: none).
    target: usize,
    /// What the mutation was, for the failure message.
    mutation: Option<String>,
}

pub fn resolve<'v>(root: &'v Value, schema: &'v Value) -> &'v Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => root
            .pointer(r.trim_start_matches('#'))
            .unwrap_or(&Value::Null),
        None => schema,
    }
}

/// Whether an object schema can be written without going deeper: no
/// required member is a plain reference or a non-empty array of them.
fn closes(schema: &Value) -> bool {
    let required: Vec<&str> = match schema.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let Some(Value::Object(props)) = schema.get("properties") else {
        return true;
    };
    props
        .iter()
        .filter(|(name, _)| required.contains(&name.as_str()))
        .all(|(_, sub)| {
            let reference = sub.get("$ref").is_some();
            let non_empty_refs = sub.get("minItems").and_then(Value::as_u64).unwrap_or(0) > 0
                && sub.get("items").is_some_and(|i| i.get("$ref").is_some());
            !reference && !non_empty_refs
        })
}

pub fn types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

impl Gen<'_> {
    fn pick(&mut self, n: usize) -> usize {
        let v = match self.tape.len() {
            0 => 0,
            len => self.tape[(self.offset + self.pos) % len],
        };
        self.pos += 1;
        v as usize % n.max(1)
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.pick(n) == n - 1
    }

    fn value(&mut self, schema: &Value) -> Doc {
        self.count += 1;
        if self.count == self.target
            && let Some(doc) = self.mutate(schema)
        {
            return doc;
        }
        self.depth += 1;
        let doc = self.valid(schema);
        self.depth -= 1;
        doc
    }

    fn deep(&self) -> bool {
        self.depth > DEEP
    }

    fn valid(&mut self, schema: &Value) -> Doc {
        let schema = resolve(self.root, schema);
        // A tagged union: one variant.
        if let Some(Value::Array(branches)) = schema.get("oneOf") {
            // Deep in a recursive union, a variant that closes it.
            let i = if self.deep() {
                (0..branches.len())
                    .find(|&i| closes(&branches[i]))
                    .unwrap_or(0)
            } else {
                self.pick(branches.len())
            };
            return self.valid(&branches[i]);
        }
        if let Some(Value::Array(branches)) = schema.get("anyOf") {
            let non_null: Vec<&Value> = branches
                .iter()
                .filter(|b| b.get("type") != Some(&json!("null")))
                .collect();
            if non_null.len() < branches.len() && (self.deep() || self.one_in(3)) {
                return Doc::Null;
            }
            let i = self.pick(non_null.len());
            return self.valid(non_null[i]);
        }
        let ts = types(schema);
        if ts.contains(&"null") && (self.deep() || self.one_in(3)) {
            return Doc::Null;
        }
        if let Some(c) = schema.get("const") {
            return from_value(c);
        }
        if let Some(Value::Array(values)) = schema.get("enum") {
            let values: Vec<&Value> = values.iter().filter(|v| !v.is_null()).collect();
            let i = self.pick(values.len());
            return from_value(values[i]);
        }
        match ts.iter().find(|t| **t != "null").copied().unwrap_or("null") {
            "boolean" => Doc::Bool(self.pick(2) == 1),
            "integer" => Doc::Num(self.integer(schema).to_string()),
            "number" => Doc::Num(self.number(schema)),
            "string" => Doc::Str(self.string(schema)),
            "array" => {
                let (min, max) = self.item_range(schema);
                let len = if self.deep() {
                    min
                } else {
                    min + self.pick(max - min + 1)
                };
                let items = schema.get("items").cloned().unwrap_or(json!({}));
                Doc::Arr((0..len).map(|_| self.value(&items)).collect())
            }
            "object" => self.object(schema),
            _ => Doc::Null,
        }
    }

    fn integer(&mut self, schema: &Value) -> i128 {
        let lo = bound(schema, "minimum").unwrap_or(-1000);
        let hi = bound(schema, "maximum").unwrap_or(lo.max(0) + 1000);
        match self.pick(6) {
            0 => lo,
            1 => hi,
            2 => (lo + hi) / 2,
            // Near the bounds, where 64-bit ranges are easy to get wrong.
            3 => hi - self.pick(3) as i128,
            4 => lo + self.pick(3) as i128,
            _ => lo + self.pick((hi - lo).min(1_000_000) as usize + 1) as i128,
        }
    }

    fn number(&mut self, schema: &Value) -> String {
        let min = schema.get("minimum").and_then(Value::as_f64);
        let max = schema.get("maximum").and_then(Value::as_f64);
        let lo = min.unwrap_or(-1e6);
        let hi = max.unwrap_or(1e6);
        let v = match self.pick(7) {
            0 => lo,
            1 => hi,
            2 => (lo + hi) / 2.0,
            3 => lo + (hi - lo) * 0.3,
            // An integer literal is a valid float.
            4 => return format!("{}", ((lo + hi) / 2.0).round().clamp(lo.ceil(), hi.floor())),
            5 if min.is_none() => return "-0.0".into(),
            6 if max.is_none() && min.is_none() => return "2.5e3".into(),
            _ => hi - (hi - lo) * 0.25,
        };
        format!("{v:?}")
    }

    fn string(&mut self, schema: &Value) -> String {
        if schema.get("format") == Some(&json!("date")) {
            let i = self.pick(DATES.len());
            return DATES[i].to_owned();
        }
        if let Some((good, _)) = samples(schema) {
            return good[self.pick(good.len())].to_owned();
        }
        let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = schema
            .get("maxLength")
            .and_then(Value::as_u64)
            .map_or(min + 12, |m| m as usize);
        let len = match self.pick(3) {
            0 => min,
            1 => max,
            _ => min + self.pick(max - min + 1),
        };
        self.chars(len)
    }

    fn chars(&mut self, len: usize) -> String {
        (0..len)
            .map(|_| ALPHABET[self.pick(ALPHABET.len())])
            .collect()
    }

    fn item_range(&self, schema: &Value) -> (usize, usize) {
        let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = schema
            .get("maxItems")
            .and_then(Value::as_u64)
            .map_or(min + 3, |m| m as usize);
        (min, max)
    }

    fn object(&mut self, schema: &Value) -> Doc {
        let mut members = Vec::new();
        if let Some(Value::Object(props)) = schema.get("properties") {
            let required: Vec<&str> = match schema.get("required") {
                Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            for (name, sub) in props {
                if required.contains(&name.as_str()) || (!self.deep() && self.pick(3) != 0) {
                    let escaped = self.one_in(10);
                    members.push((name.clone(), escaped, self.value(sub)));
                }
            }
        } else if let Some(sub @ Value::Object(_)) = schema.get("additionalProperties") {
            let n = self.pick(4);
            for key in ["a", "b", "é", "a b"].into_iter().take(n) {
                members.push((key.to_owned(), false, self.value(sub)));
            }
        }
        Doc::Obj(members)
    }

    /// A near miss for the value `schema` describes, or `None` to leave it valid.
    fn mutate(&mut self, schema: &Value) -> Option<Doc> {
        let schema = resolve(self.root, schema);
        let kind = self.pick(4);
        let (name, doc) = match kind {
            0 => ("null".to_owned(), Doc::Null),
            1 => {
                let options = [
                    Doc::Str("7".into()),
                    Doc::Num("7".into()),
                    Doc::Bool(true),
                    Doc::Arr(vec![]),
                    Doc::Obj(vec![]),
                ];
                let i = self.pick(options.len());
                (
                    format!("retyped as {}", options[i].text()),
                    options[i].clone(),
                )
            }
            _ => self.out_of_range(schema)?,
        };
        self.mutation = Some(name);
        Some(doc)
    }

    fn out_of_range(&mut self, schema: &Value) -> Option<(String, Doc)> {
        // A tagged union: a near miss of one variant.
        if let Some(Value::Array(branches)) = schema.get("oneOf") {
            let i = self.pick(branches.len());
            return self.out_of_range(resolve(self.root, &branches[i]));
        }
        // Through a nullable `anyOf`: mutate the non-null branch.
        if let Some(Value::Array(branches)) = schema.get("anyOf") {
            let branch = branches
                .iter()
                .find(|b| b.get("type") != Some(&json!("null")))?;
            return self.out_of_range(resolve(self.root, branch));
        }
        let ts = types(schema);
        let t = ts.iter().find(|t| **t != "null").copied()?;
        if let Some(Value::Array(values)) = schema.get("enum")
            && values.iter().any(Value::is_string)
        {
            let options = ["Bug", "done", "", "complete "];
            let i = self.pick(options.len());
            return Some((
                format!("enum value {:?}", options[i]),
                Doc::Str(options[i].into()),
            ));
        }
        if let Some(Value::String(c)) = schema.get("const") {
            return Some((format!("not the const {c:?}"), Doc::Str(format!("{c}x"))));
        }
        let num = |s: String| Some((format!("number {s}"), Doc::Num(s)));
        match t {
            "integer" => {
                let min = bound(schema, "minimum");
                let max = bound(schema, "maximum");
                match self.pick(6) {
                    0 if max.is_some() => num(format!("{}", max? + 1)),
                    1 if min.is_some() => num(format!("{}", min? - 1)),
                    2 => {
                        let v = self.integer(schema);
                        let forms = [format!("{v}.0"), format!("{v}e0"), format!("{v}E0")];
                        let i = self.pick(forms.len());
                        num(forms[i].clone())
                    }
                    3 => num("0.5".into()),
                    4 => {
                        let big = [
                            "18446744073709551616",
                            "-9223372036854775809",
                            "9223372036854775808",
                            "100000000000000000000000000000",
                        ];
                        let i = self.pick(big.len());
                        num(big[i].into())
                    }
                    _ => num("-1".into()),
                }
            }
            "number" => {
                let min = schema.get("minimum").and_then(Value::as_f64);
                let max = schema.get("maximum").and_then(Value::as_f64);
                match self.pick(5) {
                    0 if max.is_some() => num(format!("{:?}", max? + 0.5)),
                    1 if min.is_some() => num(format!("{:?}", min? - 0.5)),
                    // Just past a bound: an f32 field must not round back in.
                    2 if max.is_some() => num(just_past(max?, 1.0)),
                    3 if min.is_some() => num(just_past(min?, -1.0)),
                    _ => {
                        let big = ["1e39", "-1e39", "3.5e38", "1.7976931348623157e308"];
                        let i = self.pick(big.len());
                        num(big[i].into())
                    }
                }
            }
            "string" if schema.get("format") == Some(&json!("date")) => {
                let i = self.pick(BAD_DATES.len());
                Some((
                    format!("date {:?}", BAD_DATES[i]),
                    Doc::Str(BAD_DATES[i].into()),
                ))
            }
            "string" if samples(schema).is_some() => {
                let (_, bad) = samples(schema)?;
                let i = self.pick(bad.len());
                Some((format!("string {:?}", bad[i]), Doc::Str(bad[i].into())))
            }
            "string" => {
                let min = schema.get("minLength").and_then(Value::as_u64);
                let max = schema.get("maxLength").and_then(Value::as_u64);
                match (self.pick(2), min, max) {
                    (0, Some(m), _) if m > 0 => Some((
                        format!("{} characters", m - 1),
                        Doc::Str(self.chars(m as usize - 1)),
                    )),
                    (_, _, Some(m)) => Some((
                        format!("{} characters", m + 1),
                        Doc::Str(self.chars(m as usize + 1)),
                    )),
                    _ => None,
                }
            }
            "array" => {
                let (min, max) = self.item_range(schema);
                let items = schema.get("items").cloned().unwrap_or(json!({}));
                let len = if self.pick(2) == 0 && min > 0 {
                    min - 1
                } else if schema.get("maxItems").is_some() {
                    max + 1
                } else {
                    return None;
                };
                Some((
                    format!("{len} items"),
                    Doc::Arr((0..len).map(|_| self.valid(&items)).collect()),
                ))
            }
            "object" => {
                let Doc::Obj(mut members) = self.object(schema) else {
                    return None;
                };
                let what = match self.pick(3) {
                    0 if !members.is_empty() => {
                        let i = self.pick(members.len());
                        let (key, _, _) = members.remove(i);
                        format!("key {key:?} dropped")
                    }
                    1 if !members.is_empty() => {
                        let i = self.pick(members.len());
                        let dup = members[i].clone();
                        members.push(dup);
                        format!("key {:?} duplicated", members[i].0)
                    }
                    _ => {
                        members.push(("zz_extra".into(), false, Doc::Num("1".into())));
                        "key \"zz_extra\" added".into()
                    }
                };
                Some((what, Doc::Obj(members)))
            }
            _ => None,
        }
    }
}

/// A number just beyond `bound` in `direction` (+1 above, -1 below): within
/// f32 rounding of it, outside it for an f64.
fn just_past(bound: f64, direction: f64) -> String {
    if bound == 0.0 {
        format!("{:?}", direction * 1e-50)
    } else {
        format!("{:?}", bound + direction * bound.abs() * 1e-9)
    }
}

pub fn from_value(v: &Value) -> Doc {
    match v {
        Value::Null => Doc::Null,
        Value::Bool(b) => Doc::Bool(*b),
        Value::Number(n) => Doc::Num(n.to_string()),
        Value::String(s) => Doc::Str(s.clone()),
        Value::Array(items) => Doc::Arr(items.iter().map(from_value).collect()),
        Value::Object(map) => Doc::Obj(
            map.iter()
                .map(|(k, v)| (k.clone(), false, from_value(v)))
                .collect(),
        ),
    }
}

/// One document from the tape. Without a mutation (about 45%): a valid
/// generation, whose `when`/`order` rules may or may not hold. With one:
/// a base the decoder accepts is looked for (the tape read from a few
/// rotations), its schema nodes counted, and the same choices replayed
/// with one node mutated — so the mutation is the document's only defect.
pub fn generate(
    root: &Value,
    tape: &[u32],
    decide: fn(&str) -> Result<(), Rejection>,
) -> (Doc, Option<String>) {
    let (head, rest) = tape.split_first().map_or((0, tape), |(h, r)| (*h, r));
    let gen_at = |offset: usize, target: usize| Gen {
        tape: rest,
        offset,
        pos: 0,
        root,
        count: 0,
        depth: 0,
        target,
        mutation: None,
    };
    if head % 20 < 9 {
        return (gen_at(0, 0).value(root), None);
    }
    let mut offset = 0;
    let mut count = 1;
    for attempt in 0..12 {
        let mut probe = gen_at(attempt * 37, 0);
        let base = probe.value(root);
        (offset, count) = (attempt * 37, probe.count);
        if decide(&base.text()).is_ok() {
            break;
        }
    }
    let target = 1 + (head as usize / 20) % count.max(1);
    let mut g = gen_at(offset, target);
    let doc = g.value(root);
    (doc, g.mutation)
}

/// An integer `minimum`/`maximum` of a schema node.
pub fn bound(node: &Value, keyword: &str) -> Option<i128> {
    let n = node.get(keyword)?;
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}
