//! Golden snapshots of every generated schema and of every provider export
//! of the five seed contracts (`tests/snapshots/<name>.schema.json`,
//! `tests/snapshots/<name>.<provider>.json`; `UPDATE_SNAPSHOTS=1` rewrites
//! them), checks that they stay minimal, and that every one of them is a
//! valid draft 2020-12 schema.
use crate::schema_support;

use contract_runtime::schema::{Provider, export_schema};
use schema_support::{cases, check_snapshot, read_snapshot, snapshot_files};
use serde_json::Value;

#[test]
fn schemas_match_snapshots() {
    let failures: Vec<String> = cases()
        .iter()
        .filter_map(|case| check_snapshot(&format!("{}.schema.json", case.name), &case.schema))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn seed_exports_match_snapshots() {
    let mut failures = Vec::new();
    for case in cases().iter().filter(|c| c.seed) {
        for provider in Provider::ALL {
            let export = export_schema(&case.schema, provider)
                .unwrap_or_else(|e| panic!("{} for {provider}: {e}", case.name));
            let file = format!("{}.{provider}.json", case.name);
            failures.extend(check_snapshot(
                &file,
                &serde_json::to_value(&export).unwrap(),
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn union_exports_match_snapshots() {
    let case = cases().into_iter().find(|c| c.name == "step").unwrap();
    let mut failures = Vec::new();
    for provider in [Provider::Gemini, Provider::Anthropic, Provider::Local] {
        let export = export_schema(&case.schema, provider)
            .unwrap_or_else(|e| panic!("step for {provider}: {e}"));
        let file = format!("step.{provider}.json");
        failures.extend(check_snapshot(
            &file,
            &serde_json::to_value(&export).unwrap(),
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The recursive and generic contracts' exports, where the provider takes
/// them (`recursion::provider_exports_keep_or_refuse_recursion` checks the
/// refusals).
#[test]
fn recursive_and_generic_exports_match_snapshots() {
    let mut failures = Vec::new();
    let mut written = 0;
    for case in cases()
        .iter()
        .filter(|c| ["tree", "node", "org", "filter", "listing"].contains(&c.name))
    {
        for provider in Provider::ALL {
            let Ok(export) = export_schema(&case.schema, provider) else {
                continue;
            };
            written += 1;
            let file = format!("{}.{provider}.json", case.name);
            failures.extend(check_snapshot(
                &file,
                &serde_json::to_value(&export).unwrap(),
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // OpenAI (5) and Local (5) take every one; Gemini and Anthropic refuse.
    assert_eq!(written, 10, "exports taken");
}

/// Everything that makes a schema less than minimal, with its pointer.
fn untidy(value: &Value, at: &str, out: &mut Vec<String>) {
    match value {
        Value::Array(items) => {
            if items.is_empty() {
                out.push(format!("{at}: empty array"));
            }
            for (i, item) in items.iter().enumerate() {
                untidy(item, &format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (key, sub) in map {
                let here = format!("{at}/{key}");
                match (key.as_str(), sub) {
                    ("minimum" | "maximum" | "const", Value::Number(n))
                        if n.is_f64() && n.as_f64().is_some_and(|f| f.fract() == 0.0) =>
                    {
                        out.push(format!("{here}: whole number written as a float"));
                    }
                    ("enum", Value::Array(values)) if values.len() == 1 => {
                        out.push(format!("{here}: one-value enum (write const)"));
                    }
                    ("required", Value::Array(names)) => {
                        let mut seen = std::collections::BTreeSet::new();
                        for n in names {
                            if !seen.insert(n.to_string()) {
                                out.push(format!("{here}: {n} listed twice"));
                            }
                        }
                    }
                    _ => {}
                }
                untidy(sub, &here, out);
            }
            // A `when` rule's `if` needs no `required` for a key the
            // object requires anyway.
            if let (Some(Value::Array(rules)), Some(Value::Array(required))) =
                (map.get("allOf"), map.get("required"))
            {
                for (i, rule) in rules.iter().enumerate() {
                    for part in ["if", "then"] {
                        if let Some(Value::Array(names)) =
                            rule.pointer(&format!("/{part}/required"))
                            && names.iter().any(|n| required.contains(n))
                        {
                            out.push(format!("{at}/allOf/{i}/{part}/required: redundant"));
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

#[test]
fn schemas_and_exports_are_minimal() {
    let mut problems = Vec::new();
    for case in cases() {
        untidy(&case.schema, case.name, &mut problems);
        for provider in Provider::ALL {
            if let Ok(export) = export_schema(&case.schema, provider) {
                // Gemini's const-as-enum is its documented form.
                let mut found = Vec::new();
                untidy(
                    &export.schema,
                    &format!("{}.{provider}", case.name),
                    &mut found,
                );
                found.retain(|p| {
                    !(provider == Provider::Gemini && p.ends_with("one-value enum (write const)"))
                });
                problems.extend(found);
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

fn assert_meta_valid(what: &str, schema: &Value) {
    if let Err(e) = jsonschema::draft202012::meta::validate(schema) {
        panic!(
            "{what} is not a valid draft 2020-12 schema: {e} at {}",
            e.instance_path()
        );
    }
    // And it compiles, with format assertion on (as the agreement tests use it).
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|e| panic!("{what} does not compile: {e}"));
}

#[test]
fn every_schema_and_export_is_valid_draft_2020_12() {
    let mut checked = 0;
    for case in cases() {
        assert_meta_valid(case.name, &case.schema);
        checked += 1;
        for provider in Provider::ALL {
            if let Ok(export) = export_schema(&case.schema, provider) {
                assert_meta_valid(&format!("{} for {provider}", case.name), &export.schema);
                checked += 1;
            }
        }
    }
    // The files on disk too (what reviewers read and what ships).
    for file in snapshot_files(".json") {
        let value = read_snapshot(&file).unwrap_or_else(|| panic!("{file} is not JSON"));
        let schema = if file.ends_with(".schema.json") {
            value
        } else {
            value["schema"].clone()
        };
        assert_meta_valid(&file, &schema);
        checked += 1;
    }
    assert!(checked >= 6 + 5 * 3, "only {checked} schemas checked");
}

#[test]
fn the_meta_schema_check_is_not_vacuous() {
    // A schema our generator must never write: a wrong type for `minLength`.
    let broken = serde_json::json!({"type": "string", "minLength": "1"});
    assert!(!jsonschema::draft202012::meta::is_valid(&broken));
}
