//! Properties of the exports that move checks into generation.
//!
//! - Lowered `when` rules: an export that lowers them accepts exactly the
//!   documents the full schema (whose `allOf` of `if`/`then` states the
//!   rules) accepts, once the keywords the export reports as dropped are
//!   taken out of the full schema too. Documents are an accepted document
//!   with members replaced by near misses (null, the other enum values, a
//!   wrong type, an absent key), validated with `jsonschema`.
//! - Exact format patterns: the `pattern` the `local` and `openai` exports
//!   send for `date`, `date-time`, `uuid` and `email` accepts a string
//!   (read by `jsonschema`, ECMA-262) exactly when the decoder does
//!   (`Date::parse`, `DateTime::parse`, `is_uuid`, `is_email`), on
//!   generated strings around each syntax and on the decoder's own output.
//! - Pinned edit exports: every document the pinned export accepts changes
//!   only pointers the policy allows, or pointers whose pin the export
//!   reports as left to `EditPolicy::check` (`edit_pinned_export.rs` checks
//!   both directions, on recursive and map fields).

use crate::schema_support;

use std::cell::Cell;

use contract_runtime::diff::changed_paths;
use contract_runtime::formats::{is_email, is_uuid};
use contract_runtime::schema::{Export, Provider, export};
use contract_runtime::{Contract, Date, DateTime};
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

// ------------------------------------------------------------------ exact format patterns

/// Each format the decoder checks.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Formats {
    /// A date.
    pub day: Date,
    /// An instant.
    pub at: DateTime,
    /// An e-mail address.
    #[contract(format = "email")]
    pub email: String,
    /// A UUID.
    #[contract(format = "uuid")]
    pub id: String,
}

/// Near-miss pieces: mostly valid, sometimes one step out.
fn two_digits(max_valid: u32) -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (0..=max_valid + 2).prop_map(|n| format!("{n:02}")),
        1 => (0..10u32).prop_map(|n| format!("{n}")),
        1 => Just("1a".to_owned()),
    ]
}

fn date_text() -> impl Strategy<Value = String> {
    let year = prop_oneof![
        3 => (0..=9999u32).prop_map(|y| format!("{y:04}")),
        // Around the leap rules.
        3 => prop::sample::select(vec![0u32, 4, 100, 400, 1900, 2000, 2023, 2024, 2100, 9996])
            .prop_map(|y| format!("{y:04}")),
        1 => Just("202".to_owned()),
        1 => Just("20245".to_owned()),
    ];
    let month = prop_oneof![4 => (1..=12u32).prop_map(|m| format!("{m:02}")), 1 => two_digits(12)];
    let day = prop_oneof![
        4 => (28..=31u32).prop_map(|d| format!("{d:02}")),
        2 => (1..=27u32).prop_map(|d| format!("{d:02}")),
        1 => two_digits(31),
    ];
    let sep = prop_oneof![9 => Just("-"), 1 => Just("/")];
    (year, sep.clone(), month, sep, day).prop_map(|(y, a, m, b, d)| format!("{y}{a}{m}{b}{d}"))
}

fn date_time_text() -> impl Strategy<Value = String> {
    let t = prop::sample::select(vec!["T", "T", "T", "T", "t", "t", " ", "Z"]);
    let fraction = prop_oneof![
        3 => Just(String::new()),
        3 => (1..=9usize).prop_map(|n| format!(".{}", "5".repeat(n))),
        1 => (10..=11usize).prop_map(|n| format!(".{}", "1".repeat(n))),
        1 => Just(".".to_owned()),
    ];
    let offset = prop_oneof![
        3 => prop::sample::select(vec!["Z", "Z", "z", "", "+0200", "ZZ"]).prop_map(str::to_owned),
        3 => (prop::sample::select(vec!["+", "-"]), two_digits(23), two_digits(59))
            .prop_map(|(s, h, m)| format!("{s}{h}:{m}")),
    ];
    let clock = |max: u32| prop_oneof![4 => (0..=max).prop_map(|n| format!("{n:02}")), 1 => two_digits(max)];
    (
        date_text(),
        t,
        clock(23),
        clock(59),
        clock(60),
        fraction,
        offset,
    )
        .prop_map(|(d, t, h, m, s, f, o)| format!("{d}{t}{h}:{m}:{s}{f}{o}"))
}

fn uuid_text() -> impl Strategy<Value = String> {
    let group = |n: usize| {
        prop_oneof![
            6 => prop::collection::vec(prop::sample::select(b"0123456789abcdefABCDEF".to_vec()), n),
            1 => prop::collection::vec(prop::sample::select(b"0123456789abcdefg-".to_vec()), n - 1..=n + 1),
        ]
        .prop_map(|b| String::from_utf8(b).unwrap_or_default())
    };
    (
        group(8),
        group(4),
        group(4),
        group(4),
        group(12),
        prop::sample::select(vec!["-", "-", "-", ""]),
    )
        .prop_map(|(a, b, c, d, e, s)| format!("{a}-{b}-{c}{s}{d}-{e}"))
}

fn email_text() -> impl Strategy<Value = String> {
    let local = "[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.\\-\"\\[\\] (),:;<>@]{0,6}";
    let label = prop_oneof![
        6 => "[a-zA-Z0-9]([a-zA-Z0-9-]{0,3}[a-zA-Z0-9])?",
        1 => "-[a-z]{1,3}|[a-z]{1,3}-|\\[127\\.0\\.0\\.1\\]|[a-zé_]{0,3}",
        1 => Just("a".repeat(63)),
        1 => Just("b".repeat(64)),
    ];
    (
        local,
        prop::collection::vec(label, 1..4),
        prop::sample::select(vec!["@", "@", "@", "", "@@"]),
    )
        .prop_map(|(l, labels, at)| format!("{l}{at}{}", labels.join(".")))
}

/// The exact pattern `export` sends for `name`.
fn exported_pattern(export: &Export, name: &str) -> Validator {
    let pattern = &export.schema["properties"][name]["pattern"];
    assert!(
        pattern.is_string(),
        "{:?} {name}: {pattern}",
        export.provider
    );
    validator(&json!({"type": "string", "pattern": pattern}))
}

#[test]
fn exact_format_patterns_accept_exactly_what_the_decoder_accepts() {
    type Decides = fn(&str) -> bool;
    let checks: [(&str, Decides, BoxedStrategy<String>); 4] = [
        ("day", |s| Date::parse(s).is_ok(), date_text().boxed()),
        (
            "at",
            |s| DateTime::parse(s).is_ok(),
            date_time_text().boxed(),
        ),
        ("id", is_uuid, uuid_text().boxed()),
        ("email", is_email, email_text().boxed()),
    ];
    for provider in [Provider::Local, Provider::OpenAi] {
        let e = export::<Formats>(provider).unwrap();
        assert!(e.dropped.is_empty(), "{provider}: {:?}", e.dropped);
        for (name, decides, strategy) in &checks {
            let pattern = exported_pattern(&e, name);
            let (accepted, refused) = (Cell::new(0u32), Cell::new(0u32));
            let mut runner = TestRunner::new(Config {
                cases: 2000,
                rng_seed: RngSeed::Fixed(0xf0_4a7 ^ name.len() as u64),
                failure_persistence: None,
                ..Config::default()
            });
            let result = runner.run(strategy, |text| {
                let decoder = decides(&text);
                if decoder {
                    accepted.set(accepted.get() + 1);
                } else {
                    refused.set(refused.get() + 1);
                }
                prop_assert_eq!(
                    pattern.is_valid(&json!(text)),
                    decoder,
                    "{} {}: {:?}",
                    provider,
                    name,
                    text
                );
                Ok(())
            });
            if let Err(e) = result {
                panic!("{e}");
            }
            // Both sides of each syntax were tried.
            assert!(
                accepted.get() > 100 && refused.get() > 100,
                "{provider} {name}: {} accepted, {} refused",
                accepted.get(),
                refused.get()
            );
        }
    }
}

#[test]
fn exact_format_patterns_accept_every_date_the_decoder_writes() {
    let e = export::<Formats>(Provider::Local).unwrap();
    let (day, at) = (exported_pattern(&e, "day"), exported_pattern(&e, "at"));
    // Every day of the years around 2000 and of each leap rule's years.
    let years = (1890..=2110).chain([0, 4, 96, 100, 400, 1600, 1700, 2400, 9996, 9999]);
    for year in years {
        for month in 1..=12 {
            for d in 1..=Date::days_in_month(year, month) {
                let text = Date::new(year, month, d).unwrap().to_string();
                assert!(day.is_valid(&json!(text)), "{text}");
                let instant = format!("{text}T23:59:59.999999999-23:59");
                assert!(at.is_valid(&json!(instant)), "{instant}");
            }
        }
    }
}
