//! What `.ci/sdk_check.py` feeds to the providers' Python clients and to
//! the local constrained-decoding engines, built from the shipped
//! contracts: every export, the documents of `examples/data` that the
//! contract accepts (in the compact `to_json` form, since Outlines' regex
//! fixes the whitespace), and documents that break a `when` rule and
//! nothing else, and documents with a string the decoder refuses for its
//! `format` although the engines' own `format` would take it (a date-time
//! without an offset, a leap second, `2027-02-30`, an address literal).
//! With `EXPORT_FIXTURES=DIR` the test writes them there:
//! `<name>.<provider>.json` (the export as `contract-check --schema NAME
//! --provider P` builds it, or `{"error": ...}`), `<name>.accepted.jsonl`,
//! `<name>.refused.jsonl`, `<name>.format-refused.jsonl`, and
//! `<name>.request.<api>.json` (`response_format_for(api)`, the request
//! fragment, for each `schema::Api`);
//! `ticket-extraction.grammar.lark` (`grammar_with` for one request) with
//! `ticket-extraction.grammar-accepted.jsonl` and
//! `ticket-extraction.grammar-refused.jsonl` (`{"doc", "at"}`: the offset
//! of the first byte the grammar cannot take), and the same three for
//! `held-evidence` and `held-shapes` (contracts whose `evidence` members
//! are in the contracts they hold, [`held`]). The
//! `formats` fixtures hold each format the decoder checks (date,
//! date-time, e-mail, UUID) and their near misses; the
//! `filter-unrolled` fixtures are the filter tree's exports unrolled to 3
//! levels, filters of 1 to 3 levels (accepted) and of 4 and 5 (refused by
//! the export, though the contract takes them). The `settings-patch` and
//! `settings-merge-patch` fixtures are the patch exports of `settings`'
//! `disable_email` against the shipped baseline, the shipped patches the
//! check accepts (those the export describes) and those it refuses. The
//! tool definitions are written by [`tools`].
use crate::schema_support;

mod held;
mod tools;

use std::path::PathBuf;

use contract_runtime::schema::{Api, Provider, export, export_unrolled};
use contract_runtime::{Contract, Date, DateTime, Stage};
use schema_support::{
    CloseTicket, Filter, Settings, Step, TicketExtraction, Triage, VacationRequest,
};
use serde_json::{Value, json};

/// One shipped contract's fixtures.
struct Fixtures {
    name: &'static str,
    exports: Vec<(Provider, Value)>,
    /// `T::response_format_for(api)` for each API, or `{"error": ...}`.
    requests: Vec<(Api, Value)>,
    accepted: Vec<String>,
    refused: Vec<String>,
    format_refused: Vec<String>,
}

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/data")
        .join(format!("{name}.jsonl"));
    std::fs::read_to_string(path).unwrap()
}

/// A `when` rule: its field, its values, the fields it requires and forbids.
type WhenRule = (String, Vec<Value>, Vec<String>, Vec<String>);

/// The `when` rules of a full schema's root.
fn when_rules(schema: &Value) -> Vec<WhenRule> {
    let mut out = Vec::new();
    for rule in schema["allOf"].as_array().into_iter().flatten() {
        let (field, test) = rule["if"]["properties"]
            .as_object()
            .and_then(|p| p.iter().next())
            .unwrap();
        let values = match (&test["const"], &test["enum"]) {
            (Value::Null, Value::Array(values)) => values.clone(),
            (c, _) => vec![c.clone()],
        };
        let (mut require, mut forbid) = (Vec::new(), Vec::new());
        for (name, t) in rule["then"]["properties"].as_object().unwrap() {
            if *t == json!({"type": "null"}) {
                forbid.push(name.clone());
            } else {
                require.push(name.clone());
            }
        }
        out.push((field.clone(), values, require, forbid));
    }
    out
}

/// Documents that break one `when` rule: an accepted document moved into
/// the rule's condition, with one required field null or one forbidden
/// field holding a value another accepted document has. Kept only when
/// the contract refuses it at the rule stage alone.
fn rule_breakers<T: Contract>(accepted: &[Value]) -> Vec<String> {
    let mut out = Vec::new();
    for (field, values, require, forbid) in when_rules(&T::json_schema()) {
        for doc in accepted {
            let mut moved = doc.clone();
            moved[&field] = values[0].clone();
            let mut candidates = Vec::new();
            for name in &require {
                let mut broken = moved.clone();
                broken[name] = Value::Null;
                candidates.push(broken);
            }
            for name in &forbid {
                if let Some(value) = accepted.iter().map(|d| &d[name]).find(|v| !v.is_null()) {
                    let mut broken = moved.clone();
                    broken[name] = value.clone();
                    candidates.push(broken);
                }
            }
            for broken in candidates {
                let text = serde_json::to_string(&broken).unwrap();
                let rule_stage_only = T::from_json(&text)
                    .err()
                    .is_some_and(|r| r.errors.iter().all(|e| e.stage == Stage::Rule));
                if rule_stage_only && !out.contains(&text) {
                    out.push(text);
                }
            }
        }
    }
    out
}

/// Strings each format's decoder refuses that a looser reading of the
/// format takes.
fn format_near_misses(format: &str) -> &'static [&'static str] {
    match format {
        "date" => &["2027-02-30", "1900-02-29"],
        "date-time" => &[
            "2027-06-30T12:00:00",
            "2027-06-30T23:59:60Z",
            "2027-06-30T12:00:00.1234567890Z",
        ],
        "email" => &["ana@[127.0.0.1]"],
        "uuid" => &["123e4567e89b12d3a456426614174000"],
        _ => &[],
    }
}

/// Documents with one top-level string replaced by a near miss of its
/// `format`; kept only when the contract refuses it at the schema stage
/// alone.
fn format_breakers<T: Contract>(accepted: &[Value]) -> Vec<String> {
    let schema = T::json_schema();
    let mut out = Vec::new();
    let Some(props) = schema["properties"].as_object() else {
        return out;
    };
    for doc in accepted {
        for (name, prop) in props {
            let Some(format) = prop["format"].as_str() else {
                continue;
            };
            for miss in format_near_misses(format) {
                let mut broken = doc.clone();
                broken[name] = json!(miss);
                let text = serde_json::to_string(&broken).unwrap();
                let schema_stage_only = T::from_json(&text)
                    .err()
                    .is_some_and(|r| r.errors.iter().all(|e| e.stage == Stage::Schema));
                if schema_stage_only && !out.contains(&text) {
                    out.push(text);
                }
            }
        }
    }
    out
}

fn fixtures<T: Contract>(name: &'static str) -> Fixtures {
    let accepted: Vec<Value> = data(name)
        .lines()
        .filter_map(|line| T::from_json(line).ok())
        .map(|value| value.to_json())
        .collect();
    let exports = Provider::ALL
        .into_iter()
        .map(|p| {
            let value = match export::<T>(p) {
                Ok(e) => serde_json::to_value(&e).unwrap(),
                Err(e) => json!({ "error": e.to_string() }),
            };
            (p, value)
        })
        .collect();
    Fixtures {
        name,
        exports,
        requests: requests::<T>(),
        refused: rule_breakers::<T>(&accepted),
        format_refused: format_breakers::<T>(&accepted),
        accepted: accepted
            .iter()
            .map(|v| serde_json::to_string(v).unwrap())
            .collect(),
    }
}

/// `T::response_format_for(api)` for each API, or `{"error": ...}`.
fn requests<T: Contract>() -> Vec<(Api, Value)> {
    Api::ALL
        .into_iter()
        .map(|api| {
            let value =
                T::response_format_for(api).unwrap_or_else(|e| json!({ "error": e.to_string() }));
            (api, value)
        })
        .collect()
}

/// Each format the decoder checks, for the `formats` fixtures.
#[derive(Contract, Debug)]
struct Formats {
    day: Date,
    at: DateTime,
    #[contract(format = "email")]
    email: String,
    #[contract(format = "uuid")]
    id: String,
}

/// Two documents of [`Formats`], and their format near misses.
fn formats() -> Fixtures {
    let accepted = vec![
        json!({"day": "2024-02-29", "at": "2027-06-30T12:00:00.5+02:00", "email": "ana.lopez+tickets@example.com", "id": "123e4567-e89b-12d3-a456-426614174000"}),
        json!({"day": "2000-02-29", "at": "2027-06-30t23:59:59z", "email": "!#$%&'*+/=?^_`{|}~-@example.com", "id": "123E4567-E89B-12D3-A456-426614174000"}),
    ];
    let exports = Provider::ALL
        .into_iter()
        .map(|p| {
            let value = match export::<Formats>(p) {
                Ok(e) => serde_json::to_value(&e).unwrap(),
                Err(e) => json!({ "error": e.to_string() }),
            };
            (p, value)
        })
        .collect();
    Fixtures {
        name: "formats",
        exports,
        requests: requests::<Formats>(),
        format_refused: format_breakers::<Formats>(&accepted),
        accepted: accepted
            .iter()
            .map(|d| serde_json::to_string(d).unwrap())
            .collect(),
        refused: Vec::new(),
    }
}

/// The unrolling depth of the `filter-unrolled` fixtures.
const UNROLLED_DEPTH: usize = 3;

/// A filter of `levels` levels: `all` of a condition whose exception is the
/// next level.
fn nested_filter(levels: usize) -> Value {
    let cond =
        |unless: Value| json!({"op": "cond", "field": "owner", "equals": "ana", "unless": unless});
    let mut doc = cond(Value::Null);
    for level in 1..levels {
        doc = if level % 2 == 1 {
            json!({"op": "all", "of": [doc, cond(Value::Null)]})
        } else {
            cond(doc)
        };
    }
    doc
}

/// The filter tree unrolled to [`UNROLLED_DEPTH`] levels for every
/// provider: documents within the depth are accepted, one level deeper
/// refused (the contract takes them; the export does not).
fn filter_unrolled() -> Fixtures {
    let exports = Provider::ALL
        .into_iter()
        .map(|p| {
            let value = match export_unrolled::<Filter>(p, UNROLLED_DEPTH) {
                Ok(e) => serde_json::to_value(&e).unwrap(),
                Err(e) => json!({ "error": e.to_string() }),
            };
            (p, value)
        })
        .collect();
    let text = |levels: usize| serde_json::to_string(&nested_filter(levels)).unwrap();
    Fixtures {
        name: "filter-unrolled",
        exports,
        requests: Vec::new(),
        accepted: (1..=UNROLLED_DEPTH).map(text).collect(),
        refused: vec![text(UNROLLED_DEPTH + 1), text(UNROLLED_DEPTH + 2)],
        format_refused: Vec::new(),
    }
}

/// The shipped baseline of `settings`, as `contract-check --baseline` reads it.
fn settings_baseline() -> Value {
    contract_runtime::json::parse(
        contract_examples::settings::BASELINE.as_bytes(),
        &Settings::LIMITS,
    )
    .unwrap()
}

/// Whether every operation of a JSON Patch is one the patch export
/// describes: a `replace`, `add` or `remove` at a pointer the policy lists.
fn only_allowed_operations(patch: &Value) -> bool {
    let paths = Settings::DISABLE_EMAIL.paths();
    patch["patch"].as_array().is_some_and(|ops| {
        ops.iter().all(|op| {
            ["replace", "add", "remove"].contains(&op["op"].as_str().unwrap_or(""))
                && paths.contains(&op["path"].as_str().unwrap_or(""))
        })
    })
}

/// The shipped patches of `settings` (`examples/data/settings.patch.jsonl`
/// or `.merge-patch.jsonl`) against the shipped baseline, and the patch
/// exports of `disable_email`: accepted, the patches the check accepts
/// that use only the operations the export describes (a JSON Patch in the
/// `{"patch": [..]}` form); refused, every patch the check refuses (on a
/// forbidden path, with a mistyped value, ...) that is JSON.
fn settings_patches(merge: bool) -> Fixtures {
    let baseline = settings_baseline();
    let policy = Settings::DISABLE_EMAIL;
    let (name, file) = if merge {
        ("settings-merge-patch", "settings.merge-patch")
    } else {
        ("settings-patch", "settings.patch")
    };
    let exports = Provider::ALL
        .into_iter()
        .map(|p| {
            let export = if merge {
                policy.merge_patch_schema_for(&baseline, p)
            } else {
                policy.patch_schema_for(&baseline, p)
            };
            let value = match export {
                Ok(e) => serde_json::to_value(&e).unwrap(),
                Err(e) => json!({ "error": e.to_string() }),
            };
            (p, value)
        })
        .collect();
    let (mut accepted, mut refused) = (Vec::new(), Vec::new());
    for line in data(file).lines() {
        let Ok(parsed) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let doc = match parsed {
            Value::Array(_) if !merge => json!({ "patch": parsed }),
            other => other,
        };
        let text = serde_json::to_string(&doc).unwrap();
        let checked = if merge {
            policy.check_merge_patch(&baseline, &text)
        } else {
            policy.check_patch(&baseline, &text)
        };
        match checked {
            Ok(_) if merge || only_allowed_operations(&doc) => accepted.push(text),
            Ok(_) => {}
            Err(_) => refused.push(text),
        }
    }
    Fixtures {
        name,
        exports,
        accepted,
        refused,
        format_refused: Vec::new(),
        requests: Vec::new(),
    }
}

fn all() -> Vec<Fixtures> {
    vec![
        fixtures::<CloseTicket>("close-ticket"),
        fixtures::<Settings>("settings"),
        fixtures::<Triage>("triage"),
        fixtures::<TicketExtraction>("ticket-extraction"),
        fixtures::<VacationRequest>("vacation"),
        fixtures::<Step>("step"),
        filter_unrolled(),
        formats(),
        settings_patches(false),
        settings_patches(true),
    ]
}

fn decode_again(name: &str, doc: &str) -> bool {
    match name {
        "close-ticket" => CloseTicket::from_json(doc).is_ok(),
        "settings" => Settings::from_json(doc).is_ok(),
        "triage" => Triage::from_json(doc).is_ok(),
        "ticket-extraction" => TicketExtraction::from_json(doc).is_ok(),
        "vacation" => VacationRequest::from_json(doc).is_ok(),
        "step" => Step::from_json(doc).is_ok(),
        "filter-unrolled" => Filter::from_json(doc).is_ok(),
        "formats" => Formats::from_json(doc).is_ok(),
        "settings-patch" => Settings::DISABLE_EMAIL
            .check_patch(&settings_baseline(), doc)
            .is_ok(),
        "settings-merge-patch" => Settings::DISABLE_EMAIL
            .check_merge_patch(&settings_baseline(), doc)
            .is_ok(),
        _ => false,
    }
}

#[test]
fn every_shipped_contract_has_accepted_documents_in_compact_form() {
    for f in all() {
        assert!(!f.accepted.is_empty(), "{}: no accepted document", f.name);
        for doc in &f.accepted {
            let parsed: Value = serde_json::from_str(doc).unwrap();
            assert_eq!(serde_json::to_string(&parsed).unwrap(), *doc);
            assert!(decode_again(f.name, doc), "{}: {doc}", f.name);
        }
    }
}

#[test]
fn vacation_has_a_refused_document_for_each_when_rule() {
    let vacation = fixtures::<VacationRequest>("vacation");
    let broken: Vec<Value> = vacation
        .refused
        .iter()
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    for status in ["complete", "needs_clarification", "not_a_request"] {
        assert!(broken.iter().any(|d| d["status"] == status), "{status}");
    }
    // The done-when case: complete with a null start_date.
    assert!(
        broken
            .iter()
            .any(|d| d["status"] == "complete" && d["start_date"].is_null())
    );
}

#[test]
fn the_unrolled_filter_fixtures_nest_within_and_past_the_depth() {
    let f = filter_unrolled();
    // The contract takes every one of them; the export only the first.
    for doc in f.accepted.iter().chain(&f.refused) {
        assert!(Filter::from_json(doc).is_ok(), "{doc}");
    }
    assert_eq!(f.accepted.len(), UNROLLED_DEPTH);
    // OpenAI refuses a union at the root, unrolled or not.
    for (provider, e) in &f.exports {
        assert_eq!(
            e.get("error").is_some(),
            *provider == Provider::OpenAi,
            "{provider}"
        );
    }
}

#[test]
fn a_dated_contract_has_format_near_misses() {
    for f in [fixtures::<VacationRequest>("vacation"), formats()] {
        assert!(!f.format_refused.is_empty(), "{}", f.name);
        for doc in &f.format_refused {
            assert!(!decode_again(f.name, doc), "{}: {doc}", f.name);
        }
    }
}

/// The `ticket-extraction` grammar of one request (the shipped source, the
/// CLI example's confirmed cluster), the shipped documents `check_with`
/// accepts under it plus one whose quote spans a line break, and
/// documents the grammar refuses, each with the offset of its first
/// impossible byte: a quote the source does not contain, a cluster not
/// confirmed.
fn grammar_fixtures() -> (String, Vec<String>, Vec<Value>) {
    use contract_examples::ticket_extraction::EmailContext;
    let source = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../examples/data/ticket-extraction.source.txt"),
    )
    .unwrap();
    let ctx = EmailContext {
        source: source.clone(),
        confirmed_clusters: vec!["eu-west-1".into()],
    };
    let grammar = TicketExtraction::grammar_with(&ctx).unwrap();
    let base = json!({"issue_summary": "Сбой генерации PDF в биллинге", "deadline_iso": "2026-10-16",
        "deadline_context": null, "affected_cluster": "eu-west-1",
        "raw_quote": "сбоит генерация PDF в биллинге.\nМы хотели"});
    let mut accepted: Vec<String> = data("ticket-extraction")
        .lines()
        .chain([base.to_string().as_str()])
        .filter(|line| TicketExtraction::check_with(line, &ctx).is_accept())
        .filter_map(|line| TicketExtraction::from_json(line).ok())
        .map(|value| value.to_json().to_string())
        .collect();
    accepted.dedup();
    let source_escaped = held::escaped(&source);
    let with = |key: &str, value: &str| {
        let mut doc = base.clone();
        doc[key] = json!(value);
        TicketExtraction::from_json(&doc.to_string())
            .unwrap()
            .to_json()
            .to_string()
    };
    let mut refused = Vec::new();
    for quote in ["сбоит генерация PDF в Берлине", "генерация PDF в биллинге!"]
    {
        let doc = with("raw_quote", quote);
        let kept = held::kept(&source_escaped, &held::escaped(quote));
        let key = "\"raw_quote\":\"";
        let at = doc.find(key).unwrap() + key.len() + kept;
        refused.push(json!({"doc": doc, "at": at}));
    }
    let doc = with("affected_cluster", "eu-central-1");
    let at = doc.find("eu-central-1").unwrap() + "eu-".len();
    refused.push(json!({"doc": doc, "at": at}));
    (grammar, accepted, refused)
}

#[test]
fn the_grammar_fixtures_agree_with_the_business_stage() {
    let (grammar, accepted, refused) = grammar_fixtures();
    assert!(grammar.contains("substring_chunks"));
    assert!(accepted.len() >= 2, "{accepted:?}");
    for r in &refused {
        let doc = r["doc"].as_str().unwrap();
        assert!(TicketExtraction::from_json(doc).is_ok(), "{doc}");
        assert!((r["at"].as_u64().unwrap() as usize) < doc.len());
    }
}

#[test]
fn fixtures_are_written_when_asked() {
    let fixtures = all();
    let Some(dir) = std::env::var_os("EXPORT_FIXTURES") else {
        return;
    };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    tools::write(&dir);
    let lines = |docs: Vec<String>| docs.into_iter().map(|d| d + "\n").collect::<String>();
    for (name, (grammar, accepted, refused)) in [
        ("ticket-extraction", grammar_fixtures()),
        ("held-evidence", held::fixtures()),
        ("held-shapes", held::shape_fixtures()),
    ] {
        std::fs::write(dir.join(format!("{name}.grammar.lark")), grammar).unwrap();
        std::fs::write(
            dir.join(format!("{name}.grammar-accepted.jsonl")),
            lines(accepted),
        )
        .unwrap();
        std::fs::write(
            dir.join(format!("{name}.grammar-refused.jsonl")),
            lines(refused.iter().map(Value::to_string).collect()),
        )
        .unwrap();
    }
    for f in fixtures {
        for (provider, value) in &f.exports {
            let text = serde_json::to_string_pretty(value).unwrap() + "\n";
            std::fs::write(dir.join(format!("{}.{provider}.json", f.name)), text).unwrap();
        }
        for (api, value) in &f.requests {
            let text = serde_json::to_string_pretty(value).unwrap() + "\n";
            std::fs::write(dir.join(format!("{}.request.{api}.json", f.name)), text).unwrap();
        }
        let lines = |docs: &[String]| docs.iter().map(|d| format!("{d}\n")).collect::<String>();
        std::fs::write(
            dir.join(format!("{}.accepted.jsonl", f.name)),
            lines(&f.accepted),
        )
        .unwrap();
        std::fs::write(
            dir.join(format!("{}.refused.jsonl", f.name)),
            lines(&f.refused),
        )
        .unwrap();
        std::fs::write(
            dir.join(format!("{}.format-refused.jsonl", f.name)),
            lines(&f.format_refused),
        )
        .unwrap();
    }
}
