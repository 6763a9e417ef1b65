//! An edit changes a number only when the value changes: an integer written
//! another way (`-0` for `0`, whitespace around it) is the same integer, and
//! an integer against a float (`0` against `0.0`) is a change. Checked with
//! the settings contract (seed 001) and its `disable_email` policy.
use contract_examples::settings::Settings;
use contract_runtime::json::{self, Limits};
use contract_runtime::{Contract, Rejection, Stage};
use proptest::prelude::*;
use serde_json::Value;

fn settings(email: bool, retry_limit: &str) -> String {
    format!(
        r#"{{"notifications":{{"email":{email}}},"retry_limit":{retry_limit},"channels":["email","sms"]}}"#
    )
}

/// A baseline read the way `contract-check --baseline` reads it.
fn baseline(retry_limit: &str) -> Value {
    json::parse(settings(true, retry_limit).as_bytes(), &Limits::DEFAULT).unwrap()
}

fn codes(rejection: &Rejection) -> Vec<(Stage, &str, &str)> {
    rejection
        .errors
        .iter()
        .map(|e| (e.stage, e.pointer.as_str(), e.code))
        .collect()
}

#[test]
fn minus_zero_for_a_zero_retry_limit_is_no_change() {
    let edit = Settings::DISABLE_EMAIL
        .check(&baseline("0"), &settings(false, "-0"))
        .unwrap();
    assert_eq!(edit.changed, ["/notifications/email"]);
    assert_eq!(edit.value.retry_limit, 0);
}

#[test]
fn zero_against_a_minus_zero_baseline_is_no_change() {
    let edit = Settings::DISABLE_EMAIL
        .check(&baseline("-0"), &settings(false, "0"))
        .unwrap();
    assert_eq!(edit.changed, ["/notifications/email"]);
    // The same document, one key changed: fingerprints agree too.
    let edit = Settings::DISABLE_EMAIL
        .check(&baseline("-0"), &settings(true, "0"))
        .unwrap();
    assert!(edit.changed.is_empty());
    assert_eq!(edit.baseline, edit.candidate);
}

#[test]
fn minus_zero_against_a_typed_baseline_is_no_change() {
    let typed = Settings::from_json(&settings(true, "0")).unwrap();
    let edit = Settings::DISABLE_EMAIL
        .check_value(&typed, &settings(false, "-0"))
        .unwrap();
    assert_eq!(edit.changed, ["/notifications/email"]);
}

#[test]
fn a_float_zero_for_an_integer_zero_is_a_change_whatever_the_signs() {
    for integer in ["0", "-0"] {
        for float in ["0.0", "-0.0"] {
            let rejection = Settings::DISABLE_EMAIL
                .check(&baseline(integer), &settings(false, float))
                .unwrap_err();
            // Refused by the contract (not an integer) and by the policy
            // (integer against float is a change).
            assert_eq!(
                codes(&rejection),
                [
                    (Stage::Schema, "/retry_limit", "invalid_type"),
                    (Stage::Edit, "/retry_limit", "change_not_allowed"),
                ],
                "{integer} vs {float}"
            );
        }
    }
}

#[test]
fn a_different_retry_limit_is_still_a_blocked_change() {
    let rejection = Settings::DISABLE_EMAIL
        .check(&baseline("-0"), &settings(false, "1"))
        .unwrap_err();
    assert_eq!(
        codes(&rejection),
        [(Stage::Edit, "/retry_limit", "change_not_allowed")]
    );
}

// A `u32` value and two ways to write it (its digits, `-0` for zero, with
// whitespace around).
fn two_spellings() -> impl Strategy<Value = (u32, String, String)> {
    let spelling = |n: u32| {
        let digits = if n == 0 {
            prop::sample::select(vec!["0", "-0"])
                .prop_map(str::to_owned)
                .boxed()
        } else {
            Just(n.to_string()).boxed()
        };
        (digits, "[ \\t\\n]{0,2}", "[ \\t\\n]{0,2}")
            .prop_map(|(digits, before, after)| format!("{before}{digits}{after}"))
    };
    prop_oneof![Just(0u32), 0u32..4, any::<u32>()]
        .prop_flat_map(move |n| (Just(n), spelling(n), spelling(n)))
}

proptest! {
    #[test]
    fn spellings_of_one_retry_limit_never_change_it((n, a, b) in two_spellings()) {
        let edit = Settings::DISABLE_EMAIL.check(&baseline(&a), &settings(false, &b));
        prop_assert!(edit.is_ok(), "{:?} -> {:?}: {:?}", a, b, edit.err());
        let edit = edit.unwrap();
        prop_assert_eq!(edit.changed, ["/notifications/email"]);
        prop_assert_eq!(edit.value.retry_limit, n);
    }
}
