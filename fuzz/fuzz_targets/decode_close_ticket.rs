//! The close-ticket contract (seed 000), business stage included.
#![no_main]
use contract_fuzz::{CloseTicket, TicketContext, assert_well_formed, decode};
use contract_runtime::{Contract, Outcome, Stage};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    decode::<CloseTicket>(data, |t| {
        assert_eq!(t.action, "close_ticket");
        assert!(t.ticket_id >= 1);
        let len = t.reason.chars().count();
        assert!((1..=200).contains(&len));
    });
    let Ok(raw) = std::str::from_utf8(data) else {
        return;
    };
    match CloseTicket::check_with(raw, &TicketContext::demo("demo-a")) {
        // Only ticket 7 is demo-a's and resolved.
        Outcome::Accept(t) => assert_eq!(t.ticket_id, 7),
        Outcome::Reject(rejection) => {
            assert_well_formed(&rejection);
            if rejection.stage() == Some(Stage::Business) {
                assert!(CloseTicket::from_json(raw).is_ok());
            }
        }
        other => panic!("close-ticket never gives {:?}", other.kind()),
    }
});
