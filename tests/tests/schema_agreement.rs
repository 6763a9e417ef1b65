//! The schema and the decoder agree: for documents generated around each
//! test contract — valid ones and near misses — `T::from_json(text).is_ok()`
//! equals `jsonschema` validity of `T::json_schema()`, with format
//! assertion on.
//!
//! Where they may disagree, the disagreement has a name in [`EXCEPTIONS`],
//! and a document counts under that name only if *every* reason for the
//! disagreement is of that kind (checked from the Rust error codes and the
//! schema node at each error's pointer, or from `jsonschema`'s error
//! locations). Any other disagreement fails the test with the document.
//!
//! Not exercised because neither side checks it here: `evidence` and
//! `check` (business stage, `check_with` only; `from_json` and the schema
//! both ignore them). Calendar validity (`2027-02-30`) is *not* an exception:
//! `jsonschema` asserts `format: "date"` when asked to, and this test asks.
mod schema_support;

use std::cell::RefCell;
use std::collections::BTreeMap;

use contract_runtime::Rejection;
use contract_runtime::schema::{Provider, RULES_KEY, export_schema};
use jsonschema::Validator;
use jsonschema::error::ValidationErrorKind;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use schema_support::{Case, VacationRequest, cases};
use serde_json::{Value, json};

/// Every way the decision may differ, and why. See also
/// `contract_runtime::schema::LOCAL_ONLY` and the `x-contract-rules` entries.
const EXCEPTIONS: &[(&str, &str)] = &[
    (
        "duplicate_keys",
        "strict_parse: Rust rejects a repeated key; serde_json::Value keeps the last one, so the schema has no verdict (n/a)",
    ),
    (
        "integer_syntax",
        "Rust refuses 7.0 / 7e0 for an integer field; JSON Schema counts them as integers",
    ),
    (
        "integer_precision",
        "Rust reads the digits: -9223372036854775809 is below i64::MIN; serde_json rounds it (an f64 beyond 64 bits) onto i64::MIN itself, which the schema's minimum admits",
    ),
    (
        "float32_range",
        "Rust refuses a number beyond f32::MAX for an f32 field; the schema says `number`",
    ),
    (
        "order",
        "x-contract-rules `order`: Rust rejects end < start; JSON Schema cannot compare two values",
    ),
    (
        "quarantine",
        "x-contract-rules `quarantine`: Rust accepts a value of the right type that fails its checks (the value becomes null, outcome review); the schema rejects it",
    ),
];

// ------------------------------------------------------------------ documents

/// A document as written: keys may repeat or be escaped, numbers keep
/// their spelling.
#[derive(Clone, Debug)]
enum Doc {
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

    fn text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn has_duplicate_key(&self) -> bool {
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

fn resolve<'v>(root: &'v Value, schema: &'v Value) -> &'v Value {
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

fn types(schema: &Value) -> Vec<&str> {
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

fn from_value(v: &Value) -> Doc {
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
fn generate(
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

// ------------------------------------------------------------------ verdicts

/// The schema node that describes the value at an instance pointer.
fn schema_at<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    let mut node = non_null(root, root);
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        // A tagged union: the first variant declaring the member.
        if let Some(Value::Array(variants)) = node.get("oneOf") {
            node = variants
                .iter()
                .find(|v| v.get("properties").and_then(|p| p.get(&segment)).is_some())?;
        }
        let next = if let Some(sub) = node.get("properties").and_then(|p| p.get(&segment)) {
            sub
        } else if let Some(items) = node.get("items") {
            items
        } else {
            node.get("additionalProperties")?
        };
        node = non_null(root, next);
    }
    Some(node)
}

fn non_null<'v>(root: &'v Value, schema: &'v Value) -> &'v Value {
    let schema = resolve(root, schema);
    match schema.get("anyOf") {
        Some(Value::Array(branches)) => branches
            .iter()
            .find(|b| b.get("type") != Some(&json!("null")))
            .map_or(schema, |b| resolve(root, b)),
        _ => schema,
    }
}

// A tagged union's rules are its variants'.
fn rules_of<'v>(schema: &'v Value, rule: &str) -> Vec<&'v str> {
    let variants = schema.get("oneOf").and_then(Value::as_array);
    std::iter::once(schema)
        .chain(variants.into_iter().flatten())
        .filter_map(|s| s.get(RULES_KEY).and_then(Value::as_array))
        .flatten()
        .filter(|r| r["rule"] == rule)
        .flat_map(|r| r["pointers"].as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect()
}

/// Which named exception explains a Rust rejection the schema does not
/// share, if every error is explained by the same one.
fn rust_only(
    schema: &Value,
    value: &Value,
    doc: &Doc,
    rejection: &Rejection,
) -> Result<&'static str, String> {
    let mut names = Vec::new();
    for e in &rejection.errors {
        let node = schema_at(schema, &e.pointer);
        let ty = node.map(types).unwrap_or_default();
        let number = value.pointer(&e.pointer).and_then(Value::as_f64);
        let name = match e.code {
            "duplicate_key" if doc.has_duplicate_key() => "duplicate_keys",
            "order" if rules_of(schema, "order").contains(&e.pointer.as_str()) => "order",
            "invalid_type"
                if ty.contains(&"integer") && number.is_some_and(|n| n.fract() == 0.0) =>
            {
                "integer_syntax"
            }
            "out_of_range"
                if ty.contains(&"integer")
                    && rounded_onto_a_bound(node, value.pointer(&e.pointer)) =>
            {
                "integer_precision"
            }
            "out_of_range"
                if ty.contains(&"number")
                    && number.is_some_and(|n| n.abs() > f64::from(f32::MAX)) =>
            {
                "float32_range"
            }
            _ => {
                return Err(format!(
                    "unexplained Rust error {} {} at {}: {}",
                    e.stage.as_str(),
                    e.code,
                    e.pointer,
                    e.message
                ));
            }
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    match names.as_slice() {
        [one] => Ok(one),
        _ => Err(format!("Rust errors of several kinds: {names:?}")),
    }
}

/// A number that serde_json holds as an f64 (an integer beyond 64 bits)
/// equal to one of the node's integer bounds: the digits were out of range,
/// the rounded value is the bound itself.
fn rounded_onto_a_bound(node: Option<&Value>, value: Option<&Value>) -> bool {
    let (Some(node), Some(Value::Number(n))) = (node, value) else {
        return false;
    };
    let Some(v) = n.as_f64().filter(|_| n.is_f64()) else {
        return false;
    };
    ["minimum", "maximum"]
        .into_iter()
        .filter_map(|keyword| bound(node, keyword))
        .any(|b| v.fract() == 0.0 && v as i128 == b)
}

/// An integer bound of a schema node (`u64` and `i64` alike).
fn bound(node: &Value, keyword: &str) -> Option<i128> {
    let n = node.get(keyword)?;
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// Whether a schema error says the document has the wrong shape (a wrong
/// type, a missing or unknown key), which `quarantine` never excuses. An
/// `anyOf` (a nullable nested contract) is structural when every branch
/// failed structurally.
fn structural(kind: &ValidationErrorKind) -> bool {
    match kind {
        ValidationErrorKind::Type { .. }
        | ValidationErrorKind::Required { .. }
        | ValidationErrorKind::AdditionalProperties { .. } => true,
        ValidationErrorKind::AnyOf { context } => context
            .iter()
            .all(|branch| branch.iter().any(|e| structural(e.kind()))),
        _ => false,
    }
}

/// Which named exception explains a schema rejection the decoder does not
/// share, if every schema error is explained by the same one.
fn schema_only(
    schema: &Value,
    validator: &Validator,
    value: &Value,
) -> Result<&'static str, String> {
    let quarantined = rules_of(schema, "quarantine");
    let mut names = Vec::new();
    for e in validator.iter_errors(value) {
        let at = e.instance_path().to_string();
        // Quarantine drops a value that fails its checks; a wrong type in a
        // quarantined field rejects on both sides, so it explains nothing.
        let name = if !structural(e.kind())
            && quarantined
                .iter()
                .any(|q| at == *q || at.starts_with(&format!("{q}/")))
        {
            "quarantine"
        } else {
            return Err(format!("unexplained schema error at {at}: {e}"));
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    match names.as_slice() {
        [one] => Ok(one),
        _ => Err(format!("schema errors of several kinds: {names:?}")),
    }
}

#[derive(Default, Debug)]
struct Tally {
    both_accept: usize,
    both_reject: usize,
    mutated: usize,
    exceptions: BTreeMap<&'static str, usize>,
}

/// The validators of the full schema and of each export the contract has.
struct Validators {
    full: Validator,
    /// Exports that require no key the contract lets be absent: each must
    /// accept every document the full schema accepts (an export only drops).
    exports: Vec<(Provider, Validator)>,
}

fn verdict(
    case: &Case,
    validators: &Validators,
    tally: &mut Tally,
    tape: &[u32],
) -> Result<(), String> {
    let validator = &validators.full;
    let (doc, mutation) = generate(&case.schema, tape, case.decide);
    let text = doc.text();
    let rust = (case.decide)(&text);
    let value: Value =
        serde_json::from_str(&text).map_err(|e| format!("serde_json: {e} in {text}"))?;
    let schema_ok = validator.is_valid(&value);
    tally.mutated += usize::from(mutation.is_some());
    if schema_ok {
        for (provider, export) in &validators.exports {
            if !export.is_valid(&value) {
                return Err(format!(
                    "{}: the {provider} export rejects a document the full schema accepts: {text}",
                    case.name
                ));
            }
        }
    }
    let explained = match (&rust, schema_ok) {
        (Ok(()), true) => {
            tally.both_accept += 1;
            return Ok(());
        }
        (Err(_), false) => {
            tally.both_reject += 1;
            return Ok(());
        }
        (Err(rejection), true) => rust_only(&case.schema, &value, &doc, rejection),
        (Ok(()), false) => schema_only(&case.schema, validator, &value),
    };
    match explained {
        Ok(name) => {
            *tally.exceptions.entry(name).or_default() += 1;
            Ok(())
        }
        Err(why) => Err(format!(
            "{}: Rust {} but the schema {}: {why}\nmutation: {mutation:?}\ndocument: {text}\nRust: {:?}",
            case.name,
            if rust.is_ok() { "accepts" } else { "rejects" },
            if schema_ok { "accepts" } else { "rejects" },
            rust.err().map(|r| r
                .errors
                .iter()
                .map(|e| format!("{} {} {}", e.pointer, e.code, e.message))
                .collect::<Vec<_>>())
        )),
    }
}

fn validator_for(schema: &Value) -> Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(schema)
        .unwrap()
}

fn agree(case: &Case, seed: u64, cases: u32) -> Tally {
    let validators = Validators {
        full: validator_for(&case.schema),
        exports: Provider::ALL
            .into_iter()
            .filter_map(|p| export_schema(&case.schema, p).ok())
            .filter(|e| e.made_required.is_empty())
            .map(|e| (e.provider, validator_for(&e.schema)))
            .collect(),
    };
    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    };
    let tally = RefCell::new(Tally::default());
    let mut runner = TestRunner::new(config);
    let result = runner.run(&proptest::collection::vec(any::<u32>(), 300), |tape| {
        verdict(case, &validators, &mut tally.borrow_mut(), &tape).map_err(TestCaseError::fail)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let tally = tally.into_inner();
    eprintln!("{:<18} {tally:?}", case.name);
    for name in tally.exceptions.keys() {
        assert!(
            EXCEPTIONS.iter().any(|(n, _)| n == name),
            "{name} is not a documented exception"
        );
    }
    tally
}

/// Documents per seed contract (and per recursive or generic contract); the
/// contract with every field type has ten times as many nodes, and gets more.
const CASES_PER_CONTRACT: u32 = 1500;
const CASES_FOR_EVERYTHING: u32 = 6000;

/// Nesting past which generated values close a recursive schema.
const DEEP: usize = 8;

#[test]
fn the_schema_and_the_decoder_agree() {
    let mut seen = BTreeMap::new();
    for (i, case) in cases().iter().enumerate() {
        let n = if matches!(case.name, "everything" | "step") {
            CASES_FOR_EVERYTHING
        } else {
            CASES_PER_CONTRACT
        };
        let tally = agree(case, 0x5eed_0000 + i as u64, n);
        // The generator reaches both verdicts, and mutates often.
        assert!(
            tally.both_accept > 50,
            "{}: too few valid documents: {tally:?}",
            case.name
        );
        assert!(
            tally.both_reject > 200,
            "{}: too few rejected documents: {tally:?}",
            case.name
        );
        assert!(
            tally.mutated > 300,
            "{}: too few mutations: {tally:?}",
            case.name
        );
        for (name, n) in tally.exceptions {
            *seen.entry(name).or_insert(0) += n;
        }
    }
    eprintln!("exceptions over all contracts: {seen:?}");
    // Each documented exception is real (it occurs), so none is stale.
    for (name, why) in EXCEPTIONS {
        assert!(
            seen.contains_key(name),
            "exception {name} ({why}) never occurred"
        );
    }
}

// ------------------------------------------------------------------ a tagged union, by hand

#[test]
fn the_union_schema_and_decoder_agree_on_every_variant_and_near_misses() {
    use contract_runtime::Contract;
    use schema_support::Step;
    let validator = validator_for(&Step::json_schema());
    let accepted = [
        r#"{"action":"close_ticket","ticket_id":7,"reason":"done"}"#,
        r#"{"reason":"done","ticket_id":7,"action":"close_ticket"}"#,
        r#"{"order_id":1,"action":"refund","refund_cents":5,"order_total_cents":9}"#,
        r#"{"action":"ask_customer","question":"which order?"}"#,
        r#"{"action":"no_action"}"#,
    ];
    let rejected = [
        // a wrong tag, a missing tag, a tag of the wrong type
        r#"{"action":"close","ticket_id":7,"reason":"done"}"#,
        r#"{"action":"Close_Ticket","ticket_id":7,"reason":"done"}"#,
        r#"{"ticket_id":7,"reason":"done"}"#,
        r#"{"action":null}"#,
        r#"{"action":["no_action"]}"#,
        // a member of a sibling variant
        r#"{"action":"ask_customer","question":"which?","ticket_id":7}"#,
        r#"{"action":"no_action","question":"which?"}"#,
        r#"{"action":"refund","order_id":1,"refund_cents":5,"order_total_cents":9,"reason":"r"}"#,
        // the right tag with another variant's members
        r#"{"action":"close_ticket","question":"which?"}"#,
        // a member's own check
        r#"{"action":"close_ticket","ticket_id":0,"reason":"done"}"#,
        r#"{"action":"ask_customer","question":""}"#,
        // not an object
        r#""no_action""#,
        "[]",
    ];
    for raw in accepted {
        let value: Value = serde_json::from_str(raw).unwrap();
        assert!(validator.is_valid(&value), "schema rejects {raw}");
        assert!(Step::from_json(raw).is_ok(), "decoder rejects {raw}");
    }
    for raw in rejected {
        let value: Value = serde_json::from_str(raw).unwrap();
        assert!(!validator.is_valid(&value), "schema accepts {raw}");
        assert!(Step::from_json(raw).is_err(), "decoder accepts {raw}");
    }
}

// ------------------------------------------------------------------ vacation, by hand

#[test]
fn the_vacation_schema_rejects_what_the_decoder_rejects() {
    use contract_runtime::Contract;
    let schema = VacationRequest::json_schema();
    let validator = validator_for(&schema);
    let cases = [
        // (document, accepted)
        (
            r#"{"status":"complete","start_date":"2027-06-01","end_date":"2027-06-12","clarification_question":null}"#,
            true,
        ),
        (
            r#"{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":"Which dates?"}"#,
            true,
        ),
        (
            r#"{"status":"not_a_request","start_date":null,"end_date":null,"clarification_question":null}"#,
            true,
        ),
        // complete: both dates required, no question
        (
            r#"{"status":"complete","start_date":"2027-06-01","end_date":null,"clarification_question":null}"#,
            false,
        ),
        (
            r#"{"status":"complete","start_date":null,"end_date":"2027-06-12","clarification_question":null}"#,
            false,
        ),
        (
            r#"{"status":"complete","start_date":"2027-06-01","end_date":"2027-06-12","clarification_question":"?"}"#,
            false,
        ),
        // needs_clarification: the question is required
        (
            r#"{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":null}"#,
            false,
        ),
        // not_a_request: no dates
        (
            r#"{"status":"not_a_request","start_date":"2027-06-01","end_date":null,"clarification_question":null}"#,
            false,
        ),
        (
            r#"{"status":"not_a_request","start_date":null,"end_date":"2027-06-12","clarification_question":null}"#,
            false,
        ),
        // status itself
        (
            r#"{"status":"done","start_date":null,"end_date":null,"clarification_question":null}"#,
            false,
        ),
        (
            r#"{"status":null,"start_date":null,"end_date":null,"clarification_question":null}"#,
            false,
        ),
        (
            r#"{"status":"Complete","start_date":"2027-06-01","end_date":"2027-06-12","clarification_question":null}"#,
            false,
        ),
        // nullability: every key present, null only where declared
        (
            r#"{"status":"not_a_request","start_date":null,"end_date":null}"#,
            false,
        ),
        (
            r#"{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":""}"#,
            false,
        ),
        // dates: strict and calendar-valid
        (
            r#"{"status":"complete","start_date":"2027-02-30","end_date":"2027-06-12","clarification_question":null}"#,
            false,
        ),
        (
            r#"{"status":"complete","start_date":"2027-6-1","end_date":"2027-06-12","clarification_question":null}"#,
            false,
        ),
    ];
    for (raw, accepted) in cases {
        let rust = VacationRequest::from_json(raw).is_ok();
        let value: Value = serde_json::from_str(raw).unwrap();
        let schema_ok = validator.is_valid(&value);
        assert_eq!(rust, accepted, "decoder on {raw}");
        assert_eq!(schema_ok, accepted, "schema on {raw}");
    }
    // The one rule JSON Schema cannot say is listed, and is the only difference.
    let reversed = r#"{"status":"complete","start_date":"2027-06-12","end_date":"2027-06-01","clarification_question":null}"#;
    assert!(VacationRequest::from_json(reversed).is_err());
    assert!(validator.is_valid(&serde_json::from_str(reversed).unwrap()));
    assert_eq!(rules_of(&schema, "order"), ["/start_date", "/end_date"]);
}

/// The agreement check is not vacuous: a schema that forgets the `when`
/// rules disagrees with the decoder, and the test notices.
#[test]
fn a_schema_that_forgets_a_rule_is_caught() {
    let mut case = cases().into_iter().find(|c| c.name == "vacation").unwrap();
    case.schema.as_object_mut().unwrap().remove("allOf");
    let validators = Validators {
        full: validator_for(&case.schema),
        exports: Vec::new(),
    };
    let config = Config {
        cases: 500,
        rng_seed: RngSeed::Fixed(7),
        failure_persistence: None,
        max_shrink_iters: 0,
        ..Config::default()
    };
    let tally = RefCell::new(Tally::default());
    let result =
        TestRunner::new(config).run(&proptest::collection::vec(any::<u32>(), 300), |tape| {
            verdict(&case, &validators, &mut tally.borrow_mut(), &tape).map_err(TestCaseError::fail)
        });
    let message = result.unwrap_err().to_string();
    assert!(message.contains("unexplained Rust error rule"), "{message}");
}

/// An `f32` field's bounds are checked on the number as written, before it
/// is rounded to `f32`: the decoder and the schema agree on the edges.
#[test]
fn f32_bounds_are_checked_before_rounding() {
    use contract_runtime::Contract;
    use schema_support::Everything;
    let schema = Everything::json_schema();
    let validator = validator_for(&schema);
    let base = r#"{"a_u8":0,"a_u16":0,"a_u32":0,"a_u64":0,"a_usize":0,"a_i8":0,"a_i16":0,"a_i32":0,"a_i64":0,"a_isize":0,"a_f32":0,"a_f64":0,"flag":true,"text":"","starts_on":"2027-01-01","ends_on":null,"maybe_text":null,"numbers":[],"scores":{},"inner":{"name":"a"},"maybe_inner":null,"inners":[],"level":"low","maybe_level":null,"bounded":1,"ratio":0,"narrow":NARROW,"tags":["a"],"code":null,"color":"green","size":1,"schema_tag":"v1","seven":null,"flags":[],"at":"2027-06-01T09:30:00Z","maybe_at":null,"parcel":"AB-1234","email":null,"id":"123e4567-e89b-12d3-a456-426614174000"}"#;
    for (narrow, both) in [("1", true), ("0", true), ("1.5", false), ("-0.5", false)] {
        let raw = base.replace("NARROW", narrow);
        assert_eq!(
            Everything::from_json(&raw).is_ok(),
            both,
            "decoder, narrow = {narrow}"
        );
        assert_eq!(
            validator.is_valid(&serde_json::from_str(&raw).unwrap()),
            both,
            "schema, narrow = {narrow}"
        );
    }
    // `max = 1` on an f32: 1.00000001 would round to 1.0f32, and `min = 0`:
    // -1e-50 to -0.0f32. Both are refused, as the schema refuses them.
    for narrow in ["1.00000001", "-1e-50"] {
        let raw = base.replace("NARROW", narrow);
        let rejection = Everything::from_json(&raw).unwrap_err();
        assert_eq!(rejection.pointers(), ["/narrow"], "narrow = {narrow}");
        assert!(!validator.is_valid(&serde_json::from_str(&raw).unwrap()));
    }
}

/// A 64-bit integer field's range is in the schema: what the decoder
/// refuses as `out_of_range`, the schema refuses too.
#[test]
fn a_64_bit_integer_out_of_range_is_refused_by_the_decoder_and_the_schema() {
    use contract_runtime::Contract;
    use schema_support::{CloseTicket, Everything};
    let close = validator_for(&CloseTicket::json_schema());
    let raw = r#"{"action":"close_ticket","ticket_id":99999999999999999999999,"reason":"x"}"#;
    let rejection = CloseTicket::from_json(raw).unwrap_err();
    assert_eq!(rejection.pointers(), ["/ticket_id"]);
    assert_eq!(rejection.errors[0].code, "out_of_range");
    assert!(!close.is_valid(&serde_json::from_str(raw).unwrap()));

    let everything = validator_for(&Everything::json_schema());
    let base = r#"{"a_u8":0,"a_u16":0,"a_u32":0,"a_u64":U64,"a_usize":0,"a_i8":0,"a_i16":0,"a_i32":0,"a_i64":I64,"a_isize":0,"a_f32":0,"a_f64":0,"flag":true,"text":"","starts_on":"2027-01-01","ends_on":null,"maybe_text":null,"numbers":[],"scores":{},"inner":{"name":"a"},"maybe_inner":null,"inners":[],"level":"low","maybe_level":null,"bounded":1,"ratio":0,"narrow":0,"tags":["a"],"code":null,"color":"green","size":1,"schema_tag":"v1","seven":null,"flags":[],"at":"2027-06-01T09:30:00Z","maybe_at":null,"parcel":"AB-1234","email":null,"id":"123e4567-e89b-12d3-a456-426614174000"}"#;
    // (u64, i64, accepted): the edges, one past them, and far past them.
    let cases = [
        ("18446744073709551615", "-9223372036854775808", true),
        ("0", "9223372036854775807", true),
        ("18446744073709551616", "0", false),
        ("-1", "0", false),
        ("0", "9223372036854775808", false),
        ("0", "18446744073709551615", false),
        ("100000000000000000000000000000", "0", false),
        ("0", "-100000000000000000000000000000", false),
        // Past i64::MIN by more than f64 rounding hides (see `integer_precision`).
        ("0", "-9223372036854777856", false),
    ];
    for (u, i, accepted) in cases {
        let raw = base.replace("U64", u).replace("I64", i);
        assert_eq!(
            Everything::from_json(&raw).is_ok(),
            accepted,
            "decoder: {u}, {i}"
        );
        let value: Value = serde_json::from_str(&raw).unwrap();
        assert_eq!(everything.is_valid(&value), accepted, "schema: {u}, {i}");
    }
    // What f64 rounding hides: the digits are below i64::MIN, the value a
    // validator reads is i64::MIN itself.
    let raw = base
        .replace("U64", "0")
        .replace("I64", "-9223372036854775809");
    assert_eq!(
        Everything::from_json(&raw).unwrap_err().pointers(),
        ["/a_i64"]
    );
    assert!(everything.is_valid(&serde_json::from_str(&raw).unwrap()));
}

#[test]
fn dates_are_asserted_only_with_format_assertion() {
    // Why this test turns format assertion on: without it `format` is an
    // annotation and only the pattern speaks.
    let schema = VacationRequest_schema();
    let plain = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .unwrap();
    let doc = json!({"status":"complete","start_date":"2027-02-30","end_date":"2027-06-12","clarification_question":null});
    assert!(plain.is_valid(&doc));
    assert!(!validator_for(&schema).is_valid(&doc));
}

#[allow(non_snake_case)]
fn VacationRequest_schema() -> Value {
    use contract_runtime::Contract;
    VacationRequest::json_schema()
}
