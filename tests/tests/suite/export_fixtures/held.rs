//! The grammars of contracts whose `evidence` members are in the contracts
//! they hold, with the documents `check_with` accepts and those the grammar
//! refuses at their first impossible byte: `held-evidence` (findings quoted
//! from a message, in an array and an `Option`, beside a key that may be
//! absent) and `held-shapes` (every shape the grammar writes out: arrays of
//! exactly one, at most one and at least two items, a map, an optional key,
//! a tagged union's struct, newtype and unit variants, recursion), with 40
//! documents drawn at random (a fixed seed: quotes cut anywhere in the
//! message, escapes and non-ASCII included), each also with one quote made
//! impossible.
use std::collections::BTreeMap;

use contract_runtime::{Contract, EvidenceSource};
use serde_json::{Value, json};

pub struct Message {
    pub text: String,
}

impl EvidenceSource for Message {
    fn source_text(&self) -> &str {
        &self.text
    }
}

/// One finding, with the words of the message it rests on.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Message)]
pub struct Finding {
    #[contract(min_len = 1, max_len = 80)]
    pub claim: String,
    #[contract(evidence)]
    pub quote: String,
}

/// Findings from a message, each quoting it.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Message)]
pub struct Findings {
    /// A key the model may leave out.
    #[contract(optional, max_len = 40)]
    pub topic: Option<String>,
    #[contract(min_len = 1, max_len = 3)]
    pub findings: Vec<Finding>,
    pub main: Option<Finding>,
}

/// Findings in every shape the grammar writes out.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Message)]
pub struct Shapes {
    #[contract(min_len = 1, max_len = 1)]
    pub one: Vec<Finding>,
    #[contract(max_len = 1)]
    pub at_most_one: Vec<Finding>,
    #[contract(min_len = 2)]
    pub at_least_two: Vec<Finding>,
    pub by_name: BTreeMap<String, Finding>,
    #[contract(optional)]
    pub extra: Option<Finding>,
    pub kind: Kind,
    pub next: Option<Box<Shapes>>,
}

/// A union whose variants quote the message, hold a finding, or neither.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "kind", rename_all = "snake_case", context = Message)]
pub enum Kind {
    Quoted {
        #[contract(evidence)]
        words: String,
    },
    Held(Finding),
    Nothing,
}

pub fn message() -> Message {
    Message {
        text: "The backup job \"nightly\" failed twice.\nDisk eu-2 is full. Caf\u{e9} \u{1F642} na\u{ef}ve."
            .to_owned(),
    }
}

/// `text` as it appears inside a JSON string.
pub fn escaped(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap_or_default();
    quoted[1..quoted.len() - 1].to_owned()
}

/// How many bytes of `quote` (JSON-escaped) a grammar over `source` (also
/// escaped) takes before it refuses: the longest start of it that the
/// source holds. Bytes, not characters: the matcher takes one byte at a
/// time, and a character's first byte may still fit (`Б` and `б` share it).
pub fn kept(source: &str, quote: &str) -> usize {
    let (sb, qb) = (source.as_bytes(), quote.as_bytes());
    (0..=qb.len())
        .rev()
        .find(|&k| k == 0 || sb.windows(k).any(|w| w == &qb[..k]))
        .unwrap_or(0)
}

/// Each refused document with the offset of its first impossible byte:
/// past the longest start of its `quote` that the source holds.
fn refused_at<T: Contract>(cases: Vec<(Value, &str)>) -> Vec<Value> {
    let source = escaped(&message().text);
    let mut refused = Vec::new();
    for (doc, quote) in cases {
        let text = canonical::<T>(&doc);
        let q = escaped(quote);
        let at = text
            .rfind(&format!("\"{q}\""))
            .map_or(0, |i| i + 1 + kept(&source, &q));
        refused.push(json!({"doc": text, "at": at}));
    }
    refused
}

/// `doc` as `to_json` writes it: the members in their declared order, as
/// the grammar (and a model held to it) writes them.
fn canonical<T: Contract>(doc: &Value) -> String {
    T::from_json(&doc.to_string())
        .map(|value| value.to_json().to_string())
        .unwrap_or_default()
}

fn finding(quote: &str) -> Value {
    json!({"claim": "backup failed", "quote": quote})
}

/// The grammar, the accepted documents, and the refused ones with the
/// offset of their first impossible byte.
pub fn fixtures() -> (String, Vec<String>, Vec<Value>) {
    let ctx = message();
    let grammar = Findings::grammar_with(&ctx).unwrap_or_default();
    let accepted: Vec<String> = [
        json!({"findings": [finding("failed twice")], "main": null}),
        json!({"topic": "backups", "findings": [finding("\"nightly\" failed"), finding("full.")],
               "main": finding("twice.\nDisk eu-2")}),
        json!({"topic": null, "findings": [finding("eu-2")], "main": null}),
    ]
    .iter()
    .map(Value::to_string)
    .collect();
    let refused = refused_at::<Findings>(vec![
        (
            json!({"findings": [finding("failed three times")], "main": null}),
            "failed three times",
        ),
        (
            json!({"findings": [finding("full.")], "main": finding("Disk eu-3")}),
            "Disk eu-3",
        ),
    ]);
    (grammar, accepted, refused)
}

/// A `Shapes` document: `one`'s finding quoting `quote`, the rest fixed.
fn shapes(quote: &str) -> Value {
    json!({
        "one": [finding(quote)],
        "at_most_one": [],
        "at_least_two": [finding("failed"), finding("twice")],
        "by_name": {},
        "kind": {"kind": "nothing"},
        "next": null
    })
}

/// [`fixtures`] for `Shapes`.
pub fn shape_fixtures() -> (String, Vec<String>, Vec<Value>) {
    let ctx = message();
    let grammar = Shapes::grammar_with(&ctx).unwrap_or_default();
    let mut full = shapes("job");
    full["at_most_one"] = json!([finding("eu-2")]);
    full["at_least_two"] = json!([finding("a"), finding("b"), finding("c")]);
    full["by_name"] = json!({"disk": finding("Disk eu-2 is full."), "job": finding("nightly")});
    full["extra"] = finding("The backup");
    full["kind"] = json!({"kind": "quoted", "words": "\"nightly\""});
    let mut nested = shapes("twice");
    nested["kind"] = json!({"kind": "held", "claim": "disk full", "quote": "is full"});
    nested["extra"] = Value::Null;
    full["next"] = nested;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let random: Vec<Value> = (0..40).map(|_| random_shapes(&mut rng, 2)).collect();
    let accepted = [shapes("failed"), full.clone()]
        .iter()
        .chain(&random)
        .map(canonical::<Shapes>)
        .collect();
    let with = |pointer: &str, value: Value| {
        let mut doc = full.clone();
        if let Some(slot) = doc.pointer_mut(pointer) {
            *slot = value;
        }
        doc
    };
    let refused = refused_at::<Shapes>(vec![
        (with("/one/0/quote", json!("job failed")), "job failed"),
        (with("/at_least_two/2/quote", json!("cx")), "cx"),
        (
            with("/by_name/job/quote", json!("nightly job")),
            "nightly job",
        ),
        (with("/extra/quote", json!("The backups")), "The backups"),
        (with("/kind/words", json!("weekly")), "weekly"),
        (with("/next/kind/quote", json!("is empty")), "is empty"),
    ]);
    // Each random document with one of its quotes made impossible: a
    // substring of the source, then a character the source does not hold.
    let mut broken = Vec::new();
    for doc in &random {
        let mut places = Vec::new();
        quotes(doc, String::new(), &mut places);
        let at = places[rng.below(places.len())].clone();
        let mut doc = doc.clone();
        let quote = match doc.pointer_mut(&at) {
            Some(slot) => {
                let bad = format!("{}\u{a7}", slot.as_str().unwrap_or_default());
                *slot = json!(bad);
                bad
            }
            None => continue,
        };
        broken.push((doc, quote));
    }
    let mut refused = refused;
    refused.extend(refused_at::<Shapes>(
        broken
            .iter()
            .map(|(d, q)| (d.clone(), q.as_str()))
            .collect(),
    ));
    (grammar, accepted, refused)
}

/// A small deterministic generator (xorshift), for documents the fixtures
/// write the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// A quote of the message: a random stretch of it that is not blank.
fn random_quote(rng: &mut Rng) -> String {
    let chars: Vec<char> = message().text.chars().collect();
    loop {
        let start = rng.below(chars.len());
        let len = 1 + rng.below(12);
        let quote: String = chars[start..(start + len).min(chars.len())]
            .iter()
            .collect();
        if !quote.trim().is_empty() {
            return quote;
        }
    }
}

fn random_finding(rng: &mut Rng) -> Value {
    finding(&random_quote(rng))
}

fn random_findings(rng: &mut Rng, min: usize, max: usize) -> Value {
    let n = min + rng.below(max - min + 1);
    Value::Array((0..n).map(|_| random_finding(rng)).collect())
}

/// A random `Shapes` document, nested at most `depth` more levels.
fn random_shapes(rng: &mut Rng, depth: usize) -> Value {
    let mut by_name = serde_json::Map::new();
    for name in ["a", "disk", "job"] {
        if rng.below(2) == 0 {
            by_name.insert(name.to_owned(), random_finding(rng));
        }
    }
    let kind = match rng.below(3) {
        0 => json!({"kind": "quoted", "words": random_quote(rng)}),
        1 => json!({"kind": "held", "claim": "disk full", "quote": random_quote(rng)}),
        _ => json!({"kind": "nothing"}),
    };
    let mut doc = json!({
        "one": random_findings(rng, 1, 1),
        "at_most_one": random_findings(rng, 0, 1),
        "at_least_two": random_findings(rng, 2, 4),
        "by_name": by_name,
        "kind": kind,
        "next": if depth > 0 && rng.below(2) == 0 { random_shapes(rng, depth - 1) } else { Value::Null },
    });
    match rng.below(3) {
        0 => doc["extra"] = random_finding(rng),
        1 => doc["extra"] = Value::Null,
        _ => {}
    }
    // A quote in every document: `one` holds one.
    doc
}

/// The pointers of the quotes in `doc` (its `quote` and `words` members).
fn quotes(doc: &Value, at: String, out: &mut Vec<String>) {
    match doc {
        Value::Object(map) => {
            for (key, value) in map {
                let here = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
                if (key == "quote" || key == "words") && value.is_string() {
                    out.push(here);
                } else {
                    quotes(value, here, out);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                quotes(item, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn the_held_grammar_fixtures_agree_with_the_business_stage() {
    agree::<Findings>(fixtures());
    agree::<Shapes>(shape_fixtures());
}

fn agree<T: Contract<Context = Message>>(
    (grammar, accepted, refused): (String, Vec<String>, Vec<Value>),
) {
    assert!(grammar.contains("def_0: "), "{grammar}");
    assert!(grammar.contains("substring_chunks"), "{grammar}");
    for doc in &accepted {
        assert!(T::check_with(doc, &message()).is_accept(), "{doc}");
    }
    for r in &refused {
        let doc = r["doc"].as_str().unwrap();
        assert!(T::from_json(doc).is_ok(), "{doc}");
        let rejection = T::check_with(doc, &message());
        let codes: Vec<&str> = rejection
            .rejection()
            .map(|r| r.errors.iter().map(|e| e.code).collect())
            .unwrap_or_default();
        assert_eq!(codes, ["evidence_not_found"], "{doc}");
        let at = r["at"].as_u64().unwrap() as usize;
        assert!(at > 0 && at < doc.len(), "{doc}");
    }
}
