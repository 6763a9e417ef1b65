//! The two versions of the vacation contract shipped under `examples/data`
//! for `contract-check --compat`: each file is exactly what its contract
//! generates (`BLESS=1 cargo test -p contract-examples --test versions`
//! rewrites them; review the diff), and the changes between them are the
//! two that `vacation::v2` documents.

// A test may unwrap: a panic here is a failure, as in `contract-tests`.
#![allow(clippy::unwrap_used)]
use std::path::PathBuf;

use contract_examples::vacation::{self, v2};
use contract_runtime::Contract;
use contract_runtime::compat::{ChangeKind, diff};
use contract_runtime::schema::version;
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

fn assert_file(name: &str, schema: &Value) {
    let path = data(name);
    let expected = format!("{}\n", serde_json::to_string_pretty(schema).unwrap());
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &expected).unwrap();
        return;
    }
    let found = std::fs::read_to_string(&path).unwrap();
    assert!(
        found == expected,
        "{} is not what the contract generates; regenerate with BLESS=1 and review the diff",
        path.display()
    );
}

#[test]
fn the_shipped_schemas_are_what_the_contracts_generate() {
    assert_file(
        "vacation.v1.schema.json",
        &vacation::VacationRequest::json_schema(),
    );
    assert_file(
        "vacation.v2.schema.json",
        &v2::VacationRequest::json_schema(),
    );
}

#[test]
fn the_versions_are_recorded_in_the_schemas() {
    // The seed declares no version: 1 by default, not written in the schema.
    assert_eq!(vacation::VacationRequest::VERSION, 1);
    assert_eq!(version(&vacation::VacationRequest::json_schema()), None);
    assert_eq!(version(&v2::VacationRequest::json_schema()), Some(2));
}

/// `#[contract(version = 2)]` reaches the schema (`x-contract-version`) but
/// not `Contract::VERSION`, which the derive leaves at its default of 1; so
/// an idempotency key (name + `VERSION` + document) says version 1 for a
/// version-2 document. Needs a change in `contract-macros` (emit
/// `const VERSION: u32 = N;`).
#[test]
fn the_version_reaches_the_contract_trait() {
    assert_eq!(v2::VacationRequest::VERSION, 2);
}

#[test]
fn v1_to_v2_tightens_a_bound_and_adds_an_optional_field() {
    let changes = diff(
        &vacation::VacationRequest::json_schema(),
        &v2::VacationRequest::json_schema(),
    );
    let got: Vec<_> = changes
        .iter()
        .map(|c| {
            (
                c.pointer.as_str(),
                c.kind,
                c.breaks_backward,
                c.breaks_forward,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "/properties/clarification_question/maxLength",
                ChangeKind::BoundTightened,
                true,
                false
            ),
            ("/properties/half_day", ChangeKind::FieldAdded, false, true),
        ]
    );
}

#[test]
fn the_directions_are_what_the_decoders_do() {
    // Backward: a stored v1 question of 400 characters fails under v2.
    let question = "q".repeat(400);
    let v1_doc = format!(
        r#"{{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":"{question}"}}"#
    );
    assert_eq!(
        vacation::VacationRequest::check(&v1_doc).kind().as_str(),
        "clarify"
    );
    let r = v2::VacationRequest::from_json(&v1_doc).unwrap_err();
    assert_eq!(r.errors[0].code, "too_long");

    // Forward: a v2 document with `half_day` fails under v1 (unknown key);
    // without the key it passes both.
    let v2_doc = r#"{"status":"complete","start_date":"2027-06-14","end_date":"2027-06-18","clarification_question":null,"half_day":true}"#;
    assert_eq!(v2::VacationRequest::check(v2_doc).kind().as_str(), "accept");
    let r = vacation::VacationRequest::from_json(v2_doc).unwrap_err();
    assert_eq!(r.errors[0].code, "unknown_key");
    assert_eq!(r.errors[0].pointer, "/half_day");
    let both = r#"{"status":"complete","start_date":"2027-06-14","end_date":"2027-06-18","clarification_question":null}"#;
    assert!(vacation::VacationRequest::from_json(both).is_ok());
    assert!(v2::VacationRequest::from_json(both).is_ok());
}
