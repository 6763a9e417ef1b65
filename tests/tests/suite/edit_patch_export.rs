//! The patch exports (`patch_schema_for`, `merge_patch_schema_for`): every
//! patch the schema takes is one the policy allows. Checked with
//! `jsonschema` over generated patches of generated baselines, for the seed
//! contract (`settings`) and a contract with a tagged union field, an
//! optional member (`add` and `remove` offered), a map and a nested
//! contract; and the shape each provider gets.
use contract_examples::settings::Settings;
use contract_examples::step::Step;
use contract_runtime::schema::Provider;
use contract_runtime::{Contract, EditPolicy};
use jsonschema::Validator;
use proptest::prelude::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A union field, an optional member, a map and a nested contract.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(edit(
    reword = ["/step", "/note", "/inner/word"],
    tags = ["/tags"],
))]
pub struct Desk {
    pub step: Step,
    #[contract(optional, max_len = 8)]
    pub note: Option<String>,
    pub tags: BTreeMap<String, u8>,
    pub inner: Inner,
    pub count: u32,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Inner {
    #[contract(max_len = 3)]
    pub word: String,
    pub on: bool,
}

fn validator(schema: &Value) -> Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(schema)
        .unwrap()
}

fn seed_baseline() -> Value {
    serde_json::from_str(contract_examples::settings::BASELINE).unwrap()
}

fn desk_baseline() -> Value {
    json!({"step": {"action": "no_action"}, "note": "hi", "tags": {"a": 1},
           "inner": {"word": "ab", "on": true}, "count": 2})
}

#[test]
fn the_seed_export_offers_exactly_the_allowed_replace() {
    let b = seed_baseline();
    let schema = Settings::DISABLE_EMAIL.patch_schema(&b);
    let v = validator(&schema);
    let ok = json!({"patch": [{"op": "replace", "path": "/notifications/email", "value": false}]});
    assert!(v.is_valid(&ok));
    assert!(v.is_valid(&json!({"patch": []})));
    for refused in [
        json!([{"op": "replace", "path": "/notifications/email", "value": false}]),
        json!({"patch": [{"op": "replace", "path": "/retry_limit", "value": 9}]}),
        json!({"patch": [{"op": "replace", "path": "/notifications/email", "value": 0}]}),
        json!({"patch": [{"op": "remove", "path": "/notifications/email"}]}),
        json!({"patch": [{"op": "test", "path": "/notifications/email", "value": true}]}),
        json!({"patch": [{"op": "replace", "path": "/notifications/email", "value": false, "x": 1}]}),
        json!({"patch": [], "other": 1}),
    ] {
        assert!(!v.is_valid(&refused), "{refused}");
    }
    let merge = validator(&Settings::DISABLE_EMAIL.merge_patch_schema(&b));
    assert!(merge.is_valid(&json!({"notifications": {"email": false}})));
    assert!(merge.is_valid(&json!({})));
    for refused in [
        json!({"notifications": {"email": null}}),
        json!({"notifications": {"email": 0}}),
        json!({"retry_limit": 9}),
        json!({"notifications": null}),
        json!({"notifications": {"email": false, "sms": true}}),
    ] {
        assert!(!merge.is_valid(&refused), "{refused}");
    }
}

#[test]
fn an_optional_member_gets_add_and_remove_and_a_union_its_schema() {
    let b = desk_baseline();
    let schema = Desk::REWORD.patch_schema(&b);
    let ops = schema["properties"]["patch"]["items"]["anyOf"]
        .as_array()
        .unwrap();
    let kinds: Vec<(&str, &str)> = ops
        .iter()
        .map(|o| {
            (
                o["properties"]["op"]["const"].as_str().unwrap(),
                o["properties"]["path"]["const"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("replace", "/step"),
            ("replace", "/note"),
            ("add", "/note"),
            ("remove", "/note"),
            ("replace", "/inner/word"),
        ]
    );
    let v = validator(&schema);
    let ask = json!({"action": "ask_customer", "question": "why?"});
    assert!(v.is_valid(&json!({"patch": [{"op": "replace", "path": "/step", "value": ask}]})));
    assert!(!v.is_valid(
        &json!({"patch": [{"op": "replace", "path": "/step", "value": {"action": "fly"}}]})
    ));
    assert!(v.is_valid(&json!({"patch": [{"op": "remove", "path": "/note"}]})));
    assert!(
        !v.is_valid(&json!({"patch": [{"op": "replace", "path": "/inner/word", "value": "long"}]}))
    );
    // Merge: a nested object of the allowed members only; `null` only for
    // the optional member.
    let merge = validator(&Desk::REWORD.merge_patch_schema(&b));
    assert!(merge.is_valid(&json!({"note": null, "inner": {"word": "x"}})));
    assert!(!merge.is_valid(&json!({"inner": {"on": false}})));
    assert!(!merge.is_valid(&json!({"inner": {"word": null}})));
    assert!(!merge.is_valid(&json!({"count": 3})));
}

#[test]
fn what_the_schema_cannot_say_is_left_to_the_check() {
    // A note the baseline lacks: `replace` and `remove` would not apply.
    let mut b = desk_baseline();
    b.as_object_mut().unwrap().remove("note");
    let export = Desk::REWORD.patch_schema_for(&b, Provider::Local).unwrap();
    let left: Vec<&str> = export
        .dropped
        .iter()
        .filter(|d| d.enforced_by.contains("the baseline has no"))
        .map(|d| d.pointer.as_str())
        .collect();
    assert_eq!(
        left,
        [
            "/properties/patch/items/anyOf/1/properties/path/const",
            "/properties/patch/items/anyOf/3/properties/path/const",
        ]
    );
    // A keyword the provider drops is still checked, on the patched document.
    let export = Desk::REWORD.patch_schema_for(&b, Provider::Gemini).unwrap();
    assert!(
        export
            .dropped
            .iter()
            .all(|d| d.enforced_by.starts_with("EditPolicy::check_patch"))
    );
    // Rules across fields judge the patched document.
    let export = Settings::DISABLE_EMAIL
        .merge_patch_schema_for(&seed_baseline(), Provider::OpenAi)
        .unwrap();
    assert_eq!(
        export.made_required,
        [
            "/properties/notifications/properties/email",
            "/properties/notifications"
        ]
    );
}

#[test]
fn every_provider_takes_the_patch_exports() {
    for p in Provider::ALL {
        for (name, export) in [
            (
                "settings patch",
                Settings::DISABLE_EMAIL.patch_schema_for(&seed_baseline(), p),
            ),
            (
                "settings merge",
                Settings::DISABLE_EMAIL.merge_patch_schema_for(&seed_baseline(), p),
            ),
            (
                "desk patch",
                Desk::REWORD.patch_schema_for(&desk_baseline(), p),
            ),
            (
                "desk merge",
                Desk::REWORD.merge_patch_schema_for(&desk_baseline(), p),
            ),
        ] {
            let export = export.unwrap_or_else(|e| panic!("{name} {p:?}: {e}"));
            assert_eq!(export.schema["type"], "object", "{name} {p:?}");
        }
        // A map's value schema goes into the patch as it is: a provider
        // that takes no map refuses the patch export as it refuses the
        // contract.
        let tags = Desk::TAGS.patch_schema_for(&desk_baseline(), p);
        assert_eq!(
            tags.is_ok(),
            contract_runtime::schema::export::<Desk>(p).is_ok(),
            "{p:?}"
        );
    }
}

/// Values a patch writes, of every type.
fn value() -> impl Strategy<Value = Value> {
    prop::sample::select(vec![
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(7),
        json!(-1),
        json!(1.5),
        json!(""),
        json!("ab"),
        json!("a long note"),
        json!([]),
        json!({}),
        json!({"a": 1}),
        json!({"a": 300}),
        json!({"action": "no_action"}),
        json!({"action": "ask_customer", "question": "why?"}),
        json!({"action": "close_ticket", "ticket_id": 0, "reason": "x"}),
        json!({"word": "x", "on": true}),
    ])
}

fn patch(paths: &'static [&'static str]) -> impl Strategy<Value = Value> {
    let op =
        (0..3usize, prop::sample::select(paths), value()).prop_map(|(k, path, value)| match k {
            0 => json!({"op": "replace", "path": path, "value": value}),
            1 => json!({"op": "add", "path": path, "value": value}),
            _ => json!({"op": "remove", "path": path}),
        });
    prop::collection::vec(op, 0..3).prop_map(|ops| json!({ "patch": ops }))
}

fn merge_patch(keys: &'static [&'static str]) -> impl Strategy<Value = Value> {
    value().prop_recursive(2, 8, 3, move |inner| {
        prop::collection::vec((prop::sample::select(keys), inner), 0..3)
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()))
    })
}

const DESK_PATHS: &[&str] = &[
    "/step",
    "/note",
    "/inner/word",
    "/inner/on",
    "/tags",
    "/count",
    "/tags/a",
];
const DESK_KEYS: &[&str] = &["step", "note", "inner", "word", "on", "tags", "count", "a"];

fn desk() -> impl Strategy<Value = Value> {
    (any::<bool>(), "[a-z]{0,3}", 0u8..3).prop_map(|(has_note, word, n)| {
        let mut b = desk_baseline();
        b["inner"]["word"] = json!(word);
        b["tags"] = json!({"a": n});
        if !has_note {
            b.as_object_mut().unwrap().remove("note");
        }
        b
    })
}

/// A patch the schema takes is accepted, unless the export leaves it to
/// the check (a path the baseline lacks).
fn sound<T: Contract>(
    policy: &EditPolicy<T>,
    b: &Value,
    p: &Value,
    merge: bool,
) -> Result<(), TestCaseError> {
    let (schema, export) = if merge {
        (
            policy.merge_patch_schema(b),
            policy.merge_patch_schema_for(b, Provider::Local).unwrap(),
        )
    } else {
        (
            policy.patch_schema(b),
            policy.patch_schema_for(b, Provider::Local).unwrap(),
        )
    };
    if !validator(&schema).is_valid(p) {
        return Ok(());
    }
    let text = p.to_string();
    let checked = if merge {
        policy.check_merge_patch(b, &text)
    } else {
        policy.check_patch(b, &text)
    };
    if let Err(r) = checked {
        let left = r.errors.iter().all(|e| e.code == "path_not_found")
            && export
                .dropped
                .iter()
                .any(|d| d.enforced_by.contains("path_not_found"));
        prop_assert!(left, "the schema takes {p} but the check refuses it: {r:?}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn a_patch_the_schema_takes_is_allowed(b in desk(), p in patch(DESK_PATHS)) {
        sound(&Desk::REWORD, &b, &p, false)?;
        sound(&Desk::TAGS, &b, &p, false)?;
    }

    #[test]
    fn a_merge_patch_the_schema_takes_is_allowed(b in desk(), p in merge_patch(DESK_KEYS)) {
        sound(&Desk::REWORD, &b, &p, true)?;
        sound(&Desk::TAGS, &b, &p, true)?;
    }
}
