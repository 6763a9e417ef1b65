//! Edits as patches on the command line: `--patch` (each line an RFC 6902
//! JSON Patch of `--baseline`) and `--merge-patch` (RFC 7396), checked by
//! [`EditPolicy::check_patch`] / [`EditPolicy::check_merge_patch`]; and
//! `--schema CONTRACT --edit POLICY --baseline FILE --patch` (or
//! `--merge-patch`), the schema of the patches the policy allows
//! ([`EditPolicy::patch_schema_for`], or without `--provider` the draft
//! 2020-12 schema before any provider's rewrite).
use serde_json::Value;

use super::checker::{Checker, Decision};
pub use super::setup::PatchForm;
use super::setup::{Setup, SetupError};
use crate::json::Limits;
use crate::schema::{Export, Provider};
use crate::{Contract, EditPolicy, OutcomeKind, diff};

/// The patch schema an entry builds: the full schema, or a provider's
/// export of it.
#[derive(Debug)]
pub(super) enum PatchSchema {
    Full(Value),
    Export(Export),
}

/// The checker of edit mode for patches of `baseline` under `policy`.
pub(super) fn checker<T: Contract>(
    policy: EditPolicy<T>,
    baseline: Value,
    form: PatchForm,
    limits: Limits,
) -> Checker {
    Checker {
        limits,
        edit_mode: true,
        replay: None,
        check: Box::new(move |raw| {
            let (checked, applied) = match form {
                PatchForm::Merge => (
                    policy.check_merge_patch(&baseline, raw),
                    policy.apply_merge_patch(&baseline, raw),
                ),
                _ => (
                    policy.check_patch(&baseline, raw),
                    policy.apply_patch(&baseline, raw),
                ),
            };
            match checked {
                Ok(edit) => Decision {
                    changed: Some(edit.changed),
                    ..Decision::of(OutcomeKind::Accept)
                },
                Err(rejection) => {
                    // What the patched document would have changed, when
                    // the patch applies.
                    let changed = applied
                        .ok()
                        .and_then(|text| diff::changed_paths_str(&baseline, &text, &limits).ok())
                        .map(|changed| changed.into_iter().collect())
                        .unwrap_or_default();
                    Decision {
                        changed: Some(changed),
                        ..Decision::from_rejection(rejection)
                    }
                }
            }
        }),
    }
}

/// The patch schema of `T` for the setup's policy and baseline (checked as
/// edit mode checks them).
pub(super) fn schema<T: Contract>(
    setup: &Setup,
    provider: Option<Provider>,
) -> Result<PatchSchema, SetupError> {
    let Some((policy, baseline)) = super::setup::edit_setup::<T>(setup)? else {
        return Err(SetupError(
            "a patch schema needs --edit POLICY --baseline FILE".into(),
        ));
    };
    let merge = setup.patch == PatchForm::Merge;
    let Some(provider) = provider else {
        return Ok(PatchSchema::Full(if merge {
            policy.merge_patch_schema(&baseline)
        } else {
            policy.patch_schema(&baseline)
        }));
    };
    let export = if merge {
        policy.merge_patch_schema_for(&baseline, provider)
    } else {
        policy.patch_schema_for(&baseline, provider)
    };
    export
        .map(PatchSchema::Export)
        .map_err(|e| SetupError(e.to_string()))
}
