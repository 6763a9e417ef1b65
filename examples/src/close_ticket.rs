//! Seed 000: close a ticket only after the parse, schema **and** business
//! stages pass (`close-ticket`).
//!
//! The model may suggest which ticket to close and why; it never chooses the
//! tenant. The tenant comes from the application ([`TicketContext`]), and the
//! business stage ([`check_ticket`]) looks the ticket up in trusted state: it
//! must exist, belong to that tenant, and be resolved.
//!
//! ```
//! use contract_examples::close_ticket::{CloseTicket, TicketContext};
//! use contract_runtime::Contract;
//!
//! let ctx = TicketContext::demo("demo-a");
//! let ok = CloseTicket::check_with(
//!     r#"{"action":"close_ticket","ticket_id":7,"reason":"Solicitação resolvida"}"#,
//!     &ctx,
//! );
//! assert_eq!(ok.kind().as_str(), "accept");
//!
//! // Schema-valid, but ticket 8 belongs to another tenant.
//! let other = CloseTicket::check_with(
//!     r#"{"action":"close_ticket","ticket_id":8,"reason":"Solicitação resolvida"}"#,
//!     &ctx,
//! );
//! assert_eq!(other.rejection().unwrap().errors[0].code, "wrong_tenant");
//!
//! // For this request, the model is offered the tenant's closable tickets only.
//! use contract_runtime::schema::Provider;
//! let export = CloseTicket::json_schema_for_with(Provider::OpenAi, &ctx).unwrap();
//! assert_eq!(export.schema["properties"]["ticket_id"]["enum"], serde_json::json!([7]));
//! ```
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use contract_runtime::{Contract, IdempotencyKey, Outcome, Violation};

/// A proposal to close one support ticket that is already resolved: the
/// action (always `close_ticket`), the ticket's id, and a short reason.
#[derive(Contract, Debug, Clone, PartialEq, Eq)]
#[contract(max_bytes = 4096, context = TicketContext, check = check_ticket)]
pub struct CloseTicket {
    /// The action to perform: exactly the string `close_ticket`.
    #[contract(equals = "close_ticket")]
    pub action: String,
    /// The id of the ticket to close (a positive integer, not a string).
    // Bound to the tenant's closable tickets: an export made for one
    // request (`json_schema_for_with`) lists them as an `enum`.
    #[contract(min = 1, one_of = ctx.closable_ticket_ids)]
    pub ticket_id: u64,
    /// Why the ticket can be closed, in 1 to 200 characters.
    #[contract(min_len = 1, max_len = 200)]
    pub reason: String,
}

/// The state of a ticket in the application's records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TicketStatus {
    /// Still being worked on: it may not be closed.
    Open,
    /// Resolved: it may be closed.
    Resolved,
}

/// A ticket as the application's records hold it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ticket {
    /// The tenant (customer) the ticket belongs to.
    pub tenant: String,
    /// Its current state.
    pub status: TicketStatus,
}

/// Trusted context for the business stage: who is asking (the tenant, from
/// the authenticated session, never from the model's JSON) and the tickets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketContext {
    /// The authenticated tenant.
    pub tenant: String,
    /// The ticket store, by id.
    pub tickets: BTreeMap<u64, Ticket>,
    /// The tickets this tenant may close (its resolved ones, see
    /// [`TicketContext::closable`]): what an export for this request offers
    /// the model.
    pub closable_ticket_ids: Vec<u64>,
}

impl TicketContext {
    /// The seed's fixtures, seen by `tenant`: ticket 7 (`demo-a`,
    /// resolved), 8 (`demo-b`, resolved) and 9 (`demo-a`, open).
    pub fn demo(tenant: &str) -> Self {
        let ticket = |tenant: &str, status| Ticket {
            tenant: tenant.to_owned(),
            status,
        };
        let tickets = BTreeMap::from([
            (7, ticket("demo-a", TicketStatus::Resolved)),
            (8, ticket("demo-b", TicketStatus::Resolved)),
            (9, ticket("demo-a", TicketStatus::Open)),
        ]);
        TicketContext {
            tenant: tenant.to_owned(),
            closable_ticket_ids: Self::closable(tenant, &tickets),
            tickets,
        }
    }

    /// The ids of `tenant`'s resolved tickets in `tickets`, in id order:
    /// those `check_ticket` lets it close.
    pub fn closable(tenant: &str, tickets: &BTreeMap<u64, Ticket>) -> Vec<u64> {
        tickets
            .iter()
            .filter(|(_, t)| t.tenant == tenant && t.status == TicketStatus::Resolved)
            .map(|(id, _)| *id)
            .collect()
    }
}

/// The business stage: the ticket must exist, belong to the trusted tenant
/// and be resolved. Codes: `ticket_not_found`, `wrong_tenant`,
/// `ticket_not_resolved`, all at `/ticket_id`. Each stands for the
/// derive's `not_in_context` (the ticket is not among
/// `closable_ticket_ids`), which is reported only where this function
/// gives no reason.
pub fn check_ticket(proposal: &CloseTicket, ctx: &TicketContext) -> Result<(), Violation> {
    let Some(ticket) = ctx.tickets.get(&proposal.ticket_id) else {
        return Err(Violation::business(
            "/ticket_id",
            "ticket_not_found",
            "there is no ticket with this id",
        ));
    };
    if ticket.tenant != ctx.tenant {
        return Err(Violation::business(
            "/ticket_id",
            "wrong_tenant",
            "the ticket belongs to another tenant",
        ));
    }
    if ticket.status != TicketStatus::Resolved {
        return Err(Violation::business(
            "/ticket_id",
            "ticket_not_resolved",
            "the ticket is not resolved yet",
        ));
    }
    Ok(())
}

/// A call the mock executor made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecutedCall {
    /// The ticket closed.
    pub ticket_id: u64,
    /// Always `close_ticket`.
    pub action: String,
    /// The proposal's idempotency key, scoped by the trusted tenant.
    pub key: IdempotencyKey,
}

/// The executor refused an accepted proposal because a call with the same
/// idempotency key was already made: the same document (up to key order,
/// whitespace and escapes) for the same tenant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateCall {
    /// The key both proposals share.
    pub key: IdempotencyKey,
    /// The ticket of the call already made.
    pub ticket_id: u64,
}

impl fmt::Display for DuplicateCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "refused: ticket {} was already closed by a call with idempotency key {}",
            self.ticket_id, self.key
        )
    }
}

impl std::error::Error for DuplicateCall {}

/// The seed's simulated tool: it records a call only when every stage
/// passed, and nothing at all otherwise. Nothing real is closed.
///
/// It is idempotent: before a call it records the accepted proposal's
/// [`idempotency_key`](Contract::idempotency_key), scoped by the trusted
/// tenant (never by anything the model wrote), and refuses a second call
/// with the same key ([`DuplicateCall`]) without recording anything. The key
/// is the fingerprint of the canonical document, so a replay that differs
/// only in key order or whitespace is the same call; a proposal with another
/// `reason` for the same ticket is another document, hence another key.
///
/// ```
/// use contract_examples::close_ticket::{MockExecutor, TicketContext};
///
/// let ctx = TicketContext::demo("demo-a");
/// let mut executor = MockExecutor::default();
/// // Rejected (a string for an integer): no call.
/// let outcome = executor.propose(r#"{"action":"close_ticket","ticket_id":"7","reason":"ok"}"#, &ctx);
/// assert!(outcome.unwrap().is_reject());
/// assert!(executor.calls().is_empty());
///
/// executor.propose(r#"{"action":"close_ticket","ticket_id":7,"reason":"ok"}"#, &ctx).unwrap();
/// assert_eq!(executor.calls().len(), 1);
///
/// // The same proposal again, formatted differently: refused, still one call.
/// let again = executor.propose(r#"{ "reason": "ok", "ticket_id": 7, "action": "close_ticket" }"#, &ctx);
/// assert!(again.is_err());
/// assert_eq!(executor.calls().len(), 1);
/// ```
#[derive(Debug, Default)]
pub struct MockExecutor {
    calls: Vec<ExecutedCall>,
    keys: BTreeSet<IdempotencyKey>,
}

impl MockExecutor {
    /// Checks `raw` against every stage and executes it only on `accept`
    /// (see [`MockExecutor::execute`]). `Ok` holds the decision, whether or
    /// not it led to a call; `Err` is an accepted proposal refused as a
    /// duplicate.
    pub fn propose(
        &mut self,
        raw: &str,
        ctx: &TicketContext,
    ) -> Result<Outcome<CloseTicket>, DuplicateCall> {
        let outcome = CloseTicket::check_with(raw, ctx);
        if let Outcome::Accept(proposal) = &outcome {
            self.execute(proposal, ctx)?;
        }
        Ok(outcome)
    }

    /// Executes an accepted proposal once: records its key and the call, or
    /// refuses a key seen before and records nothing.
    pub fn execute(
        &mut self,
        proposal: &CloseTicket,
        ctx: &TicketContext,
    ) -> Result<ExecutedCall, DuplicateCall> {
        let key = proposal.idempotency_key(Some(&ctx.tenant));
        if !self.keys.insert(key) {
            let ticket_id = self
                .calls
                .iter()
                .find(|c| c.key == key)
                .map_or(proposal.ticket_id, |c| c.ticket_id);
            return Err(DuplicateCall { key, ticket_id });
        }
        let call = ExecutedCall {
            ticket_id: proposal.ticket_id,
            action: proposal.action.clone(),
            key,
        };
        self.calls.push(call.clone());
        Ok(call)
    }

    /// The calls made so far.
    pub fn calls(&self) -> &[ExecutedCall] {
        &self.calls
    }

    /// Whether a call with `key` was made.
    pub fn has_executed(&self, key: &IdempotencyKey) -> bool {
        self.keys.contains(key)
    }

    /// Forgets the calls and the keys: a fresh tool, as between the
    /// article's cases.
    pub fn reset(&mut self) {
        self.calls.clear();
        self.keys.clear();
    }
}
