//! The grammar of a contract whose `evidence` members are in the contracts
//! it holds (`held-evidence.grammar.lark`): findings quoted from a message,
//! in an array and an `Option`, beside a key that may be absent, with the documents `check_with` accepts and
//! those the grammar refuses at their first impossible byte.
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

pub fn message() -> Message {
    Message {
        text: "The backup job \"nightly\" failed twice.\nDisk eu-2 is full.".to_owned(),
    }
}

fn escaped(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap_or_default();
    quoted[1..quoted.len() - 1].to_owned()
}

/// The grammar, the accepted documents, and the refused ones with the
/// offset of their first impossible byte.
pub fn fixtures() -> (String, Vec<String>, Vec<Value>) {
    let ctx = message();
    let grammar = Findings::grammar_with(&ctx).unwrap_or_default();
    let finding = |quote: &str| json!({"claim": "backup failed", "quote": quote});
    let accepted: Vec<String> = [
        json!({"findings": [finding("failed twice")], "main": null}),
        json!({"topic": "backups", "findings": [finding("\"nightly\" failed"), finding("full.")],
               "main": finding("twice.\nDisk eu-2")}),
        json!({"topic": null, "findings": [finding("eu-2")], "main": null}),
    ]
    .iter()
    .map(Value::to_string)
    .collect();
    let source = escaped(&ctx.text);
    let mut refused = Vec::new();
    for (doc, quote) in [
        (
            json!({"findings": [finding("failed three times")], "main": null}),
            "failed three times",
        ),
        (
            json!({"findings": [finding("full.")], "main": finding("Disk eu-3")}),
            "Disk eu-3",
        ),
    ] {
        let text = doc.to_string();
        let q = escaped(quote);
        let (sb, qb) = (source.as_bytes(), q.as_bytes());
        let kept = (0..=qb.len())
            .rev()
            .find(|&k| k == 0 || sb.windows(k).any(|w| w == &qb[..k]))
            .unwrap_or(0);
        let at = text.rfind(&format!("\"{q}\"")).map_or(0, |i| i + 1 + kept);
        refused.push(json!({"doc": text, "at": at}));
    }
    (grammar, accepted, refused)
}

#[test]
fn the_held_grammar_fixtures_agree_with_the_business_stage() {
    let (grammar, accepted, refused) = fixtures();
    assert!(grammar.contains("def_0: "), "{grammar}");
    assert!(grammar.contains("substring_chunks"), "{grammar}");
    for doc in &accepted {
        assert!(Findings::check_with(doc, &message()).is_accept(), "{doc}");
    }
    for r in &refused {
        let doc = r["doc"].as_str().unwrap();
        assert!(Findings::from_json(doc).is_ok(), "{doc}");
        let rejection = Findings::check_with(doc, &message());
        let codes: Vec<&str> = rejection
            .rejection()
            .map(|r| r.errors.iter().map(|e| e.code).collect())
            .unwrap_or_default();
        assert_eq!(codes, ["evidence_not_found"], "{doc}");
        let at = r["at"].as_u64().unwrap() as usize;
        assert!(at > 0 && at < doc.len(), "{doc}");
    }
}
