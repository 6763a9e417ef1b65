//! The grammar of a contract whose `evidence` members are in the contracts
//! it holds (`held-evidence.grammar.lark`): findings quoted from a message,
//! in an array and an `Option`, beside a key that may be absent, with the documents `check_with` accepts and
//! those the grammar refuses at their first impossible byte.
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
        text: "The backup job \"nightly\" failed twice.\nDisk eu-2 is full.".to_owned(),
    }
}

fn escaped(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap_or_default();
    quoted[1..quoted.len() - 1].to_owned()
}

/// Each refused document with the offset of its first impossible byte:
/// past the longest start of its `quote` that the source holds.
fn refused_at<T: Contract>(cases: Vec<(Value, &str)>) -> Vec<Value> {
    let source = escaped(&message().text);
    let mut refused = Vec::new();
    for (doc, quote) in cases {
        let text = canonical::<T>(&doc);
        let q = escaped(quote);
        let (sb, qb) = (source.as_bytes(), q.as_bytes());
        let kept = (0..=qb.len())
            .rev()
            .find(|&k| k == 0 || sb.windows(k).any(|w| w == &qb[..k]))
            .unwrap_or(0);
        let at = text.rfind(&format!("\"{q}\"")).map_or(0, |i| i + 1 + kept);
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
    let accepted = [shapes("failed"), full.clone()]
        .iter()
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
    (grammar, accepted, refused)
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
