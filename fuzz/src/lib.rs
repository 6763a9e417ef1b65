//! Contracts and oracles shared by the fuzz targets.
//!
//! The contracts mirror the seed contracts of `shared/seeds/README.md` as
//! `contract-examples` declares them (close-ticket, triage, vacation,
//! settings). They are copied, not imported, so that the fuzz crate depends
//! on `contract-runtime` alone and keeps building while the examples change.
//! `Filter` and `Page<T>` are a recursive and a generic contract.
use std::collections::BTreeMap;

use contract_runtime::json::{Limits, parse};
use contract_runtime::pointer::Pointer;
use contract_runtime::{Contract, Date, Outcome, Rejection, Stage, Violation};

// ---------------------------------------------------------------------------
// 000: close a ticket, with a business stage against trusted context.

/// A proposal to close one resolved ticket.
#[derive(Contract, Debug, Clone, PartialEq, Eq)]
#[contract(max_bytes = 4096, context = TicketContext, check = check_ticket)]
pub struct CloseTicket {
    /// Always `close_ticket`.
    #[contract(equals = "close_ticket")]
    pub action: String,
    /// The ticket, a positive integer.
    #[contract(min = 1)]
    pub ticket_id: u64,
    /// Why, in 1 to 200 characters.
    #[contract(min_len = 1, max_len = 200)]
    pub reason: String,
}

/// The trusted tenant and the ticket store (id → (tenant, resolved)).
#[derive(Debug, Clone)]
pub struct TicketContext {
    /// The authenticated tenant.
    pub tenant: String,
    /// The tickets.
    pub tickets: BTreeMap<u64, (&'static str, bool)>,
}

impl TicketContext {
    /// The seed's fixtures: 7 (`demo-a`, resolved), 8 (`demo-b`, resolved),
    /// 9 (`demo-a`, open).
    pub fn demo(tenant: &str) -> Self {
        TicketContext {
            tenant: tenant.to_owned(),
            tickets: BTreeMap::from([
                (7, ("demo-a", true)),
                (8, ("demo-b", true)),
                (9, ("demo-a", false)),
            ]),
        }
    }
}

/// The business stage of seed 000.
pub fn check_ticket(proposal: &CloseTicket, ctx: &TicketContext) -> Result<(), Violation> {
    let Some(&(tenant, resolved)) = ctx.tickets.get(&proposal.ticket_id) else {
        return Err(Violation::business(
            "/ticket_id",
            "ticket_not_found",
            "there is no ticket with this id",
        ));
    };
    if tenant != ctx.tenant {
        return Err(Violation::business(
            "/ticket_id",
            "wrong_tenant",
            "the ticket belongs to another tenant",
        ));
    }
    if !resolved {
        return Err(Violation::business(
            "/ticket_id",
            "ticket_not_resolved",
            "the ticket is not resolved yet",
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// 001: settings, with the `disable_email` edit policy.

/// Notification switches.
#[derive(Contract, Debug, Clone, PartialEq, Eq)]
pub struct Notifications {
    /// E-mail notifications on or off.
    pub email: bool,
}

/// Account settings.
#[derive(Contract, Debug, Clone, PartialEq, Eq)]
#[contract(edit(disable_email = ["/notifications/email"]))]
pub struct Settings {
    /// Notification switches.
    pub notifications: Notifications,
    /// Retries, at least 0.
    #[contract(min = 0)]
    pub retry_limit: u32,
    /// Channels, in order.
    pub channels: Vec<String>,
}

/// The seed's baseline settings.
pub fn settings_baseline() -> serde_json::Value {
    serde_json::json!({"notifications":{"email":true},"retry_limit":3,"channels":["email","sms"]})
}

// ---------------------------------------------------------------------------
// 002: triage.

/// Triage of a support message.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Triage {
    /// The category.
    pub categoria: Categoria,
    /// The priority.
    pub prioridade: Prioridade,
    /// Confidence in [0, 1].
    #[contract(min = 0, max = 1)]
    pub confianca: f64,
    /// Why, at most 500 characters.
    #[contract(max_len = 500)]
    pub motivo: String,
}

/// The category of a message.
#[derive(Contract, Debug, Clone, Copy, PartialEq, Eq)]
#[contract(rename_all = "lowercase")]
pub enum Categoria {
    /// Billing.
    Cobranca,
    /// A bug.
    Bug,
    /// A question.
    Duvida,
    /// A complaint.
    Reclamacao,
    /// Anything else.
    Outro,
}

/// How urgent.
#[derive(Contract, Debug, Clone, Copy, PartialEq, Eq)]
#[contract(rename_all = "lowercase")]
pub enum Prioridade {
    /// Can wait.
    Baixa,
    /// The usual.
    Normal,
    /// Soon.
    Alta,
    /// Now.
    Critica,
}

// ---------------------------------------------------------------------------
// 004: a vacation request.

/// A vacation request extracted from an employee's message.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    max_bytes = 4096,
    outcome = status,
    when(status = Status::Complete, require(start_date, end_date), forbid(clarification_question)),
    when(status = Status::NeedsClarification, require(clarification_question)),
    when(status = Status::NotARequest, forbid(start_date, end_date)),
    order(start_date <= end_date),
)]
pub struct VacationRequest {
    /// What the message is.
    pub status: Status,
    /// First day.
    pub start_date: Option<Date>,
    /// Last day.
    pub end_date: Option<Date>,
    /// The question to ask, 1 to 500 characters.
    #[contract(min_len = 1, max_len = 500)]
    pub clarification_question: Option<String>,
}

/// What the message is.
#[derive(Contract, Debug, Clone, Copy, PartialEq, Eq)]
#[contract(rename_all = "snake_case")]
pub enum Status {
    /// A complete request.
    Complete,
    /// The model needs to ask.
    #[contract(clarify)]
    NeedsClarification,
    /// Not a vacation request.
    #[contract(decline)]
    NotARequest,
}

// ---------------------------------------------------------------------------
// The step example: a tagged union (examples/src/step.rs).

/// What the assistant wants to do next.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "action", rename_all = "snake_case", max_bytes = 4096)]
pub enum Step {
    /// Close a resolved ticket.
    CloseTicket {
        #[contract(min = 1)]
        ticket_id: u64,
        #[contract(min_len = 1, max_len = 200)]
        reason: String,
    },
    /// Refund part of an order (the struct's members sit beside the tag).
    Refund(Refund),
    /// Ask the customer first.
    #[contract(clarify)]
    AskCustomer {
        #[contract(min_len = 1, max_len = 300)]
        question: String,
    },
    /// Nothing to do: an object holding only the tag.
    #[contract(decline)]
    NoAction,
}

/// A partial refund: never more than the order's total.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(order(refund_cents <= order_total_cents))]
pub struct Refund {
    /// The order to refund.
    pub order_id: u64,
    /// How much to refund, in cents.
    pub refund_cents: u32,
    /// The order's total, in cents.
    pub order_total_cents: u32,
}

// ---------------------------------------------------------------------------
// Borrowed twins: close-ticket and the step union with `&'a str` and
// `Cow<'a, str>` fields, which decide as their `String` twins but for a
// `&str` field's string with escapes (`borrowed_string`).

/// [`CloseTicket`] borrowing its strings (no context: `check` runs no
/// business stage either way).
#[derive(Contract, Debug, Clone, PartialEq, Eq)]
#[contract(max_bytes = 4096)]
pub struct CloseTicketRef<'a> {
    /// Always `close_ticket`.
    #[contract(equals = "close_ticket")]
    pub action: &'a str,
    /// The ticket, a positive integer.
    #[contract(min = 1)]
    pub ticket_id: u64,
    /// Why, in 1 to 200 characters.
    #[contract(min_len = 1, max_len = 200)]
    pub reason: std::borrow::Cow<'a, str>,
}

/// [`Step`] borrowing its strings; its newtype variant's struct owns.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "action", rename_all = "snake_case", max_bytes = 4096)]
pub enum StepRef<'a> {
    /// Close a resolved ticket.
    CloseTicket {
        #[contract(min = 1)]
        ticket_id: u64,
        #[contract(min_len = 1, max_len = 200)]
        reason: std::borrow::Cow<'a, str>,
    },
    /// Refund part of an order (the struct's members sit beside the tag).
    Refund(Refund),
    /// Ask the customer first.
    #[contract(clarify)]
    AskCustomer {
        #[contract(min_len = 1, max_len = 300)]
        question: &'a str,
    },
    /// Nothing to do: an object holding only the tag.
    #[contract(decline)]
    NoAction,
}

/// A borrowed contract and its `String` twin decide `text` alike: the same
/// outcome, errors and value; or, where a `&str` field met a string with
/// escapes, a `borrowed_string` error there and otherwise only errors the
/// twin reports too. Every plain string a `&str` field holds is a slice of
/// `text`.
pub fn borrowed_alike<B: PartialEq + std::fmt::Debug, O: Contract>(
    text: &str,
    borrowed: Outcome<B>,
    owned: Outcome<O>,
    encode: fn(&B) -> serde_json::Value,
) {
    match (borrowed.rejection(), owned.rejection()) {
        (Some(b), _) if b.errors.iter().any(|e| e.code == "borrowed_string") => {
            assert_well_formed(b);
            for e in &b.errors {
                if e.code == "borrowed_string" {
                    assert_eq!(e.stage, Stage::Schema);
                    continue;
                }
                let theirs = owned.rejection().map(|r| r.errors.as_slice()).unwrap_or(&[]);
                assert!(theirs.contains(e), "{e:?} only borrowed, in {text}");
            }
        }
        (b, o) => {
            assert_eq!(b, o, "rejections differ on {text}");
            assert_eq!(borrowed.kind(), owned.kind(), "outcomes differ on {text}");
            if let (Some(b), Some(o)) = (borrowed.value(), owned.value()) {
                assert_eq!(encode(b), o.to_json(), "values differ on {text}");
            }
        }
    }
}

/// Whether `s` is a slice of `text`.
pub fn within(text: &str, s: &str) -> bool {
    text.as_bytes().as_ptr_range().contains(&s.as_ptr()) || s.is_empty()
}

/// `value` as JSON text with the object member `key` moved to the end (the
/// others keep their order); `None` when `value` is not an object holding
/// `key`.
pub fn with_member_last(value: &serde_json::Value, key: &str) -> Option<String> {
    let object = value.as_object()?;
    let moved = object.get(key)?;
    let mut reordered = serde_json::Map::new();
    for (k, v) in object.iter().filter(|(k, _)| k.as_str() != key) {
        reordered.insert(k.clone(), v.clone());
    }
    reordered.insert(key.to_owned(), moved.clone());
    Some(serde_json::Value::Object(reordered).to_string())
}

// A recursive filter tree (through `Vec`, `Box` and a tagged union's newtype
// variant) and a generic page of them.

/// A search filter: conditions combined with `all`, `any` and `not`.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "op", rename_all = "snake_case", max_bytes = 8192, max_depth = 64)]
pub enum Filter {
    /// Every filter holds.
    All {
        /// One to eight filters.
        #[contract(min_len = 1, max_len = 8)]
        of: Vec<Filter>,
    },
    /// At least one filter holds.
    Any {
        /// One to eight filters.
        #[contract(min_len = 1, max_len = 8)]
        of: Vec<Filter>,
    },
    /// The filter does not hold.
    Not {
        /// The negated filter.
        filter: Box<Filter>,
    },
    /// One condition.
    Cond(Cond),
}

/// A condition on one field, with an optional exception.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Cond {
    /// The field compared.
    #[contract(one_of = ["status", "owner", "priority"])]
    pub field: String,
    /// The value it must equal.
    #[contract(max_len = 20)]
    pub equals: String,
    /// A filter under which the condition does not apply, or null.
    pub unless: Option<Box<Filter>>,
}

/// One page of results of any contract type.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(max_bytes = 8192)]
pub struct Page<T> {
    /// At most four results.
    #[contract(max_len = 4)]
    pub items: Vec<T>,
    /// Where the next page starts, or null.
    pub next_cursor: Option<String>,
}

/// The nesting depth of a filter as JSON (an object is one level, the
/// array of `all`/`any` another).
pub fn filter_depth(filter: &Filter) -> usize {
    match filter {
        Filter::All { of } | Filter::Any { of } => 2 + of.iter().map(filter_depth).max().unwrap_or(0),
        Filter::Not { filter } => 1 + filter_depth(filter),
        Filter::Cond(c) => 1 + c.unless.as_deref().map_or(0, filter_depth),
    }
}

/// What every accepted filter satisfies: its bounds at every level and the
/// depth limit.
pub fn filter_invariant(filter: &Filter) {
    assert!(filter_depth(filter) <= Filter::LIMITS.max_depth);
    fn walk(f: &Filter) {
        match f {
            Filter::All { of } | Filter::Any { of } => {
                assert!((1..=8).contains(&of.len()));
                of.iter().for_each(walk);
            }
            Filter::Not { filter } => walk(filter),
            Filter::Cond(c) => {
                assert!(["status", "owner", "priority"].contains(&c.field.as_str()));
                assert!(c.equals.chars().count() <= 20);
                if let Some(unless) = &c.unless {
                    walk(unless);
                }
            }
        }
    }
    walk(filter);
}

// ---------------------------------------------------------------------------
// Oracles.

/// Panics unless `rejection` is well formed: non-empty, capped, each error
/// with an RFC 6901 pointer, a non-empty stage and snake_case code, a
/// message; a parse error alone and (but for `too_large`) with a position.
pub fn assert_well_formed(rejection: &Rejection) {
    assert!(!rejection.errors.is_empty(), "empty rejection");
    assert!(rejection.errors.len() <= contract_runtime::error::MAX_ERRORS);
    for e in &rejection.errors {
        assert!(
            Pointer::parse(&e.pointer).is_ok(),
            "bad pointer {:?}",
            e.pointer
        );
        assert!(!e.stage.as_str().is_empty());
        assert!(
            !e.code.is_empty()
                && e.code
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
            "bad code {:?}",
            e.code
        );
        assert!(!e.message.is_empty());
        if e.stage == Stage::Parse {
            assert_eq!(rejection.errors.len(), 1, "a parse error stops");
            if e.code != "too_large" {
                assert!(
                    e.line.is_some_and(|l| l >= 1) && e.column.is_some_and(|c| c >= 1),
                    "a parse error without a position: {e:?}"
                );
            }
        }
    }
    let value = serde_json::to_value(rejection).expect("a rejection serializes");
    assert!(value["errors"].is_array());
}

/// Decodes `data` as `T` every way there is, and checks what the decoder
/// promises: a well-formed rejection or a value that round-trips through
/// `to_json`, the same decision from `from_json` and `check`, and `T`'s own
/// invariants (`invariant`) on everything accepted.
pub fn decode<T: Contract + PartialEq + std::fmt::Debug>(data: &[u8], invariant: fn(&T)) {
    let Ok(raw) = std::str::from_utf8(data) else {
        return;
    };
    let decoded = T::from_json(raw);
    let outcome = T::check(raw);
    match (&decoded, &outcome) {
        (Ok(value), outcome) => {
            assert_eq!(outcome.value(), Some(value), "check and from_json disagree");
            invariant(value);
            let again = T::from_json(&value.to_json().to_string());
            assert_eq!(again.as_ref(), Ok(value), "to_json does not round-trip");
            // The plain parser accepts whatever the contract accepts.
            let limits = Limits {
                max_bytes: usize::MAX,
                max_depth: T::LIMITS.max_depth,
            };
            assert!(parse(data, &limits).is_ok(), "json::parse refuses it");
        }
        (Err(rejection), Outcome::Reject(same)) => {
            assert_well_formed(rejection);
            assert_eq!(rejection, same, "check and from_json disagree");
        }
        (Err(_), other) => panic!("from_json rejects, check gives {:?}", other.kind()),
    }
}
