//! What a check needs besides the document (`Setup`), why a setup cannot
//! run (`SetupError`), and edit mode's policy and baseline: what both the
//! entries and the patch modes read.
use std::fmt;

use serde_json::Value;

use crate::{Contract, EditPolicy, Rejection, json};

/// What an edit-mode line holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum PatchForm {
    /// The whole candidate document.
    #[default]
    Full,
    /// An RFC 6902 JSON Patch (`--patch`): the array, or `{"patch": [..]}`.
    Json,
    /// An RFC 7396 Merge Patch (`--merge-patch`).
    Merge,
}

impl PatchForm {
    /// The option that asks for it (`--patch`, `--merge-patch`), or `None`
    /// for a full document.
    pub fn option(self) -> Option<&'static str> {
        match self {
            PatchForm::Full => None,
            PatchForm::Json => Some("--patch"),
            PatchForm::Merge => Some("--merge-patch"),
        }
    }
}

/// What a check needs besides the document: the raw text of `--context`,
/// the source text, and for edit mode the baseline document and the policy.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Setup {
    /// `--context`: a JSON object (see [`Entry::context`](super::Entry::context)).
    pub context: Option<String>,
    /// `--source`: the text the model read (the file's contents).
    pub source: Option<String>,
    /// `--baseline`: the document before the edit (the file's contents).
    pub baseline: Option<String>,
    /// `--edit`: the name of the edit policy.
    pub edit: Option<String>,
    /// `--patch` / `--merge-patch`: each document is a patch of the
    /// baseline, not a whole candidate.
    pub patch: PatchForm,
}

/// A setup the contract cannot run with: one line, for a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError(pub String);

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

/// The policy and the baseline of edit mode, when the setup asks for it:
/// a policy the contract declares, and a baseline the contract accepts.
pub(super) fn edit_setup<T: Contract>(
    setup: &Setup,
) -> Result<Option<(EditPolicy<T>, Value)>, SetupError> {
    // `Entry::accepts` has refused one without the other.
    let (Some(baseline), Some(name)) = (&setup.baseline, &setup.edit) else {
        return Ok(None);
    };
    let Some(policy) = T::edit_policy(name) else {
        let known: Vec<&str> = T::edit_policies().iter().map(|p| p.name()).collect();
        return Err(SetupError(if known.is_empty() {
            format!("unknown edit policy `{name}`: the contract declares none")
        } else {
            format!("unknown edit policy `{name}`; known: {}", known.join(", "))
        }));
    };
    // The baseline must itself be a valid document of the contract.
    if let Err(rejection) = T::from_json(baseline) {
        return Err(SetupError(format!(
            "--baseline is not a valid document of the contract: {}",
            one_line(&rejection)
        )));
    }
    let baseline = json::parse(baseline.as_bytes(), &T::LIMITS)
        .map_err(|r| SetupError(format!("--baseline is not valid JSON: {}", one_line(&r))))?;
    Ok(Some((policy, baseline)))
}

/// Every error of a rejection, on one line (the first five, then a count).
pub(super) fn one_line(rejection: &Rejection) -> String {
    const SHOWN: usize = 5;
    let mut line = rejection
        .errors
        .iter()
        .take(SHOWN)
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ");
    let more = rejection.errors.len().saturating_sub(SHOWN) + rejection.omitted;
    if more > 0 {
        line.push_str(&format!("; and {more} more"));
    }
    line
}
