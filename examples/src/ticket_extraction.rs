//! Seed 003: facts extracted from a support e-mail, with evidence and review
//! (`ticket-extraction`).
//!
//! A schema-valid extraction can still be false: a conditional deadline
//! written as a date, a cluster the author only *wondered* about, a quote
//! that is not in the e-mail. Those are not structural errors, so they do not
//! reject the document; they route it to a person (`review`), one reason
//! each, and the doubtful values are dropped to `null`:
//!
//! | condition | pointer | code | value |
//! |---|---|---|---|
//! | `raw_quote` does not occur verbatim in the e-mail, or is empty or only whitespace | `/raw_quote` | `evidence_not_found` | dropped (quarantine) |
//! | `deadline_iso` is not a strict, calendar-valid `YYYY-MM-DD` | `/deadline_iso` | `invalid_date` | dropped (quarantine) |
//! | a valid deadline comes with a `deadline_context` (a condition or caveat) | `/deadline_iso` | `deadline_conditional` | dropped (a review reason on a quarantined field) |
//! | `affected_cluster` is set but not in the context's `confirmed_clusters` | `/affected_cluster` | `cluster_not_confirmed` | kept |
//! | the deadline is null (and no reason above already explains why) | `/deadline_iso` | `deadline_missing` | — |
//!
//! Otherwise `accept`. Structural errors (a missing key, a wrong type, in
//! any field, quarantined or not) and an empty `issue_summary` still
//! `reject`. Three reading notes:
//!
//! - The article treats an empty string as "absent" (Python truthiness);
//!   here only `null` is absent, so `"affected_cluster": ""` is a cluster
//!   that is not confirmed, and `"deadline_context": ""` is a context —
//!   both go to review, the safe direction.
//! - A quarantined field drops a failing *value* to `null` (a string that is
//!   not a date, a quote not in the e-mail); a wrong *type* is structural,
//!   so `"deadline_iso": 7` and `"raw_quote": []` are rejected
//!   (`invalid_type`), as the seed says.
//! - An empty or whitespace-only `raw_quote` occurs in every e-mail, but it
//!   is no evidence: a review (`evidence_not_found`), and dropped.
//!
//! Two runtime rules make the table hold with the contract alone: a review
//! reason that the `check` function gives for a quarantined field drops its
//! value (the conditional deadline), and a review keeps one reason per
//! pointer, the earliest (a date dropped as invalid is not also "missing").
//!
//! ```
//! use contract_examples::ticket_extraction::{check_extraction, EmailContext};
//!
//! let ctx = EmailContext {
//!     source: "Billing PDF export fails since yesterday; maybe eu-central-1.".into(),
//!     confirmed_clusters: vec![],
//! };
//! let outcome = check_extraction(
//!     r#"{"issue_summary":"PDF export fails","deadline_iso":"next Tuesday","deadline_context":null,"affected_cluster":"eu-central-1","raw_quote":"PDF export fails"}"#,
//!     &ctx,
//! );
//! let codes: Vec<_> = outcome.reasons().iter().map(|r| r.code).collect();
//! assert_eq!(codes, ["invalid_date", "cluster_not_confirmed"]);
//! assert_eq!(outcome.value().unwrap().deadline_iso, None);
//! ```
use contract_runtime::{Contract, Date, EvidenceSource, Outcome, Violation};

/// The facts of a support incident extracted from one e-mail. Write `null`
/// for anything the author does not state with certainty, and never invent
/// a date.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = EmailContext, check = review_extraction)]
pub struct TicketExtraction {
    /// A one-line summary of the problem (1 to 500 characters).
    #[contract(min_len = 1, max_len = 500)]
    pub issue_summary: String,
    /// The deadline as a calendar date `YYYY-MM-DD`, only if the e-mail fixes
    /// it unconditionally; otherwise `null`.
    #[contract(quarantine)]
    pub deadline_iso: Option<Date>,
    /// Any condition, caveat or relative wording that comes with the
    /// deadline, or `null`.
    pub deadline_context: Option<String>,
    /// The affected cluster or service, only if the author confirms it;
    /// `null` if they doubt or ask.
    #[contract(one_of = ctx.confirmed_clusters)]
    pub affected_cluster: Option<String>,
    /// A verbatim quote from the e-mail that supports the extracted facts.
    #[contract(evidence, quarantine)]
    pub raw_quote: Option<String>,
}

/// Trusted context: the e-mail the model read, and the clusters that
/// monitoring has confirmed as affected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailContext {
    /// The source e-mail, as sent to the model.
    pub source: String,
    /// Clusters confirmed by an independent signal (alerts, monitoring).
    pub confirmed_clusters: Vec<String>,
}

impl EvidenceSource for EmailContext {
    fn source_text(&self) -> &str {
        &self.source
    }
}

/// Review code: a valid deadline came with a condition.
pub const DEADLINE_CONDITIONAL: &str = "deadline_conditional";
/// Review code: there is no usable deadline.
pub const DEADLINE_MISSING: &str = "deadline_missing";
/// Review code: the cluster is not confirmed by the context.
pub const CLUSTER_NOT_CONFIRMED: &str = "cluster_not_confirmed";

/// The `check` function: review reasons only, never a rejection.
pub fn review_extraction(x: &TicketExtraction, ctx: &EmailContext) -> Result<(), Vec<Violation>> {
    let mut reasons = Vec::new();
    match (&x.deadline_iso, &x.deadline_context) {
        (Some(_), Some(_)) => reasons.push(Violation::review(
            "/deadline_iso",
            DEADLINE_CONDITIONAL,
            "the deadline comes with a condition or caveat; a person must confirm it",
        )),
        (None, _) => reasons.push(Violation::review(
            "/deadline_iso",
            DEADLINE_MISSING,
            "there is no unconditional deadline; a person must set one",
        )),
        (Some(_), None) => {}
    }
    if let Some(cluster) = &x.affected_cluster
        && !ctx.confirmed_clusters.iter().any(|c| c == cluster)
    {
        reasons.push(Violation::review(
            "/affected_cluster",
            CLUSTER_NOT_CONFIRMED,
            "the cluster is not confirmed by monitoring; a person must verify it",
        ));
    }
    if reasons.is_empty() {
        Ok(())
    } else {
        Err(reasons)
    }
}

/// Every stage of the contract against the e-mail and the confirmed
/// clusters: the same as `TicketExtraction::check_with`, kept as the name the
/// CLI and the tests use.
pub fn check_extraction(raw: &str, ctx: &EmailContext) -> Outcome<TicketExtraction> {
    TicketExtraction::check_with(raw, ctx)
}
