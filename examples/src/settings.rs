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
use contract_runtime::Contract;

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
