//! Per-stage counts and rates over many documents: how many parsed, passed
//! the schema, passed the rules, and what each led to.
//!
//! One number ("92 % success") hides where documents fail. A [`Report`]
//! keeps the funnel: every document [`read`](Report::read) either stops at
//! a stage (counted in [`rejected`](Report::rejected), by the earliest stage
//! that failed) or ends in one of the four non-reject outcomes. A document
//! rejected at stage *S* counts as having passed every stage before *S*.
//!
//! ```
//! use contract_runtime::Contract;
//! use contract_runtime::report::Report;
//!
//! /// A short reply.
//! #[derive(Contract, Debug)]
//! struct Reply {
//!     #[contract(max_len = 20)]
//!     text: String,
//! }
//!
//! let mut report = Report::new();
//! for raw in [r#"{"text":"hi"}"#, r#"{"text":7}"#, "not json", r#"{"text":"ok"}"#] {
//!     report.record(&Reply::check(raw));
//! }
//! assert_eq!(report.read, 4);
//! assert_eq!(report.parsed, 3);
//! assert_eq!(report.schema_valid, 2);
//! assert_eq!(report.accepted, 2);
//! assert_eq!(report.rejected.parse, 1);
//! assert_eq!(report.rejected.schema, 1);
//! assert_eq!(report.rates().accepted, 0.5);
//!
//! let json = serde_json::to_value(&report).unwrap();
//! assert_eq!(json["rejected"]["schema"], 1);
//! assert_eq!(json["rates"]["parsed"], 0.75);
//!
//! // A summary for people, one stage per line.
//! let summary = report.to_string();
//! assert!(summary.starts_with("4 read"));
//! ```
use std::fmt;

use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};

use crate::edit::Edit;
use crate::error::{Rejection, Stage};
use crate::outcome::{Outcome, OutcomeKind};

/// Counts of documents over a run: the stages they passed and the outcome
/// each led to.
///
/// Invariants: `read >= parsed >= schema_valid >= rule_valid`, and
/// `read == accepted + clarified + declined + reviewed + rejected.total()`.
///
/// Serializes (with serde) as its counts plus a `rates` object holding
/// [`Report::rates`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// Documents recorded.
    pub read: u64,
    /// Documents that passed the parse stage (JSON under the strict policy).
    pub parsed: u64,
    /// Documents that passed the schema stage too.
    pub schema_valid: u64,
    /// Documents that passed the rule stage too (`when`, `order`).
    pub rule_valid: u64,
    /// Documents that passed every stage and were accepted.
    pub accepted: u64,
    /// Documents that passed every stage and ask for clarification.
    pub clarified: u64,
    /// Documents that passed every stage and decline.
    pub declined: u64,
    /// Documents that passed every stage and need a person's review.
    pub reviewed: u64,
    /// Rejected documents, by the earliest stage that failed.
    pub rejected: StageCounts,
}

/// One count per [`Stage`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct StageCounts {
    /// Rejected at the parse stage.
    pub parse: u64,
    /// Rejected at the schema stage.
    pub schema: u64,
    /// Rejected at the rule stage.
    pub rule: u64,
    /// Rejected at the business stage (a `check` function, `evidence`).
    pub business: u64,
    /// Rejected at the edit stage (a change an edit policy does not allow).
    pub edit: u64,
}

impl StageCounts {
    /// The count for `stage`.
    pub fn get(&self, stage: Stage) -> u64 {
        match stage {
            Stage::Parse => self.parse,
            Stage::Schema => self.schema,
            Stage::Rule => self.rule,
            Stage::Business => self.business,
            Stage::Edit => self.edit,
        }
    }

    /// The sum over every stage.
    pub fn total(&self) -> u64 {
        Stage::ALL.iter().map(|s| self.get(*s)).sum()
    }

    fn slot(&mut self, stage: Stage) -> &mut u64 {
        match stage {
            Stage::Parse => &mut self.parse,
            Stage::Schema => &mut self.schema,
            Stage::Rule => &mut self.rule,
            Stage::Business => &mut self.business,
            Stage::Edit => &mut self.edit,
        }
    }
}

/// The counts of a [`Report`] divided by the documents read: each a
/// fraction in `[0, 1]`, all `0.0` when nothing was read.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[non_exhaustive]
pub struct Rates {
    /// `parsed / read`.
    pub parsed: f64,
    /// `schema_valid / read`.
    pub schema_valid: f64,
    /// `rule_valid / read`.
    pub rule_valid: f64,
    /// `accepted / read`.
    pub accepted: f64,
    /// `clarified / read`.
    pub clarified: f64,
    /// `declined / read`.
    pub declined: f64,
    /// `reviewed / read`.
    pub reviewed: f64,
    /// `rejected.total() / read`.
    pub rejected: f64,
}

impl Report {
    /// An empty report.
    pub fn new() -> Self {
        Report::default()
    }

    /// Records one document's outcome, from any contract.
    pub fn record<T>(&mut self, outcome: &Outcome<T>) {
        self.record_kind(
            outcome.kind(),
            outcome.rejection().and_then(Rejection::stage),
        );
    }

    /// Records one rejected document (from `from_json`, an edit policy,
    /// or any other check that returns a [`Rejection`]), at the earliest
    /// stage that failed.
    pub fn record_rejection(&mut self, rejection: &Rejection) {
        self.record_kind(OutcomeKind::Reject, rejection.stage());
    }

    /// Records one checked edit: accepted, or rejected at the earliest stage
    /// that failed.
    pub fn record_edit<T>(&mut self, edit: &Result<Edit<T>, Rejection>) {
        match edit {
            Ok(_) => self.record_kind(OutcomeKind::Accept, None),
            Err(rejection) => self.record_rejection(rejection),
        }
    }

    /// Records one document from its outcome's tag and, for a rejection, the
    /// earliest stage that failed (ignored for other outcomes). This is what
    /// [`Report::record`] calls; use it when the typed outcome is gone.
    ///
    /// A rejection without a stage (an empty [`Rejection`]) is counted at
    /// the parse stage: nothing is known to have passed.
    pub fn record_kind(&mut self, kind: OutcomeKind, rejected_at: Option<Stage>) {
        self.read += 1;
        let failed = match kind {
            OutcomeKind::Reject => Some(rejected_at.unwrap_or(Stage::Parse)),
            _ => None,
        };
        // A document passed every stage before the one that failed.
        let passed = |stage: Stage| failed.is_none_or(|f| f > stage);
        self.parsed += u64::from(passed(Stage::Parse));
        self.schema_valid += u64::from(passed(Stage::Schema));
        self.rule_valid += u64::from(passed(Stage::Rule));
        match kind {
            OutcomeKind::Accept => self.accepted += 1,
            OutcomeKind::Clarify => self.clarified += 1,
            OutcomeKind::Decline => self.declined += 1,
            OutcomeKind::Review => self.reviewed += 1,
            OutcomeKind::Reject => {
                if let Some(stage) = failed {
                    *self.rejected.slot(stage) += 1;
                }
            }
        }
    }

    /// Adds another report's counts to this one (e.g. from parallel workers).
    pub fn merge(&mut self, other: &Report) {
        self.read += other.read;
        self.parsed += other.parsed;
        self.schema_valid += other.schema_valid;
        self.rule_valid += other.rule_valid;
        self.accepted += other.accepted;
        self.clarified += other.clarified;
        self.declined += other.declined;
        self.reviewed += other.reviewed;
        for stage in Stage::ALL {
            *self.rejected.slot(stage) += other.rejected.get(stage);
        }
    }

    /// How many documents ended in `kind`.
    pub fn count(&self, kind: OutcomeKind) -> u64 {
        match kind {
            OutcomeKind::Accept => self.accepted,
            OutcomeKind::Clarify => self.clarified,
            OutcomeKind::Decline => self.declined,
            OutcomeKind::Review => self.reviewed,
            OutcomeKind::Reject => self.rejected.total(),
        }
    }

    /// `count / read`, or `0.0` when nothing was read.
    pub fn rate(&self, count: u64) -> f64 {
        if self.read == 0 {
            0.0
        } else {
            count as f64 / self.read as f64
        }
    }

    /// Every count as a fraction of the documents read.
    pub fn rates(&self) -> Rates {
        Rates {
            parsed: self.rate(self.parsed),
            schema_valid: self.rate(self.schema_valid),
            rule_valid: self.rate(self.rule_valid),
            accepted: self.rate(self.accepted),
            clarified: self.rate(self.clarified),
            declined: self.rate(self.declined),
            reviewed: self.rate(self.reviewed),
            rejected: self.rate(self.rejected.total()),
        }
    }
}

impl Serialize for Report {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Report", 10)?;
        s.serialize_field("read", &self.read)?;
        s.serialize_field("parsed", &self.parsed)?;
        s.serialize_field("schema_valid", &self.schema_valid)?;
        s.serialize_field("rule_valid", &self.rule_valid)?;
        s.serialize_field("accepted", &self.accepted)?;
        s.serialize_field("clarified", &self.clarified)?;
        s.serialize_field("declined", &self.declined)?;
        s.serialize_field("reviewed", &self.reviewed)?;
        s.serialize_field("rejected", &self.rejected)?;
        s.serialize_field("rates", &self.rates())?;
        s.end()
    }
}

/// A summary for people: the documents read, then one line per stage and
/// outcome with its count and its rate, then the rejections by stage.
///
/// ```text
/// 4 read
///   parsed           3   75.0%
///   schema-valid     2   50.0%
///   rule-valid       2   50.0%
///   accept           2   50.0%
///   clarify          0    0.0%
///   decline          0    0.0%
///   review           0    0.0%
///   reject           2   50.0%  (parse 1, schema 1)
/// ```
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} read", self.read)?;
        let rows = [
            ("parsed", self.parsed),
            ("schema-valid", self.schema_valid),
            ("rule-valid", self.rule_valid),
            ("accept", self.accepted),
            ("clarify", self.clarified),
            ("decline", self.declined),
            ("review", self.reviewed),
            ("reject", self.rejected.total()),
        ];
        // Counts right-aligned to the widest (`read`), at least five columns.
        let width = self.read.to_string().len().max(5);
        for (label, count) in rows {
            write!(
                f,
                "\n  {label:<12} {count:>width$}  {:>5.1}%",
                self.rate(count) * 100.0
            )?;
        }
        let by_stage: Vec<String> = Stage::ALL
            .iter()
            .filter(|s| self.rejected.get(**s) > 0)
            .map(|s| format!("{} {}", s.as_str(), self.rejected.get(*s)))
            .collect();
        if !by_stage.is_empty() {
            write!(f, "  ({})", by_stage.join(", "))?;
        }
        Ok(())
    }
}

crate::serial::struct_fields!(StageCounts {
    parse,
    schema,
    rule,
    business,
    edit,
});
crate::serial::struct_fields!(Rates {
    parsed,
    schema_valid,
    rule_valid,
    accepted,
    clarified,
    declined,
    reviewed,
    rejected,
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn rejection(stage: Stage) -> Rejection {
        Rejection::single(Error::new(stage, "", "x", "x"))
    }

    #[test]
    fn a_rejection_counts_every_stage_before_the_one_that_failed() {
        let mut report = Report::new();
        report.record_rejection(&rejection(Stage::Rule));
        assert_eq!(
            (report.parsed, report.schema_valid, report.rule_valid),
            (1, 1, 0)
        );
        assert_eq!(report.rejected.rule, 1);
    }

    #[test]
    fn business_and_edit_rejections_passed_the_rules() {
        let mut report = Report::new();
        report.record_rejection(&rejection(Stage::Business));
        report.record_rejection(&rejection(Stage::Edit));
        assert_eq!(report.rule_valid, 2);
        assert_eq!(report.rejected.total(), 2);
    }

    #[test]
    fn an_empty_rejection_counts_at_parse() {
        let mut report = Report::new();
        report.record_rejection(&Rejection::from_errors(Vec::new()));
        assert_eq!(report.parsed, 0);
        assert_eq!(report.rejected.parse, 1);
    }

    #[test]
    fn non_reject_outcomes_pass_every_stage() {
        let mut report = Report::new();
        for kind in [
            OutcomeKind::Accept,
            OutcomeKind::Clarify,
            OutcomeKind::Decline,
            OutcomeKind::Review,
        ] {
            report.record_kind(kind, Some(Stage::Parse));
        }
        assert_eq!(report.rule_valid, 4);
        assert_eq!(
            (
                report.accepted,
                report.clarified,
                report.declined,
                report.reviewed
            ),
            (1, 1, 1, 1)
        );
        assert_eq!(report.rejected.total(), 0);
    }

    #[test]
    fn rates_are_zero_when_nothing_was_read() {
        assert_eq!(Report::new().rates(), Rates::default());
    }

    #[test]
    fn merge_adds_counts() {
        let mut a = Report::new();
        a.record_kind(OutcomeKind::Accept, None);
        let mut b = Report::new();
        b.record_rejection(&rejection(Stage::Schema));
        a.merge(&b);
        assert_eq!((a.read, a.parsed, a.schema_valid), (2, 2, 1));
        assert_eq!(a.rejected.schema, 1);
    }
}
