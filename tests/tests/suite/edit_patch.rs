//! `check_patch(b, p)` and `check(b, text of apply(b, p))` give the same
//! outcome, errors and `changed`, and so do `check_merge_patch` and `check`
//! of the merged text, over generated baselines of the seed contract
//! (`settings`) and of a contract holding a tagged union, and generated
//! patches (many of which do not apply). The patched document is computed
//! by the `json-patch` crate, an independent implementation, which must
//! agree on whether each patch applies and on its result. An approval from
//! a patch is bound to its baseline as a full edit's is.
use contract_examples::settings::Settings;
use contract_examples::step::{Refund, Step};
use contract_runtime::{Contract, Edit, EditPolicy, Rejection};
use proptest::prelude::*;
use serde_json::{Value, json};

/// A tagged union as a field, and an optional member (`add`/`remove`).
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(edit(reword = ["/step/reason", "/step/question", "/note"], replan = ["/step"]))]
pub struct Plan {
    pub step: Step,
    #[contract(optional, max_len = 8)]
    pub note: Option<String>,
}

fn settings() -> impl Strategy<Value = Value> {
    (
        any::<bool>(),
        0u32..12,
        prop::collection::vec(prop::sample::select(vec!["email", "sms", "a/b", "~"]), 0..3),
    )
        .prop_map(|(email, retry, channels)| {
            json!({"notifications": {"email": email}, "retry_limit": retry, "channels": channels})
        })
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (1u64..9, "[a-z]{1,4}")
            .prop_map(|(ticket_id, reason)| Step::CloseTicket { ticket_id, reason }),
        (1u64..9, 0u32..50, 0u32..50).prop_map(|(order_id, refund_cents, order_total_cents)| {
            Step::Refund(Refund {
                order_id,
                refund_cents,
                order_total_cents,
            })
        }),
        "[a-z?]{1,5}".prop_map(|question| Step::AskCustomer { question }),
        Just(Step::NoAction),
    ]
}

fn plan() -> impl Strategy<Value = Value> {
    (step(), prop::option::of(prop::option::of("[a-z]{0,9}"))).prop_map(|(step, note)| {
        let mut plan = json!({"step": step.to_json()});
        if let Some(note) = note {
            plan["note"] = json!(note);
        }
        plan
    })
}

/// Values a patch writes: of every type, some the contracts take.
fn value() -> impl Strategy<Value = Value> {
    prop::sample::select(vec![
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(3),
        json!(9),
        json!(-1),
        json!(1.5),
        json!(""),
        json!("x"),
        json!("email"),
        json!("a long note"),
        json!([]),
        json!(["sms"]),
        json!({}),
        json!({"email": false}),
        json!({"action": "no_action"}),
        json!({"action": "ask_customer", "question": "why?"}),
        json!("close_ticket"),
    ])
}

fn operation(paths: &'static [&'static str]) -> impl Strategy<Value = Value> {
    let path = prop::sample::select(paths);
    (0..6usize, path.clone(), path, value()).prop_map(|(op, path, from, value)| match op {
        0 => json!({"op": "add", "path": path, "value": value}),
        1 => json!({"op": "remove", "path": path}),
        2 => json!({"op": "replace", "path": path, "value": value}),
        3 => json!({"op": "move", "from": from, "path": path}),
        4 => json!({"op": "copy", "from": from, "path": path}),
        _ => json!({"op": "test", "path": path, "value": value}),
    })
}

/// A patch's text: the array, or the `{"patch": [..]}` form.
fn patch(paths: &'static [&'static str]) -> impl Strategy<Value = (Value, String)> {
    (prop::collection::vec(operation(paths), 0..4), any::<bool>()).prop_map(|(ops, wrapped)| {
        let ops = Value::Array(ops);
        let text = if wrapped {
            json!({"patch": ops}).to_string()
        } else {
            ops.to_string()
        };
        (ops, text)
    })
}

const SETTINGS_PATHS: &[&str] = &[
    "",
    "/notifications",
    "/notifications/email",
    "/notifications/sms",
    "/retry_limit",
    "/channels",
    "/channels/0",
    "/channels/1",
    "/channels/-",
    "/channels/01",
    "/a~1b",
    "/x",
];

const PLAN_PATHS: &[&str] = &[
    "/step",
    "/step/action",
    "/step/reason",
    "/step/question",
    "/step/ticket_id",
    "/step/refund_cents",
    "/note",
    "/nope",
    "/step/~0",
];

/// The patched document by `json-patch`, or `None` when it does not apply.
fn theirs(baseline: &Value, ops: &Value) -> Option<Value> {
    let patch: json_patch::Patch = serde_json::from_value(ops.clone()).ok()?;
    // One operation at a time, on a copy: json-patch 4.2.0's own undo of a
    // failed patch panics when it undoes a `move` (`unable to undo applied
    // patches`).
    let mut doc = baseline.clone();
    for op in patch.0 {
        json_patch::patch(&mut doc, &json_patch::Patch(vec![op])).ok()?;
    }
    Some(doc)
}

fn equivalent<T: Contract + PartialEq + Clone + std::fmt::Debug>(
    policy: &EditPolicy<T>,
    baseline: &Value,
    ops: &Value,
    text: &str,
) -> Result<(), TestCaseError> {
    let by_patch = policy.check_patch(baseline, text);
    let applied = policy.apply_patch(baseline, text);
    match (theirs(baseline, ops), applied) {
        (Some(doc), Ok(ours)) => {
            prop_assert_eq!(serde_json::from_str::<Value>(&ours).unwrap(), doc.clone());
            prop_assert_eq!(&by_patch, &policy.check(baseline, &ours));
            same_judgement(&by_patch, &policy.check(baseline, &doc.to_string()))?;
            if let Ok(edit) = &by_patch {
                bound_to_baseline(edit, baseline)?;
            }
        }
        (None, Err(rejection)) => prop_assert_eq!(by_patch, Err(rejection)),
        (theirs, ours) => {
            return Err(TestCaseError::fail(format!(
                "json-patch {theirs:?}, ours {ours:?}, for {ops} on {baseline}"
            )));
        }
    }
    Ok(())
}

/// The same judgement of two texts of one document, whose members may be
/// in another order (json-patch removes a member with `swap_remove`): the
/// same edit, or the same errors in some order.
fn same_judgement<T: PartialEq + std::fmt::Debug>(
    a: &Result<Edit<T>, Rejection>,
    b: &Result<Edit<T>, Rejection>,
) -> Result<(), TestCaseError> {
    match (a, b) {
        (Ok(a), Ok(b)) => {
            prop_assert_eq!(&a.value, &b.value);
            prop_assert_eq!(&a.changed, &b.changed);
            prop_assert_eq!(&a.candidate, &b.candidate);
        }
        (Err(a), Err(b)) => {
            let sorted = |r: &Rejection| {
                let mut errors: Vec<String> = r.errors.iter().map(|e| format!("{e:?}")).collect();
                errors.sort();
                errors
            };
            prop_assert_eq!(sorted(a), sorted(b));
        }
        _ => return Err(TestCaseError::fail(format!("{a:?} against {b:?}"))),
    }
    Ok(())
}

/// An approval holds against its baseline only.
fn bound_to_baseline<T: Clone>(edit: &Edit<T>, baseline: &Value) -> Result<(), TestCaseError> {
    prop_assert!(edit.clone().apply_if_current(baseline).is_ok());
    let mut other = baseline.clone();
    other["moved_on"] = json!(true);
    prop_assert!(edit.clone().apply_if_current(&other).is_err());
    Ok(())
}

/// Merge patches over the members of `keys`, `null` among the values.
fn merge_patch(keys: &'static [&'static str]) -> impl Strategy<Value = Value> {
    let leaf = value();
    leaf.prop_recursive(2, 8, 3, move |inner| {
        prop::collection::vec((prop::sample::select(keys), inner), 0..3).prop_map(|members| {
            Value::Object(
                members
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect(),
            )
        })
    })
}

fn merge_equivalent<T: Contract + PartialEq + Clone + std::fmt::Debug>(
    policy: &EditPolicy<T>,
    baseline: &Value,
    patch: &Value,
) -> Result<(), TestCaseError> {
    let text = patch.to_string();
    let by_merge = policy.check_merge_patch(baseline, &text);
    let mut doc = baseline.clone();
    json_patch::merge(&mut doc, patch);
    let ours: Value =
        serde_json::from_str(&policy.apply_merge_patch(baseline, &text).unwrap()).unwrap();
    prop_assert_eq!(&ours, &doc);
    let text_of_ours = policy.apply_merge_patch(baseline, &text).unwrap();
    prop_assert_eq!(&by_merge, &policy.check(baseline, &text_of_ours));
    same_judgement(&by_merge, &policy.check(baseline, &doc.to_string()))?;
    if let Ok(edit) = &by_merge {
        bound_to_baseline(edit, baseline)?;
    }
    Ok(())
}

const SETTINGS_KEYS: &[&str] = &["notifications", "email", "retry_limit", "channels", "x"];
const PLAN_KEYS: &[&str] = &["step", "action", "reason", "question", "note", "ticket_id"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn settings_patch_is_judged_as_its_result((b, (ops, text)) in (settings(), patch(SETTINGS_PATHS))) {
        equivalent(&Settings::DISABLE_EMAIL, &b, &ops, &text)?;
    }

    #[test]
    fn union_patch_is_judged_as_its_result((b, (ops, text)) in (plan(), patch(PLAN_PATHS))) {
        equivalent(&Plan::REWORD, &b, &ops, &text)?;
        equivalent(&Plan::REPLAN, &b, &ops, &text)?;
    }

    #[test]
    fn settings_merge_patch_is_judged_as_its_result(b in settings(), p in merge_patch(SETTINGS_KEYS)) {
        merge_equivalent(&Settings::DISABLE_EMAIL, &b, &p)?;
    }

    #[test]
    fn union_merge_patch_is_judged_as_its_result(b in plan(), p in merge_patch(PLAN_KEYS)) {
        merge_equivalent(&Plan::REWORD, &b, &p)?;
        merge_equivalent(&Plan::REPLAN, &b, &p)?;
    }
}

fn seed_baseline() -> Value {
    serde_json::from_str(contract_examples::settings::BASELINE).unwrap()
}

fn codes(r: &Rejection) -> Vec<(&str, &str, &str)> {
    r.errors
        .iter()
        .map(|e| (e.stage.as_str(), e.pointer.as_str(), e.code))
        .collect()
}

#[test]
fn a_test_or_an_unchanged_replace_changes_nothing_and_a_move_both_ends() {
    let b = seed_baseline();
    let p = Settings::DISABLE_EMAIL;
    let edit = p
        .check_patch(&b, r#"[{"op":"test","path":"/retry_limit","value":3},{"op":"replace","path":"/retry_limit","value":3}]"#)
        .unwrap();
    assert!(edit.changed.is_empty());
    let r = p
        .check_patch(
            &b,
            r#"[{"op":"move","from":"/retry_limit","path":"/notifications/retry"}]"#,
        )
        .unwrap_err();
    assert_eq!(
        codes(&r),
        [
            ("schema", "/notifications/retry", "unknown_key"),
            ("schema", "/retry_limit", "missing_key"),
            ("edit", "/notifications/retry", "change_not_allowed"),
            ("edit", "/retry_limit", "change_not_allowed"),
        ]
    );
    assert_eq!(
        r,
        p.check(
            &b,
            r#"{"notifications":{"email":true,"retry":3},"channels":["email","sms"]}"#
        )
        .unwrap_err()
    );
}

#[test]
fn merge_patch_cannot_set_null() {
    // `null` removes the member: for a required field, `missing_key`.
    let b = json!({"step": {"action": "ask_customer", "question": "why?"}, "note": "hi"});
    let r = Plan::REWORD
        .check_merge_patch(&b, r#"{"note":null}"#)
        .unwrap();
    assert_eq!(r.changed, ["/note"]);
    assert_eq!(r.value.note, None);
    // A JSON Patch sets the optional member to `null` instead.
    let e = Plan::REWORD
        .check_patch(&b, r#"[{"op":"replace","path":"/note","value":null}]"#)
        .unwrap();
    assert_eq!(e.value.note, None);
    assert_eq!(e.changed, ["/note"]);
    assert_ne!(e.candidate, r.candidate, "present as null is not absent");
}

#[test]
fn a_patch_approved_against_one_baseline_is_refused_against_another() {
    let b = seed_baseline();
    let edit = Settings::DISABLE_EMAIL
        .check_patch(
            &b,
            r#"[{"op":"replace","path":"/notifications/email","value":false}]"#,
        )
        .unwrap();
    let now = json!({"notifications":{"email":true},"retry_limit":4,"channels":["email","sms"]});
    let stale = edit.clone().apply_if_current(&now).unwrap_err();
    assert_eq!(stale.approved, edit.baseline);
    assert!(!edit.apply_if_current(&b).unwrap().notifications.email);
}

#[test]
fn a_patched_document_over_the_size_limit_is_refused_as_the_full_text_would_be() {
    let b = seed_baseline();
    let long = "x".repeat(contract_examples::settings::Settings::LIMITS.max_bytes);
    let text = json!([{"op": "add", "path": "/channels/-", "value": long}]).to_string();
    // The patch itself is too large too: the parse error of the patch.
    let r = Settings::DISABLE_EMAIL.check_patch(&b, &text).unwrap_err();
    assert_eq!(r.errors[0].code, "too_large");
}
