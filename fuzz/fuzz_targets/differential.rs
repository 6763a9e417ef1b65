//! `json::parse` against `serde_json`: whatever we accept, serde_json
//! accepts with the same value, to the bit (serde_json is built with
//! `float_roundtrip`, its correctly rounded float parser; its default parser
//! can be off by more than one unit in the last place on long integers);
//! whatever we reject for a reason other than our strictness, serde_json
//! rejects too. One value differs on purpose: `-0` is the integer 0 for us,
//! the float `-0.0` for serde_json.
//!
//! On the same text, contracts with a lifetime against their `String`
//! twins (`contract_fuzz::borrowed_alike`): close-ticket and the step union,
//! borrowing their strings, decide as the owned contracts do.
#![no_main]
use contract_fuzz::{CloseTicket, CloseTicketRef, Step, StepRef, borrowed_alike, within};
use contract_runtime::Contract;
use contract_runtime::json::{Limits, parse};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

// Codes that only the strict policy produces.
const STRICTNESS: &[&str] = &[
    "duplicate_key",
    "lone_surrogate",
    "number_overflow",
    "byte_order_mark",
    "too_deep",
    "too_large",
];

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let negative_zero = y.as_f64().map(f64::to_bits) == Some((-0.0f64).to_bits());
            if x.as_u64() == Some(0) && y.is_f64() && negative_zero {
                return true;
            }
            if x.is_f64() != y.is_f64() {
                return false;
            }
            match (x.as_f64(), y.as_f64()) {
                (Some(p), Some(q)) if x.is_f64() => p.to_bits() == q.to_bits(),
                _ => x == y,
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((k, p), (l, q))| k == l && same(p, q))
        }
        _ => a == b,
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let ticket = CloseTicketRef::check(text);
        if let Some(t) = ticket.value() {
            assert!(within(text, t.action));
        }
        borrowed_alike(text, ticket, CloseTicket::check(text), |t| t.to_json());
        let step = StepRef::check(text);
        if let Some(StepRef::AskCustomer { question }) = step.value() {
            assert!(within(text, question));
        }
        borrowed_alike(text, step, Step::check(text), |s| s.to_json());
    }
    // Default limits: depth 64 stays under serde_json's own limit of 128.
    let theirs = serde_json::from_slice::<Value>(data);
    match parse(data, &Limits::default()) {
        Ok(ours) => match theirs {
            Ok(theirs) => assert!(same(&ours, &theirs), "{ours} != {theirs}"),
            Err(e) => panic!("we accept, serde_json refuses: {e}"),
        },
        Err(rejection) => {
            let code = rejection.errors[0].code;
            if !STRICTNESS.contains(&code) {
                assert!(theirs.is_err(), "we refuse with {code}, serde_json accepts");
            }
        }
    }
});
