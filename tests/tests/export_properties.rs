//! Properties of the exports that move checks into generation.
//!
//! - Lowered `when` rules: an export that lowers them accepts exactly the
//!   documents the full schema (whose `allOf` of `if`/`then` states the
//!   rules) accepts, once the keywords the export reports as dropped are
//!   taken out of the full schema too. Documents are an accepted document
//!   with members replaced by near misses (null, the other enum values, a
//!   wrong type, an absent key), validated with `jsonschema`.
//! - Pinned edit exports: every document the pinned export accepts changes
//!   only pointers the policy allows, or pointers whose pin the export
//!   reports as left to `EditPolicy::check` (`edit_pinned_export.rs` checks
//!   both directions, on recursive and map fields).

mod schema_support;

use std::cell::Cell;

use contract_runtime::diff::changed_paths;
use contract_runtime::schema::{Export, Provider, export};
use contract_runtime::{Contract, Date};
use jsonschema::Validator;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use schema_support::{Settings, VacationRequest};
use serde_json::{Value, json};

/// How a rule's condition is picked.
#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
pub enum Mode {
    /// First.
    A,
    /// Second.
    B,
    /// Third.
    C,
    /// Fourth.
    D,
}

/// Rules that overlap (`a` triggers both) and leave values untouched (`c`,
/// `d`).
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    when(mode = Mode::A, require(x), forbid(y)),
    when(mode in [Mode::A, Mode::B], require(z)),
)]
pub struct Overlap {
    /// The condition.
    pub mode: Mode,
    /// Text.
    #[contract(min_len = 1, max_len = 3)]
    pub x: Option<String>,
    /// A number.
    #[contract(max = 9)]
    pub y: Option<u8>,
    /// A flag.
    pub z: Option<bool>,
}

/// An optional condition field, and a boolean one.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    when(mode = Mode::C, forbid(note)),
    when(mode in [Mode::A, Mode::B], require(day)),
)]
pub struct OptionalCondition {
    /// Absent, null or a mode.
    #[contract(optional)]
    pub mode: Option<Mode>,
    /// A note.
    #[contract(optional)]
    pub note: Option<String>,
    /// A day.
    pub day: Option<Date>,
}

/// A boolean condition.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(when(urgent = true, require(reason)))]
pub struct BooleanCondition {
    /// Whether it is urgent.
    pub urgent: bool,
    /// Why.
    pub reason: Option<String>,
}

fn validator(schema: &Value) -> Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(schema)
        .unwrap()
}

/// The full schema without the keywords the export dropped.
fn without_dropped(full: &Value, export: &Export) -> Value {
    let mut out = full.clone();
    for d in &export.dropped {
        let Some((parent, _)) = d.pointer.rsplit_once('/') else {
            continue;
        };
        if let Some(Value::Object(map)) = out.pointer_mut(parent) {
            map.remove(&d.keyword);
        }
    }
    out
}

/// The values a member may be replaced with: near misses of every kind.
fn pool(full: &Value) -> Vec<Value> {
    let mut values = vec![
        Value::Null,
        json!(""),
        json!("abc"),
        json!("abcd"),
        json!("2027-06-01"),
        json!(0),
        json!(7),
        json!(300),
        json!(true),
        json!(false),
    ];
    for prop in full["properties"].as_object().into_iter().flatten() {
        for v in prop.1["enum"].as_array().into_iter().flatten() {
            if !values.contains(v) {
                values.push(v.clone());
            }
        }
    }
    values
}

/// `base` with members replaced or removed as `tape` says.
fn mutate(base: &Value, pool: &[Value], tape: &[u32]) -> Value {
    let mut doc = base.clone();
    let Value::Object(map) = &mut doc else {
        return doc;
    };
    let names: Vec<String> = map.keys().cloned().collect();
    for (name, draw) in names.iter().zip(tape) {
        // One member in three is replaced (or removed).
        if draw % 3 != 0 {
            continue;
        }
        match pool.get((draw / 3) as usize % (pool.len() + 1)) {
            Some(value) => map.insert(name.clone(), value.clone()),
            None => map.remove(name),
        };
    }
    doc
}

fn lowered_agrees(name: &str, full: &Value, base: &Value, provider: Provider, lowered: bool) {
    let export = contract_runtime::schema::export_schema(full, provider).unwrap();
    assert_eq!(
        !export.lowered.is_empty(),
        lowered,
        "{name} for {provider}: lowered"
    );
    let reference = validator(&without_dropped(full, &export));
    let exported = validator(&export.schema);
    let pool = pool(full);
    let config = Config {
        cases: 2000,
        rng_seed: RngSeed::Fixed(0x1000_u64 ^ name.len() as u64),
        failure_persistence: None,
        ..Config::default()
    };
    let (accepted, refused) = (Cell::new(0), Cell::new(0));
    let result = TestRunner::new(config).run(&proptest::collection::vec(any::<u32>(), 8), |tape| {
        let doc = mutate(base, &pool, &tape);
        let (want, got) = (reference.is_valid(&doc), exported.is_valid(&doc));
        let tally = if want { &accepted } else { &refused };
        tally.set(tally.get() + 1);
        if want == got {
            Ok(())
        } else {
            Err(TestCaseError::fail(format!(
                "{name} for {provider}: full schema {want}, export {got}: {doc}"
            )))
        }
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let (accepted, refused) = (accepted.get(), refused.get());
    assert!(
        accepted > 50 && refused > 50,
        "{name}: {accepted} accepted, {refused} refused"
    );
}

#[test]
fn lowered_when_rules_accept_exactly_what_the_rules_accept() {
    let cases = [
        (
            "vacation",
            VacationRequest::json_schema(),
            json!({"status": "complete", "start_date": "2027-06-01", "end_date": "2027-06-01", "clarification_question": null}),
        ),
        (
            "overlap",
            Overlap::json_schema(),
            json!({"mode": "a", "x": "abc", "y": null, "z": true}),
        ),
        (
            "optional-condition",
            OptionalCondition::json_schema(),
            json!({"mode": "a", "note": "abc", "day": "2027-06-01"}),
        ),
    ];
    for (name, full, base) in &cases {
        for provider in [Provider::Gemini, Provider::Anthropic, Provider::Local] {
            lowered_agrees(name, full, base, provider, true);
        }
    }
}

#[test]
fn openai_keeps_the_rules_local_at_the_root_and_says_them() {
    let e = export::<VacationRequest>(Provider::OpenAi).unwrap();
    assert!(e.lowered.is_empty());
    assert!(e.dropped.iter().any(|d| d.pointer == "/allOf"));
    let description = e.schema["description"].as_str().unwrap();
    for sentence in [
        "When status is complete, start_date and end_date are required and clarification_question must be null.",
        "When status is needs_clarification, clarification_question is required.",
        "When status is not_a_request, start_date and end_date must be null.",
        "end_date is not before start_date.",
    ] {
        assert!(description.contains(sentence), "{description}");
    }
    // A lowered export states only what stays local.
    let gemini = export::<VacationRequest>(Provider::Gemini).unwrap();
    let description = gemini.schema["description"].as_str().unwrap();
    assert!(
        description.ends_with("\n\nend_date is not before start_date."),
        "{description}"
    );
    assert!(!description.contains("When status"));
}

#[test]
fn a_condition_gemini_cannot_state_stays_local() {
    // Gemini has no boolean const or enum: the branches would overlap.
    let full = BooleanCondition::json_schema();
    let base = json!({"urgent": true, "reason": "abc"});
    lowered_agrees("boolean", &full, &base, Provider::Gemini, false);
    for provider in [Provider::Anthropic, Provider::Local] {
        lowered_agrees("boolean", &full, &base, provider, true);
    }
}

#[test]
fn a_pinned_edit_export_admits_only_allowed_changes() {
    let baseline =
        json!({"notifications": {"email": true}, "retry_limit": 3, "channels": ["email", "sms"]});
    let policy = Settings::DISABLE_EMAIL;
    let pool = [
        json!(true),
        json!(false),
        json!(3),
        json!(4),
        json!(["email", "sms"]),
        json!(["sms"]),
        json!({"email": false}),
        json!({"email": true}),
        Value::Null,
    ];
    for provider in Provider::ALL {
        let export = policy.json_schema_for(&baseline, provider).unwrap();
        let reported: Vec<String> = export
            .dropped
            .iter()
            .filter(|d| d.enforced_by.contains("change_not_allowed"))
            .filter_map(|d| d.enforced_by.rsplit('`').nth(1).map(str::to_owned))
            .collect();
        let pinned = validator(&export.schema);
        let accepted = Cell::new(0);
        let config = Config {
            cases: 1500,
            rng_seed: RngSeed::Fixed(0x9_1ed),
            failure_persistence: None,
            ..Config::default()
        };
        let result =
            TestRunner::new(config).run(&proptest::collection::vec(any::<u32>(), 4), |tape| {
                let mut doc = baseline.clone();
                let slots = [
                    "/notifications/email",
                    "/retry_limit",
                    "/channels",
                    "/notifications",
                ];
                for (slot, draw) in slots.iter().zip(&tape) {
                    if draw % 2 == 0 {
                        continue;
                    }
                    let value = pool[(draw / 2) as usize % pool.len()].clone();
                    if let Some(target) = doc.pointer_mut(slot) {
                        *target = value;
                    }
                }
                if !pinned.is_valid(&doc) {
                    return Ok(());
                }
                accepted.set(accepted.get() + 1);
                for changed in changed_paths(&baseline, &doc) {
                    if !policy.allows(&changed) && !reported.contains(&changed) {
                        return Err(TestCaseError::fail(format!(
                            "{provider}: {changed} changed in {doc}"
                        )));
                    }
                }
                Ok(())
            });
        if let Err(e) = result {
            panic!("{e}");
        }
        assert!(
            accepted.get() > 10,
            "{provider}: {} accepted",
            accepted.get()
        );
    }
}

#[test]
fn gemini_reports_the_pins_it_cannot_state() {
    let baseline =
        json!({"notifications": {"email": true}, "retry_limit": 3, "channels": ["email", "sms"]});
    let export = Settings::DISABLE_EMAIL
        .json_schema_for(&baseline, Provider::Gemini)
        .unwrap();
    let channels = export
        .dropped
        .iter()
        .find(|d| d.pointer == "/properties/channels/const")
        .unwrap();
    assert!(
        channels
            .enforced_by
            .contains("`change_not_allowed` at `/channels`")
    );
    assert_eq!(
        export.schema["properties"]["retry_limit"]["enum"],
        json!([3])
    );
}
