//! The calls and batches of the tool-call benchmarks (`tools.rs`, and the
//! callgrind driver `tools_profile.rs`), ours ([`SupportTool`]) and the
//! baseline: `serde_json::from_str` into [`SerdeTool`], serde's adjacent
//! tagging of the same tools (`tag = "name"`, `content = "arguments"`, every
//! struct `deny_unknown_fields`; no bounds, no lengths, no rules), and for
//! a batch a hand-written check of unique ids and `max_calls`.
#![allow(dead_code)]

use std::collections::HashSet;

use contract_examples::support_tools::SupportTool;
use contract_runtime::Contract;
use contract_runtime::tools::{Call, Tools};
use serde::Deserialize;

/// `SupportTool` as serde reads it.
#[derive(Debug, Deserialize)]
#[serde(
    tag = "name",
    content = "arguments",
    rename_all = "snake_case",
    deny_unknown_fields
)]
pub enum SerdeTool {
    CloseTicket(CloseTicketArgs),
    Refund(RefundArgs),
    AskCustomer(AskCustomerArgs),
    ListOpenTickets(NoArgs),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloseTicketArgs {
    pub ticket_id: u64,
    pub reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RefundArgs {
    pub order_id: u64,
    pub refund_cents: u32,
    pub order_total_cents: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AskCustomerArgs {
    pub question: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// One call: its name, its arguments text, and the full call text
/// `{"name", "arguments"}`.
pub struct OneCall {
    pub name: &'static str,
    pub arguments: &'static str,
    pub full: String,
}

fn one(name: &'static str, arguments: &'static str) -> OneCall {
    OneCall {
        name,
        arguments,
        full: format!(r#"{{"name":"{name}","arguments":{arguments}}}"#),
    }
}

/// A valid call (accepted by both sides).
pub fn valid_call() -> OneCall {
    one(
        "close_ticket",
        r#"{"ticket_id":7,"reason":"resolved by the customer"}"#,
    )
}

/// An invalid call (a mistyped argument: refused by both sides).
pub fn invalid_call() -> OneCall {
    one(
        "close_ticket",
        r#"{"ticket_id":"7","reason":"resolved by the customer"}"#,
    )
}

/// A batch of four calls: `(id, call)`.
pub struct Batch {
    pub calls: Vec<(&'static str, OneCall)>,
}

impl Batch {
    /// Ours: the calls as `tools::Call`.
    pub fn ours(&self) -> Vec<Call<'_>> {
        self.calls
            .iter()
            .map(|(id, c)| Call {
                id,
                name: c.name,
                arguments: c.arguments,
            })
            .collect()
    }
}

/// Four valid calls, within the batch rules (accepted by both sides).
pub fn valid_batch() -> Batch {
    Batch {
        calls: vec![
            ("call_1", one("list_open_tickets", "{}")),
            (
                "call_2",
                one(
                    "refund",
                    r#"{"order_id":9,"refund_cents":500,"order_total_cents":900}"#,
                ),
            ),
            (
                "call_3",
                one("close_ticket", r#"{"ticket_id":7,"reason":"refunded"}"#),
            ),
            (
                "call_4",
                one(
                    "close_ticket",
                    r#"{"ticket_id":8,"reason":"duplicate of 7"}"#,
                ),
            ),
        ],
    }
}

/// Four calls, the third with a mistyped argument (refused by both sides).
pub fn invalid_batch() -> Batch {
    let mut batch = valid_batch();
    batch.calls[2].1 = one("close_ticket", r#"{"ticket_id":"7","reason":"refunded"}"#);
    batch
}

/// Ours, one call from its name and arguments text.
pub fn ours_call(c: &OneCall) -> bool {
    !SupportTool::check_call(c.name, c.arguments).is_reject()
}

/// Ours, one call from its full text.
pub fn ours_full(c: &OneCall) -> bool {
    SupportTool::from_json(&c.full).is_ok()
}

/// The baseline, one call from its full text.
pub fn serde_full(c: &OneCall) -> bool {
    serde_json::from_str::<SerdeTool>(&c.full).is_ok()
}

/// Ours, a batch.
pub fn ours_batch(calls: &[Call<'_>]) -> bool {
    !SupportTool::check_calls(calls).is_reject()
}

/// The baseline batch: every call's full text through serde, ids unique,
/// at most 4 calls and at most one refund; all or nothing.
pub fn serde_batch(batch: &Batch) -> bool {
    if batch.calls.len() > 4 {
        return false;
    }
    let mut ids = HashSet::with_capacity(batch.calls.len());
    let mut refunds = 0;
    let mut ok = true;
    for (id, call) in &batch.calls {
        ok &= ids.insert(*id);
        match serde_json::from_str::<SerdeTool>(&call.full) {
            Ok(SerdeTool::Refund(_)) => {
                refunds += 1;
                ok &= refunds <= 1;
            }
            Ok(_) => {}
            Err(_) => ok = false,
        }
    }
    ok
}

/// Both sides' decision on every case, checked before anything is timed.
pub fn check_decisions() {
    let (valid, invalid) = (valid_call(), invalid_call());
    assert!(ours_call(&valid) && ours_full(&valid) && serde_full(&valid));
    assert!(!ours_call(&invalid) && !ours_full(&invalid) && !serde_full(&invalid));
    let (valid, invalid) = (valid_batch(), invalid_batch());
    assert!(ours_batch(&valid.ours()) && serde_batch(&valid));
    assert!(!ours_batch(&invalid.ours()) && !serde_batch(&invalid));
    // The batch rules on both sides: a repeated id, a second refund.
    let mut repeated = valid_batch();
    repeated.calls[3].0 = "call_1";
    assert!(!ours_batch(&repeated.ours()) && !serde_batch(&repeated));
    let mut refunds = valid_batch();
    refunds.calls[0].1 = one(
        "refund",
        r#"{"order_id":10,"refund_cents":1,"order_total_cents":2}"#,
    );
    assert!(!ours_batch(&refunds.ours()) && !serde_batch(&refunds));
}
