//! The tool definitions `.ci/sdk_check.py` feeds to the providers' Python
//! clients, to llguidance and to a draft 2020-12 validator, built from the
//! shipped tools enums (`support-tools`: [`SupportTool`]; `triage-tools`:
//! [`TriageTool`]). With `EXPORT_FIXTURES=DIR` the test writes, for each:
//! `tools.<name>.<provider>.json` (`tool_definitions(provider)`, or
//! `{"error": ...}`), `tools.<name>.mcp.json` (`mcp_tools()`),
//! `tools.<name>.calls.jsonl` (the calls of `examples/data` that
//! `check_call` does not refuse, as `{"name", "arguments"}` in the compact
//! `to_json` form) and `tools.<name>.refused-calls.jsonl` (for each tool
//! with arguments, an accepted call with one argument of the wrong JSON
//! type, which `check_call` refuses at the schema stage).
use std::path::PathBuf;

use contract_examples::support_tools::SupportTool;
use contract_examples::triage::TriageTool;
use contract_runtime::schema::Provider;
use contract_runtime::tools::Tools;
use contract_runtime::{Contract, Stage};
use serde_json::{Value, json};

/// One shipped tools enum's fixtures.
pub struct ToolFixtures {
    pub name: &'static str,
    pub definitions: Vec<(Provider, Value)>,
    pub mcp: Value,
    pub calls: Vec<String>,
    pub refused: Vec<String>,
}

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/data")
        .join(format!("{name}.jsonl"));
    std::fs::read_to_string(path).unwrap()
}

/// Calls as `(name, arguments text)`.
type RawCall = (String, String);

/// The calls of a `--calls` file: every line a batch `[{"id","name","arguments"}]`,
/// the arguments a JSON string or an object (absent: no arguments).
fn batch_calls(file: &str) -> Vec<RawCall> {
    let mut out = Vec::new();
    for line in data(file).lines() {
        let Ok(Value::Array(batch)) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        for call in batch {
            let Some(name) = call["name"].as_str() else {
                continue;
            };
            let arguments = match &call["arguments"] {
                Value::String(text) => text.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            out.push((name.to_owned(), arguments));
        }
    }
    out
}

/// A value of another JSON type than `value`'s.
fn mistyped(value: &Value) -> Value {
    match value {
        Value::String(_) => json!(7),
        Value::Number(n) => json!(n.to_string()),
        Value::Bool(_) => json!("yes"),
        Value::Null | Value::Array(_) | Value::Object(_) => json!(7),
    }
}

fn fixtures<T: Tools + Contract>(name: &'static str, calls: &[RawCall]) -> ToolFixtures {
    let definitions = Provider::ALL
        .into_iter()
        .map(|p| {
            let value =
                T::tool_definitions(p).unwrap_or_else(|e| json!({ "error": e.to_string() }));
            (p, value)
        })
        .collect();
    let mut accepted: Vec<Value> = Vec::new();
    for (tool, arguments) in calls {
        if let Some(value) = T::check_call(tool, arguments).into_value() {
            let call = value.to_json();
            if !accepted.contains(&call) {
                accepted.push(call);
            }
        }
    }
    let mut refused = Vec::new();
    let mut tools_done: Vec<String> = Vec::new();
    for call in &accepted {
        let tool = call["name"].as_str().unwrap_or_default().to_owned();
        let Some((member, value)) = call["arguments"].as_object().and_then(|a| a.iter().next())
        else {
            continue;
        };
        if tools_done.contains(&tool) {
            continue;
        }
        let mut broken = call.clone();
        broken["arguments"][member] = mistyped(value);
        let outcome = T::check_call(&tool, &broken["arguments"].to_string());
        let schema_only = outcome.rejection().is_some_and(|r| {
            r.errors
                .iter()
                .all(|e| e.stage == Stage::Schema && e.pointer == format!("/arguments/{member}"))
        });
        if schema_only {
            refused.push(broken.to_string());
            tools_done.push(tool);
        }
    }
    ToolFixtures {
        name,
        definitions,
        mcp: T::mcp_tools(),
        calls: accepted.iter().map(Value::to_string).collect(),
        refused,
    }
}

/// The shipped tools enums' fixtures.
pub fn all() -> Vec<ToolFixtures> {
    let triage: Vec<RawCall> = data("triage")
        .lines()
        .map(|line| ("triage".to_owned(), line.to_owned()))
        .collect();
    vec![
        fixtures::<SupportTool>("support-tools", &batch_calls("support-tools")),
        fixtures::<TriageTool>("triage-tools", &triage),
    ]
}

/// Writes the fixtures into `dir`.
pub fn write(dir: &std::path::Path) {
    let lines = |docs: &[String]| docs.iter().map(|d| format!("{d}\n")).collect::<String>();
    for f in all() {
        for (provider, value) in &f.definitions {
            let text = serde_json::to_string_pretty(value).unwrap() + "\n";
            std::fs::write(dir.join(format!("tools.{}.{provider}.json", f.name)), text).unwrap();
        }
        let mcp = serde_json::to_string_pretty(&f.mcp).unwrap() + "\n";
        std::fs::write(dir.join(format!("tools.{}.mcp.json", f.name)), mcp).unwrap();
        std::fs::write(
            dir.join(format!("tools.{}.calls.jsonl", f.name)),
            lines(&f.calls),
        )
        .unwrap();
        std::fs::write(
            dir.join(format!("tools.{}.refused-calls.jsonl", f.name)),
            lines(&f.refused),
        )
        .unwrap();
    }
}

// Every shipped tools enum exports for every provider, has accepted calls
// of every tool and a mistyped call of every tool with arguments.
#[test]
fn every_shipped_tools_enum_has_definitions_and_calls() {
    let tools_of = |defs: &Value| -> Vec<String> {
        defs.as_array()
            .into_iter()
            .flatten()
            .filter_map(|d| d["name"].as_str().map(str::to_owned))
            .collect()
    };
    for f in all() {
        for (provider, value) in &f.definitions {
            assert!(
                value.get("error").is_none(),
                "{} {provider}: {value}",
                f.name
            );
        }
        let names = tools_of(&f.mcp);
        assert!(!names.is_empty(), "{}", f.name);
        for name in &names {
            let calls_of = |docs: &[String]| {
                docs.iter()
                    .filter(|d| serde_json::from_str::<Value>(d).unwrap()["name"] == **name)
                    .count()
            };
            assert!(
                calls_of(&f.calls) > 0,
                "{}: no accepted call of {name}",
                f.name
            );
            let unit = f.mcp.as_array().unwrap().iter().any(|t| {
                t["name"] == **name
                    && t["inputSchema"]["properties"]
                        .as_object()
                        .is_none_or(|p| p.is_empty())
            });
            assert_eq!(calls_of(&f.refused) > 0, !unit, "{}: {name}", f.name);
        }
    }
}
