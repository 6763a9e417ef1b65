//! The built-in contracts as entries of [`contract_runtime::cli`]: the
//! `contract-check` binary is [`crate::cli::command`] over them, and a
//! crate of yours makes its own the same way.
//!
//! ```
//! use contract_examples::registry;
//! use contract_runtime::cli::Setup;
//!
//! let names: Vec<_> = registry::contracts().iter().map(|c| c.name()).collect();
//! assert_eq!(names, ["close-ticket", "settings", "triage", "ticket-extraction", "vacation", "step", "shipping-label", "support-tools"]);
//!
//! let vacation = registry::find("vacation").unwrap();
//! let checker = vacation.checker(&Setup::default()).unwrap();
//! let decision = checker.check(r#"{"status":"complete","start_date":"2027-06-14","end_date":"2027-06-12","clarification_question":null}"#);
//! assert_eq!(decision.outcome.as_str(), "reject");
//! assert_eq!(decision.errors[0].code, "order");
//! ```
use std::sync::LazyLock;

use contract_runtime::Contract;
use contract_runtime::cli::{Entry, entry, tools};

use crate::close_ticket::{CloseTicket, TicketContext};
use crate::settings::Settings;
use crate::shipping_label::ShippingLabel;
use crate::step::Step;
use crate::support_tools::SupportTool;
use crate::ticket_extraction::{EmailContext, TicketExtraction};
use crate::triage::{Triage, TriageTool};
use crate::vacation::VacationRequest;

/// Every built-in contract, in the order of the seeds (made anew on each
/// call; [`contracts`] keeps one set).
pub fn entries() -> Vec<Entry> {
    vec![
        entry::<CloseTicket>("close-ticket")
            .about("seed 000: close one resolved ticket of the trusted tenant")
            .context_example(r#"{"tenant": "<tenant id>", "closable_ticket_ids": [<id>, ...] (optional)}"#)
            .with_context_from(|arg: TenantContextArg| {
                let mut ctx = TicketContext::demo(&arg.tenant);
                if let Some(ids) = arg.closable_ticket_ids {
                    ctx.closable_ticket_ids = ids;
                }
                Ok(ctx)
            }),
        entry::<Settings>("settings")
            .about("seed 001: notification settings; edit policy disable_email"),
        entry::<Triage>("triage")
            .about("seed 002: category, priority, confidence and reason of a support message")
            .with_tool_calls::<TriageTool>(),
        entry::<TicketExtraction>("ticket-extraction")
            .about("seed 003: incident facts from an e-mail, with evidence and review")
            .context_example(r#"{"confirmed_clusters": ["<cluster>", ...]}"#)
            .with_source(|arg: ClusterContextArg, source| {
                Ok(EmailContext {
                    source,
                    confirmed_clusters: arg.confirmed_clusters,
                })
            }),
        entry::<VacationRequest>("vacation").about(
            "seed 004: a vacation request: complete, needs clarification, or not a request",
        ),
        entry::<Step>("step").about(
            "an agent's next step, a tagged union: close a ticket, refund, ask the customer, or nothing",
        ),
        entry::<ShippingLabel>("shipping-label").about(
            "a shipping label read from a photo: codes fixed by patterns, one on every item of a list",
        ),
        tools::<SupportTool>("support-tools").about(
            "the tools a support assistant may call; --calls checks a batch of parallel calls per line",
        ),
    ]
}

static CONTRACTS: LazyLock<Vec<Entry>> = LazyLock::new(entries);

/// Every built-in contract, in the order of the seeds.
pub fn contracts() -> &'static [Entry] {
    &CONTRACTS
}

/// The built-in contract called `name`.
pub fn find(name: &str) -> Option<&'static Entry> {
    contracts().iter().find(|c| c.name() == name)
}

/// `--context` of `close-ticket`, read as strictly as a model's output.
#[derive(Contract, Debug)]
pub struct TenantContextArg {
    /// The authenticated tenant.
    #[contract(min_len = 1)]
    pub tenant: String,
    /// The tickets the tenant may close in this request (by default its
    /// resolved tickets of the demo store).
    #[contract(optional)]
    pub closable_ticket_ids: Option<Vec<u64>>,
}

/// `--context` of `ticket-extraction`.
#[derive(Contract, Debug)]
pub struct ClusterContextArg {
    /// Clusters that monitoring confirmed as affected.
    pub confirmed_clusters: Vec<String>,
}
