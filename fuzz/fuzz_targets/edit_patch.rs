//! `EditPolicy::check_patch` and `check_merge_patch` of the settings
//! contract (seed 001) against a baseline made from the input's first
//! bytes, with the rest of the input as the patch. The oracle is the
//! equivalence the runtime promises: a patch that applies is judged as
//! `check` judges the text of the patched document (same outcome, errors
//! and `changed`); one that does not is refused with the patch's own
//! errors, the same ones `apply_patch` gives. An accepted edit changed
//! only allowed pointers, and its `changed` is the real difference.
#![no_main]
use contract_fuzz::{Settings, assert_well_formed};
use contract_runtime::diff::changed_paths;
use contract_runtime::{Contract, Stage};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

/// A valid settings baseline chosen by three bytes.
fn baseline(head: &[u8]) -> Value {
    let byte = |i: usize| head.get(i).copied().unwrap_or(0);
    let pool = ["email", "sms", "push", "a/b", "~0"];
    let channels: Vec<&str> = (0..byte(2) % 4)
        .map(|i| pool[(byte(2) as usize / 4 + i as usize) % pool.len()])
        .collect();
    json!({
        "notifications": {"email": byte(0) & 1 == 1},
        "retry_limit": u32::from(byte(1)),
        "channels": channels,
    })
}

fuzz_target!(|data: &[u8]| {
    let (head, rest) = data.split_at(data.len().min(3));
    let Ok(patch) = std::str::from_utf8(rest) else {
        return;
    };
    let baseline = baseline(head);
    let policy = Settings::edit_policy("disable_email").expect("the policy is declared");

    let by_patch = policy.check_patch(&baseline, patch);
    match policy.apply_patch(&baseline, patch) {
        Ok(text) => assert_eq!(by_patch, policy.check(&baseline, &text)),
        Err(rejection) => {
            assert_well_formed(&rejection);
            assert!(matches!(rejection.stage(), Some(Stage::Parse | Stage::Edit)));
            assert_eq!(by_patch, Err(rejection));
        }
    }
    if let Ok(edit) = &by_patch {
        accepted(&baseline, &policy, edit);
    }

    let by_merge = policy.check_merge_patch(&baseline, patch);
    match policy.apply_merge_patch(&baseline, patch) {
        Ok(text) => assert_eq!(by_merge, policy.check(&baseline, &text)),
        Err(rejection) => {
            assert_well_formed(&rejection);
            assert_eq!(rejection.stage(), Some(Stage::Parse));
            assert_eq!(by_merge, Err(rejection));
        }
    }
    if let Ok(edit) = &by_merge {
        accepted(&baseline, &policy, edit);
    }
    if let Err(rejection) = &by_merge {
        assert_well_formed(rejection);
    }
});

fn accepted(
    baseline: &Value,
    policy: &contract_runtime::EditPolicy<Settings>,
    edit: &contract_runtime::Edit<Settings>,
) {
    for pointer in &edit.changed {
        assert!(policy.allows(pointer), "{pointer} is not allowed");
    }
    let actual: Vec<String> = changed_paths(baseline, &edit.value.to_json())
        .into_iter()
        .collect();
    assert_eq!(actual, edit.changed);
    assert!(edit.clone().apply_if_current(baseline).is_ok());
}
