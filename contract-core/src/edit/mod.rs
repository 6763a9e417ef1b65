//! Edit policies: which JSON Pointers a proposed edit may change, for a
//! full candidate document or a patch of the baseline (`patch.rs`: RFC 6902
//! JSON Patch, `merge.rs`: RFC 7396 Merge Patch; `export.rs`: schemas that
//! let a model write only the patches a policy allows).
mod bound;
mod export;
mod merge;
mod patch;

use std::fmt;
use std::marker::PhantomData;

use serde_json::Value;

use crate::code;
use crate::error::{Error, Rejection, Stage};
use crate::fingerprint::Fingerprint;
use crate::json;
use crate::outcome::Violation;
use crate::pipeline::{self, Document, Stages};
use crate::schema::{self, Definition, Dropped, Export, ExportError, Provider};

/// A named allowlist of pointers, declared with
/// `#[contract(edit(NAME = ["/pointer", ..]))]`.
///
/// A change is allowed when its pointer is listed, or lies below a listed
/// pointer: a listed field changes as a whole, whatever it holds (a nested
/// contract, a `Box`, a map, an array). Permission for a leaf never permits
/// replacing its parent. The candidate must also pass the contract in full;
/// it is accepted or rejected whole.
///
/// # Reading the baseline
///
/// Read the stored document from its text with
/// [`json::parse`] (`json::parse(text.as_bytes(),
/// &T::LIMITS)`, what `contract-check --baseline FILE` does), or encode a
/// typed value ([`check_value`](EditPolicy::check_value)). `json::parse`
/// reads every float as the correctly rounded double, as the candidate is
/// read. `serde_json::from_str` without serde_json's `float_roundtrip`
/// feature reads about 30 % of 17-digit floats one ulp off
/// (`0.029489407448267446` as `0.02948940744826745`): the candidate that
/// repeats the baseline would then change that value, and the baseline's
/// [`Fingerprint`] would differ from another language's RFC 8785 key.
///
/// ```
/// use contract_runtime::{Contract, json};
///
/// #[derive(Contract, Debug)]
/// struct Notifications { email: bool }
///
/// #[derive(Contract, Debug)]
/// #[contract(edit(disable_email = ["/notifications/email"]))]
/// struct Settings { notifications: Notifications, retry_limit: u32 }
///
/// let stored = r#"{"notifications": {"email": true}, "retry_limit": 3}"#;
/// let baseline = json::parse(stored.as_bytes(), &Settings::LIMITS)?;
/// let edit = Settings::DISABLE_EMAIL
///     .check(&baseline, r#"{"notifications": {"email": false}, "retry_limit": 3}"#)
///     .unwrap();
/// assert_eq!(edit.changed, ["/notifications/email"]);
///
/// let rejection = Settings::DISABLE_EMAIL
///     .check(&baseline, r#"{"notifications": {"email": true}, "retry_limit": 9}"#)
///     .unwrap_err();
/// assert_eq!(rejection.errors[0].code, "change_not_allowed");
/// assert_eq!(rejection.errors[0].pointer, "/retry_limit");
/// # Ok::<(), contract_runtime::Rejection>(())
/// ```
pub struct EditPolicy<T> {
    name: &'static str,
    paths: &'static [&'static str],
    contract: PhantomData<fn() -> T>,
}

impl<T> Clone for EditPolicy<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for EditPolicy<T> {}

impl<T> fmt::Debug for EditPolicy<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EditPolicy")
            .field("name", &self.name)
            .field("paths", &self.paths)
            .finish()
    }
}

/// An accepted edit: the new value, the pointers it changed, and the
/// fingerprints that bind it to the baseline it was checked against.
#[derive(Debug, Clone, PartialEq)]
pub struct Edit<T> {
    /// The candidate, decoded.
    pub value: T,
    /// The changed pointers, sorted.
    pub changed: Vec<String>,
    /// Review reasons (quarantined fields, `Violation::review` from a
    /// `check`): the edit passed, but a person should look.
    pub reasons: Vec<Violation>,
    /// Fingerprint of the baseline the edit was approved against.
    pub baseline: Fingerprint,
    /// Fingerprint of the accepted candidate document.
    pub candidate: Fingerprint,
}

/// The stored document is no longer the one an edit was approved against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleBaseline {
    /// Fingerprint the approval was bound to.
    pub approved: Fingerprint,
    /// Fingerprint of the document stored now.
    pub current: Fingerprint,
}

impl fmt::Display for StaleBaseline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the stored document changed since the edit was approved (approved against {}, now {}): check the edit again",
            self.approved, self.current
        )
    }
}

impl std::error::Error for StaleBaseline {}

impl<T> Edit<T> {
    /// The value to store, only if `current` — the document stored now,
    /// read inside the write transaction (from text, with
    /// [`json::parse`], as the baseline: see [`EditPolicy`]) — is the
    /// baseline the edit was approved against. Otherwise nothing may be
    /// written.
    ///
    /// "The same document" is the same [`Fingerprint`] (RFC 8785 canonical
    /// form): key order, whitespace and `1` vs `1.0` do not count as a
    /// change, and neither does an integer beyond ±2^53 that rounds to the
    /// same double (see [`crate::fingerprint`]).
    ///
    /// ```
    /// use contract_runtime::{Contract, json};
    ///
    /// #[derive(Contract, Debug, Clone)]
    /// #[contract(edit(rename = ["/name"]))]
    /// struct Profile { name: String, plan: String }
    ///
    /// let read = |text: &str| json::parse(text.as_bytes(), &Profile::LIMITS);
    /// let stored = read(r#"{"name": "Ana", "plan": "free"}"#)?;
    /// let edit = Profile::RENAME.check(&stored, r#"{"name": "Ana B.", "plan": "free"}"#)?;
    ///
    /// let changed_meanwhile = read(r#"{"name": "Ana", "plan": "pro"}"#)?;
    /// assert!(edit.clone().apply_if_current(&changed_meanwhile).is_err());
    /// assert_eq!(edit.apply_if_current(&stored).unwrap().name, "Ana B.");
    /// # Ok::<(), contract_runtime::Rejection>(())
    /// ```
    pub fn apply_if_current(self, current: &Value) -> Result<T, StaleBaseline> {
        let now = Fingerprint::of(current);
        if now == self.baseline {
            Ok(self.value)
        } else {
            Err(StaleBaseline {
                approved: self.baseline,
                current: now,
            })
        }
    }
}

impl<T> EditPolicy<T> {
    #[doc(hidden)]
    pub const fn __new(name: &'static str, paths: &'static [&'static str]) -> Self {
        EditPolicy {
            name,
            paths,
            contract: PhantomData,
        }
    }

    /// The policy's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The pointers it allows to change.
    pub const fn paths(&self) -> &'static [&'static str] {
        self.paths
    }

    /// Whether a change at `pointer` (an RFC 6901 pointer, escaped form) is
    /// allowed: it is a listed pointer or lies below one (`/m/a` below
    /// `/m`, not `/ma`), never above one.
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use std::collections::BTreeMap;
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(edit(labels = ["/labels"]))]
    /// struct Ticket { labels: BTreeMap<String, String>, title: String }
    ///
    /// assert!(Ticket::LABELS.allows("/labels"));
    /// assert!(Ticket::LABELS.allows("/labels/team"));
    /// assert!(!Ticket::LABELS.allows("/labelsx"));
    /// assert!(!Ticket::LABELS.allows(""));
    /// ```
    pub fn allows(&self, pointer: &str) -> bool {
        self.paths.iter().any(|listed| covers(listed, pointer))
    }
}

/// The compact text of a patched document, the candidate a patch stands
/// for (serde_json writes every number so that it reads back the same).
fn text_of(value: &Value) -> String {
    value.to_string()
}

/// Whether `pointer` is `listed` or lies below it (both RFC 6901, escaped:
/// a `/` inside a key is `~1`, so a `/` after the prefix starts a segment).
fn covers(listed: &str, pointer: &str) -> bool {
    pointer
        .strip_prefix(listed)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

impl<T: Definition> EditPolicy<T> {
    /// The contract's export for `provider` with every value outside the
    /// allowlist pinned to `baseline` (see [`schema::pin`]): a model that
    /// edits the document under this schema can change only what the
    /// policy allows. `baseline` is the stored document, as
    /// [`EditPolicy::check`] takes it.
    ///
    /// The export's pointers (`dropped`, `made_required`, `lowered`) are
    /// into the pinned schema. A pin the provider cannot state (Gemini has
    /// no boolean `const`; Anthropic's client sends no array `const`) and a
    /// member the baseline lacks (its absence cannot be stated) are listed
    /// in `dropped` with keyword `const`, still enforced by
    /// [`EditPolicy::check`] (`change_not_allowed`). So is a number pinned
    /// with a zero fraction outside an integer field (`"const": 1.0`): JSON
    /// Schema compares numbers by value and takes `1`, which the check
    /// counts as a change (`1` is not `1.0`, see [`crate::diff`]); the
    /// `const` stays in the schema, the written form is left to the check.
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::schema::Provider;
    /// use serde_json::json;
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(edit(rename = ["/name"]))]
    /// struct Profile { name: String, plan: String }
    ///
    /// let stored = json!({"name": "Ana", "plan": "free"});
    /// let export = Profile::RENAME.json_schema_for(&stored, Provider::OpenAi).unwrap();
    /// assert_eq!(export.schema["properties"]["plan"]["const"], "free");
    /// assert_eq!(export.schema["properties"]["name"], json!({"type": "string"}));
    /// ```
    pub fn json_schema_for(
        &self,
        baseline: &Value,
        provider: Provider,
    ) -> Result<Export, ExportError> {
        self.pinned_export(&schema::document::<T>(), baseline, provider)
    }

    /// [`EditPolicy::json_schema_for`] of the contract's full schema
    /// `full` (as [`schema::document`] builds it, or bound to a request).
    fn pinned_export(
        &self,
        full: &Value,
        baseline: &Value,
        provider: Provider,
    ) -> Result<Export, ExportError> {
        let pinned = schema::pin::pinned(full, baseline, self.paths);
        let mut export = schema::export_schema(&pinned.schema, provider)?;
        let enforced_by = |pointer: &str| {
            format!("EditPolicy::check, edit stage: `change_not_allowed` at `{pointer}`")
        };
        for dropped in &mut export.dropped {
            if let Some(pin) = pinned
                .pins
                .iter()
                .find(|p| p.schema_pointer == dropped.pointer)
            {
                dropped.enforced_by = enforced_by(&pin.pointer);
            }
        }
        export
            .dropped
            .extend(pinned.unpinned.iter().map(|pin| Dropped {
                pointer: crate::pointer::child(&pin.schema_pointer, "const"),
                keyword: "const".to_owned(),
                enforced_by: enforced_by(&pin.pointer),
            }));
        // A pinned `1.0` the schema states, but as a number: `1` passes it.
        for pin in &pinned.written_form {
            if !export
                .dropped
                .iter()
                .any(|d| d.pointer == pin.schema_pointer)
            {
                export.dropped.push(Dropped {
                    pointer: pin.schema_pointer.clone(),
                    keyword: "const".to_owned(),
                    enforced_by: format!(
                        "EditPolicy::check, edit stage: the number's written form (`const` takes `1` for `1.0`, the check does not): `change_not_allowed` at `{}`",
                        pin.pointer
                    ),
                });
            }
        }
        Ok(export)
    }
}

impl<T: Document> EditPolicy<T> {
    /// Checks a candidate document against `baseline` (read from text with
    /// [`json::parse`], see [`EditPolicy`]): every changed pointer must be
    /// allowed, and the candidate must pass the contract. All blocked
    /// pointers (stage `edit`) and all contract errors are reported.
    ///
    /// A candidate that is not JSON is refused with its parse error alone;
    /// one longer than the contract's `max_bytes` is refused (stage `parse`,
    /// code `too_large`, pointer `""`, as `from_json` refuses it) before any
    /// of it is read. The changed pointers are found while the candidate is
    /// scanned ([`changed_paths_str`](crate::diff::changed_paths_str)): no
    /// `serde_json::Value` of it is built unless it is accepted, so a large
    /// candidate costs about what `from_json` costs.
    pub fn check(&self, baseline: &Value, candidate: &str) -> Result<Edit<T>, Rejection> {
        self.run(baseline, candidate, None, None)
    }

    /// [`EditPolicy::check`] plus the business stage (`evidence`, `check`)
    /// against trusted `ctx`: the candidate must pass the contract in full.
    /// Review reasons do not reject; they are kept in [`Edit::reasons`].
    pub fn check_with(
        &self,
        baseline: &Value,
        candidate: &str,
        ctx: &T::Context,
    ) -> Result<Edit<T>, Rejection> {
        self.run(baseline, candidate, None, Some(ctx))
    }

    /// Judges `candidate`; `tree` is its value when the caller has it (a
    /// patched baseline, whose text `candidate` is), which then is not
    /// parsed again for the fingerprint.
    fn run(
        &self,
        baseline: &Value,
        candidate: &str,
        tree: Option<&Value>,
        context: Option<&T::Context>,
    ) -> Result<Edit<T>, Rejection> {
        // Size first, then the strict parse policy, as `json::parse` decides
        // them; the changed pointers come out of the same scan, with no tree.
        let changed: Vec<String> = crate::diff::changed_paths_str(baseline, candidate, &T::LIMITS)?
            .into_iter()
            .collect();
        let blocked = changed
            .iter()
            .filter(|p| !self.allows(p))
            .map(|p| self.blocked(p))
            .collect();
        let (value, reasons) = pipeline::run::<T>(candidate, Stages { context, blocked })?;
        // The fingerprint needs the tree. An accepted candidate is the
        // baseline but for the values the policy allows.
        let candidate = match tree {
            Some(tree) => Fingerprint::of(tree),
            None => Fingerprint::of(&json::parse(candidate.as_bytes(), &T::LIMITS)?),
        };
        Ok(Edit {
            value,
            changed,
            reasons,
            baseline: Fingerprint::of(baseline),
            candidate,
        })
    }

    /// The edit-stage error for a change at `pointer`, which the policy
    /// does not allow.
    fn blocked(&self, pointer: &str) -> Error {
        Error::new(
            Stage::Edit,
            pointer,
            code::CHANGE_NOT_ALLOWED,
            format!("policy `{}` does not allow changing this value", self.name),
        )
        .with_expected(format!("changes only at: {}", self.paths.join(", ")))
    }

    /// Checks an RFC 6902 JSON Patch of `baseline`: the patch is applied
    /// to a copy of the baseline, and the result judged exactly as
    /// [`EditPolicy::check`] judges a full candidate.
    ///
    /// `patch` is the array of operations, or an object whose only member
    /// `patch` holds it (the form [`EditPolicy::patch_schema_for`]
    /// describes). It is read under the contract's limits and the strict
    /// JSON policy (a parse error is a `parse` error, as for a candidate);
    /// each operation is one of `add`, `remove`, `replace`, `move`, `copy`,
    /// `test` with exactly the members RFC 6902 gives it, its pointers RFC
    /// 6901 (`~0`, `~1`, and `-` for the end of an array). The operations
    /// apply in order; one that cannot apply rejects the whole patch. The
    /// errors about the patch are `edit` errors at pointers into the patch
    /// text (`/0/path`, or `/patch/0/path`): `invalid_patch`,
    /// `path_not_found`, `test_failed`.
    ///
    /// Otherwise `check_patch(b, p)` gives what `check(b, text)` gives for
    /// the text of the patched document (`serde_json::to_string` of it):
    /// the same outcome, errors (at pointers into the result) and
    /// `changed`. A `test` or a `replace` with the same value changes
    /// nothing; a `move` changes both ends. The [`Edit`] is bound to
    /// `baseline` as a full edit is ([`Edit::apply_if_current`]).
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use serde_json::json;
    ///
    /// #[derive(Contract, Debug)]
    /// struct Notifications { email: bool }
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(edit(disable_email = ["/notifications/email"]))]
    /// struct Settings { notifications: Notifications, retry_limit: u32, channels: Vec<String> }
    ///
    /// let baseline = json!({"notifications": {"email": true}, "retry_limit": 3, "channels": ["email", "sms"]});
    /// let edit = Settings::DISABLE_EMAIL
    ///     .check_patch(&baseline, r#"[{"op":"replace","path":"/notifications/email","value":false}]"#)?;
    /// assert_eq!(edit.changed, ["/notifications/email"]);
    /// assert!(!edit.value.notifications.email);
    ///
    /// let refused = Settings::DISABLE_EMAIL
    ///     .check_patch(&baseline, r#"{"patch":[{"op":"replace","path":"/retry_limit","value":9}]}"#)
    ///     .unwrap_err();
    /// assert_eq!(refused.errors[0].code, "change_not_allowed");
    ///
    /// let missing = Settings::DISABLE_EMAIL
    ///     .check_patch(&baseline, r#"[{"op":"remove","path":"/notifications/sms"}]"#)
    ///     .unwrap_err();
    /// assert_eq!((missing.errors[0].code, missing.errors[0].pointer.as_str()), ("path_not_found", "/0/path"));
    /// # Ok::<(), contract_runtime::Rejection>(())
    /// ```
    pub fn check_patch(&self, baseline: &Value, patch: &str) -> Result<Edit<T>, Rejection> {
        let patched = self.patched(baseline, patch)?;
        self.run(baseline, &text_of(&patched), Some(&patched), None)
    }

    /// [`EditPolicy::check_patch`] plus the business stage against `ctx`,
    /// as [`EditPolicy::check_with`].
    pub fn check_patch_with(
        &self,
        baseline: &Value,
        patch: &str,
        ctx: &T::Context,
    ) -> Result<Edit<T>, Rejection> {
        let patched = self.patched(baseline, patch)?;
        self.run(baseline, &text_of(&patched), Some(&patched), Some(ctx))
    }

    /// The text of `baseline` with the JSON Patch `patch` applied (what
    /// [`EditPolicy::check_patch`] then checks), or the patch's errors.
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use serde_json::json;
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(edit(rename = ["/name"]))]
    /// struct Profile { name: String, plan: String }
    ///
    /// let stored = json!({"name": "Ana", "plan": "free"});
    /// let text = Profile::RENAME.apply_patch(&stored, r#"[{"op":"replace","path":"/name","value":"Bo"}]"#)?;
    /// assert_eq!(text, r#"{"name":"Bo","plan":"free"}"#);
    /// # Ok::<(), contract_runtime::Rejection>(())
    /// ```
    pub fn apply_patch(&self, baseline: &Value, patch: &str) -> Result<String, Rejection> {
        Ok(text_of(&self.patched(baseline, patch)?))
    }

    /// `baseline` with the JSON Patch `patch` applied, or the patch's errors.
    fn patched(&self, baseline: &Value, patch: &str) -> Result<Value, Rejection> {
        let document = json::parse(patch.as_bytes(), &T::LIMITS)?;
        let patch = patch::read(document)?;
        patch::apply(baseline, &patch)
    }

    /// Checks an RFC 7396 JSON Merge Patch of `baseline`: objects merge
    /// member by member, recursively, a `null` removes the member, any
    /// other value replaces; the result is judged exactly as
    /// [`EditPolicy::check`] judges a full candidate (the same outcome,
    /// errors and `changed` as `check` of the merged document's text). The
    /// patch is read under the contract's limits and the strict JSON
    /// policy.
    ///
    /// A merge patch cannot set a member to `null` (its `null` removes the
    /// member, which the contract then refuses unless the field is
    /// `optional`): use [`EditPolicy::check_patch`] with a `replace` for
    /// that.
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use serde_json::json;
    ///
    /// #[derive(Contract, Debug)]
    /// struct Notifications { email: bool }
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(edit(disable_email = ["/notifications/email"]))]
    /// struct Settings { notifications: Notifications, retry_limit: u32 }
    ///
    /// let baseline = json!({"notifications": {"email": true}, "retry_limit": 3});
    /// let edit = Settings::DISABLE_EMAIL
    ///     .check_merge_patch(&baseline, r#"{"notifications":{"email":false}}"#)?;
    /// assert_eq!(edit.changed, ["/notifications/email"]);
    ///
    /// let removed = Settings::DISABLE_EMAIL
    ///     .check_merge_patch(&baseline, r#"{"notifications":{"email":null}}"#)
    ///     .unwrap_err();
    /// assert_eq!(removed.errors[0].code, "missing_key");
    /// # Ok::<(), contract_runtime::Rejection>(())
    /// ```
    pub fn check_merge_patch(&self, baseline: &Value, patch: &str) -> Result<Edit<T>, Rejection> {
        let merged = self.merged(baseline, patch)?;
        self.run(baseline, &text_of(&merged), Some(&merged), None)
    }

    /// [`EditPolicy::check_merge_patch`] plus the business stage against
    /// `ctx`, as [`EditPolicy::check_with`].
    pub fn check_merge_patch_with(
        &self,
        baseline: &Value,
        patch: &str,
        ctx: &T::Context,
    ) -> Result<Edit<T>, Rejection> {
        let merged = self.merged(baseline, patch)?;
        self.run(baseline, &text_of(&merged), Some(&merged), Some(ctx))
    }

    /// The text of `baseline` with the Merge Patch `patch` applied (what
    /// [`EditPolicy::check_merge_patch`] then checks), or the patch's parse
    /// error.
    pub fn apply_merge_patch(&self, baseline: &Value, patch: &str) -> Result<String, Rejection> {
        Ok(text_of(&self.merged(baseline, patch)?))
    }

    /// `baseline` with the Merge Patch `patch` applied, or its parse error.
    fn merged(&self, baseline: &Value, patch: &str) -> Result<Value, Rejection> {
        let document = json::parse(patch.as_bytes(), &T::LIMITS)?;
        Ok(merge::apply(baseline, &document))
    }

    /// [`EditPolicy::check`] against a typed baseline.
    pub fn check_value(&self, baseline: &T, candidate: &str) -> Result<Edit<T>, Rejection> {
        self.check(&baseline.encode(), candidate)
    }
}
