//! `Tools::check_calls` of the support assistant's tools on random batches:
//! a batch is accepted iff every call is accepted alone (`check_call`) and
//! the batch rules hold (unique ids, at most `max_calls` calls, at most one
//! `refund`); an accepted batch holds each call's value in order, its
//! outcome the most serious of its calls'; a rejection is well formed, with
//! every pointer inside the batch.
//!
//! The input is one call per line, `id TAB name TAB arguments` (a missing
//! part is empty), at most 8 calls.
#![no_main]
use std::collections::{BTreeMap, BTreeSet};

use contract_fuzz::assert_well_formed;
use contract_runtime::tools::{Call, Tools};
use contract_runtime::pointer::Pointer;
use contract_runtime::{Contract, OutcomeKind};
use libfuzzer_sys::fuzz_target;

/// What the support assistant may do.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tools, rename_all = "snake_case", max_calls = 4)]
pub enum SupportTool {
    /// Close a resolved ticket.
    CloseTicket {
        #[contract(min = 1)]
        ticket_id: u64,
        #[contract(min_len = 1, max_len = 200)]
        reason: String,
    },
    /// Refund part of an order (at most one refund per turn).
    #[contract(max_calls = 1)]
    Refund(Refund),
    /// Ask the customer a question first.
    #[contract(clarify)]
    AskCustomer {
        #[contract(min_len = 1, max_len = 300)]
        question: String,
    },
    /// List the customer's open tickets (no arguments).
    ListOpenTickets,
}

/// A partial refund: never more than the order's total.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(order(refund_cents <= order_total_cents))]
pub struct Refund {
    pub order_id: u64,
    pub refund_cents: u32,
    pub order_total_cents: u32,
}

fn severity(kind: OutcomeKind) -> u8 {
    match kind {
        OutcomeKind::Accept => 0,
        OutcomeKind::Decline => 1,
        OutcomeKind::Clarify => 2,
        OutcomeKind::Review => 3,
        OutcomeKind::Reject => 4,
        other => panic!("an outcome kind this target does not know: {other:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let calls: Vec<Call<'_>> = text
        .split('\n')
        .take(8)
        .map(|line| {
            let mut parts = line.splitn(3, '\t');
            Call {
                id: parts.next().unwrap_or(""),
                name: parts.next().unwrap_or(""),
                arguments: parts.next().unwrap_or(""),
            }
        })
        .collect();
    let batch = SupportTool::check_calls(&calls);
    let alone: Vec<_> = calls
        .iter()
        .map(|c| SupportTool::check_call(c.name, c.arguments))
        .collect();

    let ids: BTreeSet<&str> = calls.iter().map(|c| c.id).collect();
    let mut per_tool: BTreeMap<&str, usize> = BTreeMap::new();
    for call in &calls {
        *per_tool.entry(call.name).or_default() += 1;
    }
    let rules_hold = ids.len() == calls.len()
        && calls.len() <= 4
        && per_tool.get("refund").copied().unwrap_or(0) <= 1;
    let every_call_accepted = alone.iter().all(|o| !o.is_reject());
    assert_eq!(
        !batch.is_reject(),
        every_call_accepted && rules_hold,
        "batch {:?} against calls {alone:?} (rules hold: {rules_hold})",
        batch.kind()
    );

    match batch.rejection() {
        Some(rejection) => {
            // Each call's errors are its own (a parse error stops that call
            // alone), so the document's rule "a parse error stops" is
            // checked per call: every error is a call's, under its index,
            // or a batch rule's.
            let mut expected: Vec<(String, &str)> = Vec::new();
            for (i, call) in alone.iter().enumerate() {
                if let Some(own) = call.rejection() {
                    assert_well_formed(own);
                    for e in &own.errors {
                        expected.push((format!("/{i}{}", e.pointer), e.code));
                    }
                }
            }
            assert!(!rejection.errors.is_empty());
            for e in &rejection.errors {
                assert!(Pointer::parse(&e.pointer).is_ok(), "{:?}", e.pointer);
                if let Some(index) = e.pointer.split('/').nth(1) {
                    let i: usize = index.parse().expect("a call's index");
                    assert!(i < calls.len(), "{} outside the batch", e.pointer);
                }
                let batch_rule = matches!(e.code, "duplicate_call_id" | "too_many_calls");
                assert!(
                    batch_rule || expected.contains(&(e.pointer.to_string(), e.code)),
                    "{e:?} is no call's error: {expected:?}"
                );
            }
            if rejection.omitted == 0 {
                for (pointer, code) in &expected {
                    assert!(
                        rejection.errors.iter().any(|e| &e.pointer == pointer && e.code == *code),
                        "{pointer} {code} missing from the batch"
                    );
                }
            }
        }
        None => {
            let values = batch.value().expect("an accepted batch has values");
            assert_eq!(values.len(), calls.len());
            for (value, call) in values.iter().zip(&alone) {
                assert_eq!(Some(value), call.value());
            }
            let worst = alone.iter().map(|o| severity(o.kind())).max().unwrap_or(0);
            assert_eq!(severity(batch.kind()), worst);
        }
    }
});
