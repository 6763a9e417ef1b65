//! Seed 001: an approved edit is bound to the document it was
//! checked against. `Settings::DISABLE_EMAIL.check` approves an edit
//! against the stored baseline; if the stored document changes before the
//! write, `apply_if_current` refuses and nothing is written.
use contract_examples::settings::{BASELINE, Settings, SettingsStore};
use contract_runtime::fingerprint::Fingerprint;
use contract_runtime::{Contract, StaleBaseline};
use serde_json::{Value, json};

const DISABLE: &str =
    r#"{"notifications":{"email":false},"retry_limit":3,"channels":["email","sms"]}"#;

fn store() -> SettingsStore {
    SettingsStore::from_json(BASELINE).unwrap()
}

#[test]
fn an_edit_approved_against_the_stored_document_is_written() {
    let mut store = store();
    let edit = Settings::DISABLE_EMAIL
        .check(store.document(), DISABLE)
        .unwrap();
    assert_eq!(edit.changed, ["/notifications/email"]);
    assert_eq!(edit.baseline, Fingerprint::of(store.document()));
    let expected: Value = serde_json::from_str(DISABLE).unwrap();
    assert_eq!(edit.candidate, Fingerprint::of(&expected));

    store.apply(edit).unwrap();
    assert_eq!(store.document(), &expected);
    assert_eq!(store.writes(), 1);
}

#[test]
fn an_edit_whose_baseline_changed_is_refused_and_nothing_is_written() {
    let mut store = store();
    let edit = Settings::DISABLE_EMAIL
        .check(store.document(), DISABLE)
        .unwrap();
    let approved_against = store.document().clone();

    // Meanwhile someone else raises the retry limit.
    let mut changed = Settings::from_json(BASELINE).unwrap();
    changed.retry_limit = 5;
    store.overwrite(&changed);
    let stored_now = store.document().clone();
    let writes_before = store.writes();

    let refused = store.apply(edit).unwrap_err();
    assert_eq!(
        refused,
        StaleBaseline {
            approved: Fingerprint::of(&approved_against),
            current: Fingerprint::of(&stored_now),
        }
    );
    assert!(refused.to_string().contains("check the edit again"));
    // Nothing written: the document and the write count are as they were.
    assert_eq!(store.document(), &stored_now);
    assert_eq!(store.document()["retry_limit"], 5);
    assert_eq!(store.document()["notifications"]["email"], true);
    assert_eq!(store.writes(), writes_before);
}

#[test]
fn apply_if_current_directly() {
    // The runtime call the store makes, on plain JSON values.
    let baseline: Value = serde_json::from_str(BASELINE).unwrap();
    let edit = Settings::DISABLE_EMAIL.check(&baseline, DISABLE).unwrap();

    let moved = json!({"notifications":{"email":true},"retry_limit":3,"channels":["sms","email"]});
    assert!(edit.clone().apply_if_current(&moved).is_err());

    // The same document with another key order is the same baseline.
    let reordered: Value = serde_json::from_str(
        r#"{"channels":["email","sms"],"retry_limit":3,"notifications":{"email":true}}"#,
    )
    .unwrap();
    let applied = edit.apply_if_current(&reordered).unwrap();
    assert!(!applied.notifications.email);
}

#[test]
fn a_reapproval_against_the_new_document_goes_through() {
    let mut store = store();
    let stale = Settings::DISABLE_EMAIL
        .check(store.document(), DISABLE)
        .unwrap();
    let mut changed = Settings::from_json(BASELINE).unwrap();
    changed.retry_limit = 5;
    store.overwrite(&changed);
    assert!(store.apply(stale).is_err());

    // The model's candidate still carries the old retry limit: against the
    // new document that is a change the policy does not allow.
    let overreach = Settings::DISABLE_EMAIL
        .check(store.document(), DISABLE)
        .unwrap_err();
    assert_eq!(overreach.pointers(), ["/retry_limit"]);

    // A candidate made from the new document is approved and written.
    let fresh = r#"{"notifications":{"email":false},"retry_limit":5,"channels":["email","sms"]}"#;
    let edit = Settings::DISABLE_EMAIL
        .check(store.document(), fresh)
        .unwrap();
    store.apply(edit).unwrap();
    assert_eq!(store.document()["notifications"]["email"], false);
    assert_eq!(store.document()["retry_limit"], 5);
    assert_eq!(store.writes(), 2);
}

#[test]
fn an_edit_applies_once() {
    // After the write the stored document is the candidate, no longer the
    // baseline: the same approval cannot be applied a second time.
    let mut store = store();
    let edit = Settings::DISABLE_EMAIL
        .check(store.document(), DISABLE)
        .unwrap();
    store.apply(edit.clone()).unwrap();
    assert!(store.apply(edit).is_err());
    assert_eq!(store.writes(), 1);
}
