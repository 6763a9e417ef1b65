//! Seed 001: an allowlist of changed fields (`settings`, edit policy
//! `disable_email`).
//!
//! The model is asked to return the *whole* settings document with e-mail
//! notifications turned off. [`Settings::DISABLE_EMAIL`] allows a change at
//! `/notifications/email` and nowhere else; the candidate must also pass
//! the contract in full, and is accepted or rejected whole.
//!
//! ```
//! use contract_examples::settings::Settings;
//! use serde_json::json;
//!
//! let baseline = json!({"notifications":{"email":true},"retry_limit":3,"channels":["email","sms"]});
//! let edit = Settings::DISABLE_EMAIL
//!     .check(&baseline, r#"{"notifications":{"email":false},"retry_limit":3,"channels":["email","sms"]}"#)
//!     .unwrap();
//! assert_eq!(edit.changed, ["/notifications/email"]);
//!
//! let overreach = Settings::DISABLE_EMAIL
//!     .check(&baseline, r#"{"notifications":{"email":false},"retry_limit":9,"channels":["email","sms"]}"#)
//!     .unwrap_err();
//! assert_eq!(overreach.pointers(), ["/retry_limit"]);
//! ```
//!
//! An approval is bound to the document it was checked against
//! ([`Edit::baseline`] is its fingerprint): [`SettingsStore::apply`] writes
//! an approved edit only if the stored document is still that one, and
//! otherwise writes nothing (seed 001: "the approval must correspond to the
//! same document you finally store").
use contract_runtime::{Contract, Edit, StaleBaseline};
use serde_json::Value;

/// The baseline the seed starts from (also shipped as
/// `examples/data/settings.baseline.json`).
pub const BASELINE: &str =
    r#"{"notifications":{"email":true},"retry_limit":3,"channels":["email","sms"]}"#;

/// Which notifications the user receives.
#[derive(Contract, Debug, Clone, PartialEq, Eq)]
pub struct Notifications {
    /// Whether e-mail notifications are on (a boolean, never `0`/`1`).
    pub email: bool,
}

/// The user's complete notification settings, returned whole: keep every
/// field as it was except the one the user asked to change.
#[derive(Contract, Debug, Clone, PartialEq, Eq)]
#[contract(edit(disable_email = ["/notifications/email"]))]
pub struct Settings {
    /// Which notifications the user receives.
    pub notifications: Notifications,
    /// How many times a failed delivery is retried (an integer, 0 or more).
    #[contract(min = 0)]
    pub retry_limit: u32,
    /// The delivery channels, in order of preference.
    pub channels: Vec<String>,
}

/// The application's stored settings document, with a write that applies
/// an approved edit only if the document has not changed since the
/// approval. A real store does the comparison inside its write transaction
/// (or as a compare-and-swap on a version column); this one is in memory.
///
/// ```
/// use contract_examples::settings::{Settings, SettingsStore, BASELINE};
///
/// let mut store = SettingsStore::from_json(BASELINE).unwrap();
/// let edit = Settings::DISABLE_EMAIL
///     .check(store.document(), r#"{"notifications":{"email":false},"retry_limit":3,"channels":["email","sms"]}"#)
///     .unwrap();
/// store.apply(edit).unwrap();
/// assert_eq!(store.document()["notifications"]["email"], false);
/// assert_eq!(store.writes(), 1);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SettingsStore {
    document: Value,
    writes: u64,
}

impl SettingsStore {
    /// A store holding `document`.
    pub fn new(document: Value) -> Self {
        SettingsStore {
            document,
            writes: 0,
        }
    }

    /// A store holding `raw`, which must be a valid settings document.
    pub fn from_json(raw: &str) -> Result<Self, contract_runtime::Rejection> {
        Settings::from_json(raw).map(|s| SettingsStore::new(s.to_json()))
    }

    /// The document stored now.
    pub fn document(&self) -> &Value {
        &self.document
    }

    /// How many writes were made.
    pub fn writes(&self) -> u64 {
        self.writes
    }

    /// Writes `settings` unconditionally: another request, or a person,
    /// changing the document meanwhile.
    pub fn overwrite(&mut self, settings: &Settings) {
        self.document = settings.to_json();
        self.writes += 1;
    }

    /// Writes an approved edit, only if the stored document is still the
    /// baseline the edit was approved against; otherwise writes nothing and
    /// says so (check the edit again against the new document).
    pub fn apply(&mut self, edit: Edit<Settings>) -> Result<(), StaleBaseline> {
        let settings = edit.apply_if_current(&self.document)?;
        self.document = settings.to_json();
        self.writes += 1;
        Ok(())
    }
}
