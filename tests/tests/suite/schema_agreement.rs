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
use crate::schema_support;

use std::cell::RefCell;
use std::collections::BTreeMap;

use contract_runtime::Rejection;
use contract_runtime::schema::{Provider, RULES_KEY, export_schema};
use jsonschema::Validator;
use jsonschema::error::ValidationErrorKind;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use schema_support::documents::{Doc, bound, generate, resolve, types};
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
