//! `EditPolicy::check` of the settings contract (seed 001) against the
//! seed's baseline: an accepted edit changed only allowed pointers, and its
//! reported changes are the real ones; a rejection is well formed.
#![no_main]
use contract_fuzz::{Settings, assert_well_formed, settings_baseline};
use contract_runtime::Contract;
use contract_runtime::diff::changed_paths;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(raw) = std::str::from_utf8(data) else {
        return;
    };
    let baseline = settings_baseline();
    let policy = Settings::edit_policy("disable_email").expect("the policy is declared");
    match policy.check(&baseline, raw) {
        Ok(edit) => {
            for pointer in &edit.changed {
                assert!(policy.allows(pointer), "{pointer} is not allowed");
            }
            let actual: Vec<String> = changed_paths(&baseline, &edit.value.to_json())
                .into_iter()
                .collect();
            assert_eq!(actual, edit.changed);
            assert!(Settings::from_json(raw).is_ok());
        }
        Err(rejection) => {
            assert_well_formed(&rejection);
            // Refused either by the contract or by the policy, never for nothing.
            let contract = Settings::from_json(raw);
            let blocked = rejection
                .errors
                .iter()
                .any(|e| e.code == "change_not_allowed");
            assert!(contract.is_err() || blocked);
        }
    }
});
