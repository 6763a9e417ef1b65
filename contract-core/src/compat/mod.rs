//! Compatibility between two versions of a contract's schema.
//!
//! [`diff`] compares two full schemas (as
//! [`Contract::json_schema`](crate::Contract::json_schema) writes them) and
//! lists every [`Change`] that matters to a reader, with its direction:
//!
//! - **backward** ([`Change::breaks_backward`]): a consumer of the *new*
//!   version reading documents written for the *old* one (stored documents,
//!   a model still prompted with the old schema) may reject them;
//! - **forward** ([`Change::breaks_forward`]): a consumer of the *old*
//!   version reading documents written for the *new* one may reject them.
//!
//! A change makes the accepted set smaller (breaks backward), larger (breaks
//! forward), or both. The verdicts are per change and conservative: "may
//! reject", judged keyword by keyword. Annotations (`title`,
//! `description`, `$schema`, `x-contract-version`) are not changes; record
//! versions with `#[contract(version = N)]` and read them with
//! [`schema::version`](crate::schema::version).
//!
//! Pointers are RFC 6901 pointers into the new schema (into the old one for
//! what was removed): `/properties/end_date`, `/$defs/Notifications/properties/email`.
//! Nested contracts are compared where a `$ref` leads (each pair of
//! definitions once), so renaming a Rust type is not a change.
//!
//! ```
//! use contract_runtime::compat::{diff, ChangeKind};
//! use serde_json::json;
//!
//! let old = json!({
//!     "type": "object",
//!     "properties": {"status": {"type": "string", "enum": ["done", "open"]}},
//!     "required": ["status"],
//!     "additionalProperties": false
//! });
//! let new = json!({
//!     "type": "object",
//!     "properties": {
//!         "status": {"type": "string", "enum": ["done", "open", "stale"]},
//!         "note": {"type": ["string", "null"]}
//!     },
//!     "required": ["status", "note"],
//!     "additionalProperties": false
//! });
//! let changes = diff(&old, &new);
//! let kinds: Vec<_> = changes.iter().map(|c| (c.pointer.as_str(), c.kind)).collect();
//! assert_eq!(kinds, [
//!     ("/properties/status/enum", ChangeKind::EnumValueAdded),
//!     ("/properties/note", ChangeKind::FieldAdded),
//! ]);
//! // `stale` is new: only an old reader rejects it.
//! assert!(!changes[0].breaks_backward && changes[0].breaks_forward);
//! // Old documents lack `note`, and old readers refuse the unknown key.
//! assert!(changes[1].breaks_backward && changes[1].breaks_forward);
//! ```
use std::fmt;

use serde_json::Value;

mod comparison;

/// What changed between two versions of a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A property exists only in the new version.
    FieldAdded,
    /// A property exists only in the old version.
    FieldRemoved,
    /// A property became required, or optional (may be absent).
    RequiredChanged,
    /// A value became nullable, or no longer is.
    NullabilityChanged,
    /// An allowed value (of an `enum`, or a `const`) was added.
    EnumValueAdded,
    /// An allowed value (of an `enum`, or a `const`) was removed.
    EnumValueRemoved,
    /// A bound or constraint is stricter, or new (`minimum` raised,
    /// `maxLength` lowered, a `pattern`, `format` or `enum` added).
    BoundTightened,
    /// A bound or constraint is looser, or gone.
    BoundLoosened,
    /// A `pattern`, `format` or `multipleOf` was replaced by another.
    ConstraintChanged,
    /// A rule was added: a `when` rule (`allOf`), or an `x-contract-rules` entry.
    RuleAdded,
    /// A rule was removed.
    RuleRemoved,
    /// The JSON type changed (`integer` → `number`, a struct → a map, …).
    TypeChanged,
}

impl ChangeKind {
    /// The kind as serialized: `"field_added"`, ….
    pub const fn as_str(self) -> &'static str {
        match self {
            ChangeKind::FieldAdded => "field_added",
            ChangeKind::FieldRemoved => "field_removed",
            ChangeKind::RequiredChanged => "required_changed",
            ChangeKind::NullabilityChanged => "nullability_changed",
            ChangeKind::EnumValueAdded => "enum_value_added",
            ChangeKind::EnumValueRemoved => "enum_value_removed",
            ChangeKind::BoundTightened => "bound_tightened",
            ChangeKind::BoundLoosened => "bound_loosened",
            ChangeKind::ConstraintChanged => "constraint_changed",
            ChangeKind::RuleAdded => "rule_added",
            ChangeKind::RuleRemoved => "rule_removed",
            ChangeKind::TypeChanged => "type_changed",
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One difference between two versions of a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// RFC 6901 pointer into the new schema (the old one for removals).
    pub pointer: String,
    /// What changed.
    pub kind: ChangeKind,
    /// In words: `maxLength 500 → 300`, `"stale"`, ….
    pub detail: String,
    /// A consumer of the new version may reject documents written for the old one.
    pub breaks_backward: bool,
    /// A consumer of the old version may reject documents written for the new one.
    pub breaks_forward: bool,
}

impl Change {
    /// Whether the change breaks either direction.
    pub fn is_breaking(&self) -> bool {
        self.breaks_backward || self.breaks_forward
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let breaks = match (self.breaks_backward, self.breaks_forward) {
            (true, true) => "breaks both directions",
            (true, false) => "breaks backward (new reader, old documents)",
            (false, true) => "breaks forward (old reader, new documents)",
            (false, false) => "compatible",
        };
        write!(
            f,
            "{} at `{}`: {} ({breaks})",
            self.kind, self.pointer, self.detail
        )
    }
}

/// Every change from `old` to `new`, in schema order.
pub fn diff(old: &Value, new: &Value) -> Vec<Change> {
    comparison::changes(old, new)
}

crate::serial::unit_variants!(ChangeKind);
crate::serial::struct_fields!(Change {
    pointer,
    kind,
    detail,
    breaks_backward,
    breaks_forward,
});
