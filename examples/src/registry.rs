//! The built-in contracts behind one type-erased interface, so the CLI and the
//! tests can iterate over them.
//!
//! ```
//! use contract_examples::registry::{self, Setup};
//!
//! let names: Vec<_> = registry::contracts().iter().map(|c| c.name).collect();
//! assert_eq!(names, ["close-ticket", "settings", "triage", "ticket-extraction", "vacation", "step", "shipping-label"]);
//!
//! let vacation = registry::find("vacation").unwrap();
//! let checker = vacation.checker(&Setup::default()).unwrap();
//! let decision = checker.check(r#"{"status":"complete","start_date":"2027-06-14","end_date":"2027-06-12","clarification_question":null}"#);
//! assert_eq!(decision.outcome.as_str(), "reject");
//! assert_eq!(decision.errors[0].code, "order");
//! ```
use std::fmt;
use std::sync::Arc;

use contract_runtime::diff;
use contract_runtime::json::{self, Limits};
use contract_runtime::stream::{Progress, Stream};
use contract_runtime::{Contract, Error, Outcome, OutcomeKind, Rejection, Stage, Violation};
use serde::Serialize;
use serde_json::Value;

use crate::close_ticket::{CloseTicket, TicketContext};
use crate::settings::Settings;
use crate::step::Step;
use crate::ticket_extraction::{self, EmailContext, TicketExtraction};
use crate::triage::Triage;
use crate::vacation::VacationRequest;

/// One built-in contract: its name, what it is for, and type-erased access
/// to its schema, edit policies and checks.
pub struct ContractEntry {
    /// The name on the command line (`close-ticket`).
    pub name: &'static str,
    /// One line: what the model is asked for, and which seed it comes from.
    pub description: &'static str,
    /// What `--context` must hold, or `None` when the contract takes none.
    pub context: Option<&'static str>,
    /// Whether `--source FILE` (the text `evidence` fields must quote) is needed.
    pub needs_source: bool,
    /// Size and depth limits of one document.
    pub limits: Limits,
    schema: fn() -> Value,
    policies: fn() -> Vec<PolicyInfo>,
    prepare: fn(&Setup) -> Result<Checker, SetupError>,
}

impl fmt::Debug for ContractEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ContractEntry")
            .field("name", &self.name)
            .field("context", &self.context)
            .field("needs_source", &self.needs_source)
            .finish_non_exhaustive()
    }
}

/// An edit policy's name and the pointers it allows to change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PolicyInfo {
    /// The policy's name (`disable_email`).
    pub name: &'static str,
    /// The pointers it allows to change.
    pub paths: &'static [&'static str],
}

/// What a check needs besides the document: the raw text of `--context`,
/// the source text, and for edit mode the baseline document and the policy.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Setup {
    /// `--context`: a JSON object (see [`ContractEntry::context`]).
    pub context: Option<String>,
    /// `--source`: the text the model read (the file's contents).
    pub source: Option<String>,
    /// `--baseline`: the document before the edit (the file's contents).
    pub baseline: Option<String>,
    /// `--edit`: the name of the edit policy.
    pub edit: Option<String>,
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

/// The decision on one document, without the typed value: what the CLI
/// prints for each line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// `accept`, `clarify`, `decline`, `review` or `reject`.
    pub outcome: OutcomeKind,
    /// Every error of a rejection (empty otherwise).
    pub errors: Vec<Error>,
    /// How many further errors a rejection found but did not keep.
    pub omitted: usize,
    /// Why a person should review (empty unless `review`).
    pub reasons: Vec<Violation>,
    /// In edit mode, the changed pointers (for a rejected candidate that
    /// parsed, the pointers it would have changed; empty if it did not
    /// parse); `None` outside edit mode.
    pub changed: Option<Vec<String>>,
}

impl Decision {
    /// The decision an outcome stands for.
    pub fn from_outcome<T>(outcome: Outcome<T>) -> Self {
        match outcome {
            Outcome::Reject(rejection) => Decision::from_rejection(rejection),
            Outcome::Review { reasons, .. } => Decision {
                reasons,
                ..Decision::of(OutcomeKind::Review)
            },
            other => Decision::of(other.kind()),
        }
    }

    /// A rejection.
    pub fn from_rejection(rejection: Rejection) -> Self {
        Decision {
            errors: rejection.errors,
            omitted: rejection.omitted,
            ..Decision::of(OutcomeKind::Reject)
        }
    }

    fn of(outcome: OutcomeKind) -> Self {
        Decision {
            outcome,
            errors: Vec::new(),
            omitted: 0,
            reasons: Vec::new(),
            changed: None,
        }
    }

    /// The earliest stage that failed, for a rejection.
    pub fn rejected_at(&self) -> Option<Stage> {
        self.errors.iter().map(|e| e.stage).min()
    }
}

type CheckFn = Box<dyn Fn(&str) -> Decision + Send + Sync>;

type ReplayFn = Box<dyn Fn(&[&str]) -> Replay + Send + Sync>;

/// A document that arrived in pieces, pushed through the contract's
/// [`Stream`] as a caller that stops the model at the first rejection
/// would: where it stopped, and the decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Replay {
    /// The index (0-based) of the piece whose push was rejected; `None`
    /// when every piece was pushed.
    pub stopped_at: Option<usize>,
    /// The bytes pushed: up to and including the rejected piece, or all.
    pub read: usize,
    /// The bytes of all the pieces.
    pub total: usize,
    /// `finish()` on what was pushed.
    pub decision: Decision,
}

/// Pushes `pieces` into `stream` until one is rejected, then finishes it.
pub fn replay<T: Contract>(mut stream: Stream<'_, T>, pieces: &[&str]) -> Replay {
    let total = pieces.iter().map(|p| p.len()).sum();
    let mut stopped_at = None;
    for (i, piece) in pieces.iter().enumerate() {
        if let Progress::Rejected(_) = stream.push(piece) {
            stopped_at = Some(i);
            break;
        }
    }
    Replay {
        stopped_at,
        read: stream.received(),
        total,
        decision: Decision::from_outcome(stream.finish()),
    }
}

/// A contract ready to check documents, with its context, source and edit
/// policy bound.
pub struct Checker {
    limits: Limits,
    edit_mode: bool,
    check: CheckFn,
    replay: Option<ReplayFn>,
}

impl fmt::Debug for Checker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Checker")
            .field("limits", &self.limits)
            .field("edit_mode", &self.edit_mode)
            .finish_non_exhaustive()
    }
}

impl Checker {
    /// Checks one document through every stage the contract declares.
    pub fn check(&self, document: &str) -> Decision {
        (self.check)(document)
    }

    /// The document that arrived as `pieces`, checked while it streams
    /// (see [`replay`]); `None` in edit mode, which needs the whole
    /// candidate.
    pub fn replay(&self, pieces: &[&str]) -> Option<Replay> {
        self.replay.as_ref().map(|replay| replay(pieces))
    }

    /// The contract's size and depth limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Whether this checker compares against a baseline (its decisions
    /// carry `changed`).
    pub fn edit_mode(&self) -> bool {
        self.edit_mode
    }
}

impl ContractEntry {
    /// The JSON Schema (draft 2020-12) to send to the model provider.
    pub fn schema(&self) -> Value {
        (self.schema)()
    }

    /// The edit policies the contract declares.
    pub fn edit_policies(&self) -> Vec<PolicyInfo> {
        (self.policies)()
    }

    /// Binds a setup: parses and checks `--context`, the source and the
    /// baseline, and finds the edit policy.
    pub fn checker(&self, setup: &Setup) -> Result<Checker, SetupError> {
        self.accepts(
            setup.context.is_some(),
            setup.source.is_some(),
            setup.baseline.is_some(),
            setup.edit.is_some(),
        )?;
        (self.prepare)(setup)
    }

    /// Whether the contract takes the options given (`--context`,
    /// `--source`, `--baseline`, `--edit`), checked before any file is read.
    pub fn accepts(
        &self,
        context: bool,
        source: bool,
        baseline: bool,
        edit: bool,
    ) -> Result<(), SetupError> {
        if context && self.context.is_none() {
            return Err(SetupError(format!("{} takes no --context", self.name)));
        }
        if source && !self.needs_source {
            return Err(SetupError(format!("{} takes no --source", self.name)));
        }
        if (baseline || edit) && self.edit_policies().is_empty() {
            return Err(SetupError(format!(
                "{} declares no edit policy: --baseline and --edit do not apply",
                self.name
            )));
        }
        match (baseline, edit) {
            (true, false) => Err(SetupError("--baseline needs --edit POLICY".into())),
            (false, true) => Err(SetupError("--edit needs --baseline FILE".into())),
            _ => Ok(()),
        }
    }
}

/// Every built-in contract, in the order of the seeds.
pub fn contracts() -> &'static [ContractEntry] {
    &CONTRACTS
}

/// The built-in contract called `name`.
pub fn find(name: &str) -> Option<&'static ContractEntry> {
    CONTRACTS.iter().find(|c| c.name == name)
}

/// The names of the built-in contracts, comma-separated (for messages).
pub fn names() -> String {
    CONTRACTS
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join(", ")
}

static CONTRACTS: [ContractEntry; 7] = [
    ContractEntry {
        name: "close-ticket",
        description: "seed 000: close one resolved ticket of the trusted tenant",
        context: Some(r#"{"tenant": "<tenant id>"}"#),
        needs_source: false,
        limits: CloseTicket::LIMITS,
        schema: CloseTicket::json_schema,
        policies: policies::<CloseTicket>,
        prepare: prepare_close_ticket,
    },
    ContractEntry {
        name: "settings",
        description: "seed 001: notification settings; edit policy disable_email",
        context: None,
        needs_source: false,
        limits: Settings::LIMITS,
        schema: Settings::json_schema,
        policies: policies::<Settings>,
        prepare: prepare_plain::<Settings>,
    },
    ContractEntry {
        name: "triage",
        description: "seed 002: category, priority, confidence and reason of a support message",
        context: None,
        needs_source: false,
        limits: Triage::LIMITS,
        schema: Triage::json_schema,
        policies: policies::<Triage>,
        prepare: prepare_plain::<Triage>,
    },
    ContractEntry {
        name: "ticket-extraction",
        description: "seed 003: incident facts from an e-mail, with evidence and review",
        context: Some(r#"{"confirmed_clusters": ["<cluster>", ...]}"#),
        needs_source: true,
        limits: TicketExtraction::LIMITS,
        schema: TicketExtraction::json_schema,
        policies: policies::<TicketExtraction>,
        prepare: prepare_ticket_extraction,
    },
    ContractEntry {
        name: "vacation",
        description: "seed 004: a vacation request: complete, needs clarification, or not a request",
        context: None,
        needs_source: false,
        limits: VacationRequest::LIMITS,
        schema: VacationRequest::json_schema,
        policies: policies::<VacationRequest>,
        prepare: prepare_plain::<VacationRequest>,
    },
    ContractEntry {
        name: "step",
        description: "an agent's next step, a tagged union: close a ticket, refund, ask the customer, or nothing",
        context: None,
        needs_source: false,
        limits: Step::LIMITS,
        schema: Step::json_schema,
        policies: policies::<Step>,
        prepare: prepare_plain::<Step>,
    },
    ContractEntry {
        name: "shipping-label",
        description: "a shipping label read from a photo: codes fixed by patterns, one on every item of a list",
        context: None,
        needs_source: false,
        limits: crate::shipping_label::ShippingLabel::LIMITS,
        schema: crate::shipping_label::ShippingLabel::json_schema,
        policies: policies::<crate::shipping_label::ShippingLabel>,
        prepare: prepare_plain::<crate::shipping_label::ShippingLabel>,
    },
];

fn policies<T: Contract>() -> Vec<PolicyInfo> {
    T::edit_policies()
        .iter()
        .map(|p| PolicyInfo {
            name: p.name(),
            paths: p.paths(),
        })
        .collect()
}

/// A contract without context: `check`, or its edit policy in edit mode.
fn prepare_plain<T: Contract>(setup: &Setup) -> Result<Checker, SetupError> {
    if let Some(checker) = prepare_edit::<T>(setup)? {
        return Ok(checker);
    }
    Ok(checker::<T>(
        |raw| Decision::from_outcome(T::check(raw)),
        |pieces| replay(T::stream(), pieces),
    ))
}

fn checker<T: Contract>(
    check: impl Fn(&str) -> Decision + Send + Sync + 'static,
    replay: impl Fn(&[&str]) -> Replay + Send + Sync + 'static,
) -> Checker {
    Checker {
        limits: T::LIMITS,
        edit_mode: false,
        check: Box::new(check),
        replay: Some(Box::new(replay)),
    }
}

/// Edit mode, when the setup asks for it: both `--baseline` and `--edit`,
/// a policy the contract declares, and a baseline the contract accepts.
fn prepare_edit<T: Contract>(setup: &Setup) -> Result<Option<Checker>, SetupError> {
    // `ContractEntry::accepts` has refused one without the other.
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
    let limits = T::LIMITS;
    Ok(Some(Checker {
        limits,
        edit_mode: true,
        replay: None,
        check: Box::new(move |raw| match policy.check(&baseline, raw) {
            Ok(edit) => Decision {
                changed: Some(edit.changed),
                ..Decision::of(OutcomeKind::Accept)
            },
            Err(rejection) => {
                // What the candidate would have changed, when it parses
                // (found while it is scanned: no tree of it is built).
                let changed = diff::changed_paths_str(&baseline, raw, &limits)
                    .map(|changed| changed.into_iter().collect())
                    .unwrap_or_default();
                Decision {
                    changed: Some(changed),
                    ..Decision::from_rejection(rejection)
                }
            }
        }),
    }))
}

/// `--context` read with a contract of its own, so it is as strict as a
/// model's output: every key present, no unknown key, no coercion.
fn context_arg<A: Contract>(entry: &str, setup: &Setup) -> Result<A, SetupError> {
    let Some(raw) = &setup.context else {
        return Err(SetupError(format!(
            "{entry} needs --context (trusted values the model cannot choose)"
        )));
    };
    A::from_json(raw).map_err(|r| {
        SetupError(format!(
            "--context for {entry} is not valid: {}",
            one_line(&r)
        ))
    })
}

/// Every error of a rejection, on one line (the first five, then a count).
fn one_line(rejection: &Rejection) -> String {
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

/// `--context` of `close-ticket`.
#[derive(Contract, Debug)]
struct TenantContextArg {
    /// The authenticated tenant.
    #[contract(min_len = 1)]
    tenant: String,
}

fn prepare_close_ticket(setup: &Setup) -> Result<Checker, SetupError> {
    let arg: TenantContextArg = context_arg("close-ticket", setup)?;
    let ctx = Arc::new(TicketContext::demo(&arg.tenant));
    let streamed = Arc::clone(&ctx);
    Ok(checker::<CloseTicket>(
        move |raw| Decision::from_outcome(CloseTicket::check_with(raw, &ctx)),
        move |pieces| replay(CloseTicket::stream_with(&streamed), pieces),
    ))
}

/// `--context` of `ticket-extraction`.
#[derive(Contract, Debug)]
struct ClusterContextArg {
    /// Clusters that monitoring confirmed as affected.
    confirmed_clusters: Vec<String>,
}

fn prepare_ticket_extraction(setup: &Setup) -> Result<Checker, SetupError> {
    let Some(source) = &setup.source else {
        return Err(SetupError(
            "ticket-extraction needs --source FILE (the e-mail the model read)".into(),
        ));
    };
    let arg: ClusterContextArg = context_arg("ticket-extraction", setup)?;
    let ctx = Arc::new(EmailContext {
        source: source.clone(),
        confirmed_clusters: arg.confirmed_clusters,
    });
    let streamed = Arc::clone(&ctx);
    Ok(checker::<TicketExtraction>(
        move |raw| Decision::from_outcome(ticket_extraction::check_extraction(raw, &ctx)),
        move |pieces| replay(TicketExtraction::stream_with(&streamed), pieces),
    ))
}
