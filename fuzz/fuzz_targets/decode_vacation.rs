//! The vacation contract (seed 004): rules and outcomes.
#![no_main]
use contract_fuzz::{Status, VacationRequest, decode};
use contract_runtime::{Contract, OutcomeKind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    decode::<VacationRequest>(data, |v| {
        match v.status {
            Status::Complete => {
                assert!(v.start_date.is_some() && v.end_date.is_some());
                assert!(v.clarification_question.is_none());
            }
            Status::NeedsClarification => assert!(v.clarification_question.is_some()),
            Status::NotARequest => assert!(v.start_date.is_none() && v.end_date.is_none()),
        }
        if let (Some(start), Some(end)) = (v.start_date, v.end_date) {
            assert!(start <= end);
        }
        if let Some(q) = &v.clarification_question {
            assert!((1..=500).contains(&q.chars().count()));
        }
    });
    let Ok(raw) = std::str::from_utf8(data) else {
        return;
    };
    let outcome = VacationRequest::check(raw);
    if let Some(v) = outcome.value() {
        let expected = match v.status {
            Status::Complete => OutcomeKind::Accept,
            Status::NeedsClarification => OutcomeKind::Clarify,
            Status::NotARequest => OutcomeKind::Decline,
        };
        assert_eq!(outcome.kind(), expected);
    }
});
