//! A pinned edit export (`EditPolicy::json_schema_for`) and the edit check
//! (`EditPolicy::check`) agree: a candidate is accepted by the check if and
//! only if the pinned export accepts it, except where the export reports a
//! pin as dropped (left to the check's `change_not_allowed`). Checked on a
//! contract with a map field, a recursive (`Box`ed) field and a float
//! field pinned at `1.0` (JSON Schema's `const` takes `1` for it, which the
//! export reports as left to the check), with policies
//! that name them as a whole, that name a nested contract's field, and that
//! step into a nested contract; candidates are the baseline with values
//! replaced, added or removed anywhere in it, validated with `jsonschema`.
use std::cell::Cell;
use std::collections::BTreeMap;

use contract_runtime::schema::{Export, LOCAL_ONLY, Provider};
use contract_runtime::{Contract, EditPolicy, Stage};
use jsonschema::Validator;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use serde_json::{Value, json};

/// A nested contract held by value.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Inner {
    /// A flag.
    pub on: bool,
    /// A short word.
    #[contract(max_len = 3)]
    pub word: String,
}

/// A recursive chain with a map at every link.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(edit(
    tags = ["/m"],
    tail = ["/next"],
    tags_and_tail = ["/m", "/next", "/v"],
    flag = ["/inner/on"],
    inner = ["/inner"],
))]
pub struct Chain {
    /// A small count.
    #[contract(max = 9)]
    pub v: u8,
    /// A weight: a float, pinned as written.
    pub w: f64,
    /// Named counts.
    pub m: BTreeMap<String, u8>,
    /// A nested contract.
    pub inner: Inner,
    /// The next link, null, or absent (so that Gemini takes the cycle).
    #[contract(optional)]
    pub next: Option<Box<Chain>>,
}

fn baseline() -> Value {
    json!({
        "v": 1, "w": 1.0, "m": {"a": 1, "b": 2}, "inner": {"on": true, "word": "ab"},
        "next": {"v": 2, "w": 2.5, "m": {"a": 3}, "inner": {"on": false, "word": "c"}, "next": null}
    })
}

/// Where a value is replaced, added or removed.
const SLOTS: [&str; 16] = [
    "/v",
    "/w",
    "/next/w",
    "/m",
    "/m/a",
    "/m/c",
    "/inner",
    "/inner/on",
    "/inner/word",
    "/next",
    "/next/v",
    "/next/m",
    "/next/m/a",
    "/next/m/z",
    "/next/inner/on",
    "/next/next",
];

/// What a slot takes: near misses of every kind; `None` removes it.
fn pool() -> Vec<Option<Value>> {
    [
        json!(0),
        json!(1),
        json!(3),
        json!(10),
        json!(300),
        json!(1.0),
        json!(2.5),
        json!(true),
        json!(false),
        json!("ab"),
        json!("abcd"),
        Value::Null,
        json!({}),
        json!({"a": 1}),
        json!({"on": true, "word": "ab"}),
        json!({"v": 1, "w": 0.5, "m": {}, "inner": {"on": true, "word": ""}, "next": null}),
        json!([1]),
    ]
    .into_iter()
    .map(Some)
    .chain([None])
    .collect()
}

/// `doc` with the member at `pointer` set to `value` (added if absent) or
/// removed; nothing when its parent is not an object.
fn set(doc: &mut Value, pointer: &str, value: Option<Value>) {
    let Some((parent, key)) = pointer.rsplit_once('/') else {
        return;
    };
    if let Some(Value::Object(map)) = doc.pointer_mut(parent) {
        match value {
            Some(value) => map.insert(key.to_owned(), value),
            None => map.remove(key),
        };
    }
}

fn validator(schema: &Value) -> Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(schema)
        .unwrap()
}

/// The document pointers whose pin the export leaves to the check.
fn left_to_the_check(export: &Export) -> Vec<String> {
    export
        .dropped
        .iter()
        .filter(|d| d.enforced_by.contains("change_not_allowed"))
        .filter_map(|d| d.enforced_by.rsplit('`').nth(1).map(str::to_owned))
        .collect()
}

/// Whether the check refused `1.0` for an integer field: what every export
/// leaves local (`schema::LOCAL_ONLY`'s `integer_syntax`).
fn integer_syntax(doc: &Value, code: &str, pointer: &str) -> bool {
    let float = doc.pointer(pointer).and_then(Value::as_number);
    code == "invalid_type"
        && float.is_some_and(|n| n.is_f64())
        && LOCAL_ONLY.iter().any(|c| c.name == "integer_syntax")
}

fn agrees(policy: EditPolicy<Chain>, provider: Provider) {
    let base = baseline();
    let export = policy.json_schema_for(&base, provider).unwrap();
    let reported = left_to_the_check(&export);
    let left_local: Vec<&str> = export
        .dropped
        .iter()
        .map(|d| d.enforced_by.as_str())
        .filter(|e| !e.contains("change_not_allowed"))
        .collect();
    let pinned = validator(&export.schema);
    let pool = pool();
    let (accepted, refused) = (Cell::new(0), Cell::new(0));
    let config = Config {
        cases: 2000,
        rng_seed: RngSeed::Fixed(0xed17 ^ policy.name().len() as u64),
        failure_persistence: None,
        ..Config::default()
    };
    let name = policy.name();
    let result = TestRunner::new(config).run(
        &proptest::collection::vec(any::<u32>(), SLOTS.len()),
        |tape| {
            let mut doc = base.clone();
            for (slot, draw) in SLOTS.iter().zip(&tape) {
                // One slot in six is touched.
                if draw % 6 == 0 {
                    set(&mut doc, slot, pool[(draw / 6) as usize % pool.len()].clone());
                }
            }
            let by_export = pinned.is_valid(&doc);
            let by_check = policy.check(&base, &doc.to_string());
            let tally = if by_check.is_ok() { &accepted } else { &refused };
            tally.set(tally.get() + 1);
            match (&by_check, by_export) {
                (Ok(_), true) => Ok(()),
                (Ok(_), false) => Err(TestCaseError::fail(format!(
                    "{name} for {provider}: the check accepts, the export refuses {doc}"
                ))),
                (Err(rejection), true) => {
                    // Only pins the export reports as left to the check, and
                    // codes of keywords it reports as dropped.
                    let syntax: Vec<&str> = rejection
                        .errors
                        .iter()
                        .filter(|e| integer_syntax(&doc, e.code, &e.pointer))
                        .map(|e| e.pointer.as_str())
                        .collect();
                    let unexplained = rejection.errors.iter().find(|e| match e.stage {
                        Stage::Edit => {
                            !reported.contains(&e.pointer.to_string()) && !syntax.contains(&e.pointer.as_str())
                        }
                        _ => {
                            !left_local.iter().any(|d| d.contains(&format!("`{}`", e.code)))
                                && !integer_syntax(&doc, e.code, &e.pointer)
                        }
                    });
                    match unexplained {
                        None => Ok(()),
                        Some(e) => Err(TestCaseError::fail(format!(
                            "{name} for {provider}: the export accepts, the check refuses ({:?} `{}` at `{}`) {doc}",
                            e.stage, e.code, e.pointer
                        ))),
                    }
                }
                (Err(_), false) => Ok(()),
            }
        },
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    let (accepted, refused) = (accepted.get(), refused.get());
    assert!(
        accepted > 30 && refused > 30,
        "{name} for {provider}: {accepted} accepted, {refused} refused"
    );
}

#[test]
fn a_pinned_export_accepts_exactly_what_the_edit_check_accepts_for_local() {
    for policy in Chain::edit_policies() {
        agrees(*policy, Provider::Local);
    }
}

#[test]
fn a_pinned_export_accepts_exactly_what_the_edit_check_accepts_for_gemini() {
    for policy in Chain::edit_policies() {
        agrees(*policy, Provider::Gemini);
    }
}

/// The dropped entry for the `const` at `schema_pointer`, if any.
fn dropped_const<'e>(export: &'e Export, schema_pointer: &str) -> Option<&'e str> {
    export
        .dropped
        .iter()
        .find(|d| d.pointer == schema_pointer && d.keyword == "const")
        .map(|d| d.enforced_by.as_str())
}

#[test]
fn a_pinned_float_with_a_zero_fraction_is_left_to_the_check() {
    let export = Chain::TAGS
        .json_schema_for(&baseline(), Provider::Local)
        .unwrap();
    assert_eq!(export.schema["properties"]["w"]["const"], json!(1.0));
    let enforced = dropped_const(&export, "/properties/w/const").unwrap();
    assert!(
        enforced.ends_with("`change_not_allowed` at `/w`"),
        "{enforced}"
    );
    // The schema takes `1` for `1.0`; the check refuses it.
    let mut doc = baseline();
    doc["w"] = json!(1);
    assert!(validator(&export.schema).is_valid(&doc));
    let rejection = Chain::TAGS
        .check(&baseline(), &doc.to_string())
        .unwrap_err();
    let codes: Vec<(Stage, &str, &str)> = rejection
        .errors
        .iter()
        .map(|e| (e.stage, e.pointer.as_str(), e.code))
        .collect();
    assert_eq!(codes, [(Stage::Edit, "/w", "change_not_allowed")]);
}

#[test]
fn a_pinned_float_with_a_fraction_and_a_pinned_integer_field_are_not_left_to_the_check() {
    let export = Chain::TAGS
        .json_schema_for(&baseline(), Provider::Local)
        .unwrap();
    // `2.5` has one written form; an integer field refuses `1.0` itself.
    assert_eq!(
        dropped_const(&export, "/properties/next/properties/w/const"),
        None
    );
    assert_eq!(dropped_const(&export, "/properties/v/const"), None);
}
