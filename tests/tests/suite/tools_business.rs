//! Tool calls against a trusted context: `evidence`, `check` and
//! `batch_check`, quarantined arguments, and the batch outcome order.
use contract_runtime::tools::{Call, Tools};
use contract_runtime::{Contract, EvidenceSource, OutcomeKind, Violation};

pub struct Desk {
    pub open: Vec<u64>,
    pub source: String,
}

impl EvidenceSource for Desk {
    fn source_text(&self) -> &str {
        &self.source
    }
}

fn known_ticket(call: &Desk_, desk: &Desk) -> Result<(), Violation> {
    match call {
        Desk_::Close { ticket_id, .. } if !desk.open.contains(ticket_id) => {
            Err(Violation::business(
                "/arguments/ticket_id",
                "unknown_ticket",
                "no open ticket has this id",
            ))
        }
        Desk_::Escalate { .. } => Err(Violation::review(
            "/arguments",
            "escalation",
            "a person looks first",
        )),
        _ => Ok(()),
    }
}

fn one_close_per_ticket(calls: &[Desk_], _: &Desk) -> Result<(), Vec<Violation>> {
    let ids: Vec<u64> = calls
        .iter()
        .filter_map(|c| match c {
            Desk_::Close { ticket_id, .. } => Some(*ticket_id),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        if ids[..i].contains(id) {
            out.push(Violation::business(
                "",
                "closed_twice",
                "a ticket is closed twice",
            ));
        }
    }
    if out.is_empty() { Ok(()) } else { Err(out) }
}

/// A desk's tools.
#[allow(non_camel_case_types)]
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    tools,
    rename_all = "snake_case",
    context = Desk,
    check = known_ticket,
    batch_check = one_close_per_ticket
)]
pub enum Desk_ {
    /// Close a ticket, quoting the customer.
    #[contract(when(resolved = false, require(note)))]
    Close {
        ticket_id: u64,
        #[contract(evidence)]
        quote: String,
        resolved: bool,
        #[contract(quarantine, max_len = 5)]
        note: Option<String>,
    },
    /// Hand the ticket to a person.
    Escalate { ticket_id: u64 },
    /// Ask first.
    #[contract(clarify)]
    Ask { question: String },
    /// Nothing to do.
    #[contract(decline)]
    Idle,
}

fn desk() -> Desk {
    Desk {
        open: vec![7, 8],
        source: "please close it, thanks".into(),
    }
}

fn errors<T>(o: &contract_runtime::Outcome<T>) -> Vec<(String, &'static str)> {
    o.rejection()
        .map(|r| {
            r.errors
                .iter()
                .map(|e| (e.pointer.to_string(), e.code))
                .collect()
        })
        .unwrap_or_default()
}

const CLOSE_7: &str = r#"{"ticket_id":7,"quote":"close it","resolved":true,"note":null}"#;

#[test]
fn a_call_runs_evidence_and_check_at_the_arguments() {
    let d = desk();
    assert!(Desk_::check_call_with("close", CLOSE_7, &d).is_accept());
    // Without a context the business stage does not run.
    let o = Desk_::check_call(
        "close",
        r#"{"ticket_id":9,"quote":"nowhere","resolved":true,"note":null}"#,
    );
    assert!(o.is_accept());
    let o = Desk_::check_call_with(
        "close",
        r#"{"ticket_id":9,"quote":"nowhere","resolved":true,"note":null}"#,
        &d,
    );
    assert_eq!(
        errors(&o),
        [
            ("/arguments/quote".to_owned(), "evidence_not_found"),
            ("/arguments/ticket_id".to_owned(), "unknown_ticket"),
        ]
    );
    let o = Desk_::check_call_with(
        "close",
        r#"{"ticket_id":9,"quote":"close it","resolved":true,"note":null}"#,
        &d,
    );
    assert_eq!(
        errors(&o),
        [("/arguments/ticket_id".to_owned(), "unknown_ticket")]
    );
    // The JSON form runs the same checks at the same pointers.
    let o = Desk_::check_with(
        r#"{"name":"close","arguments":{"ticket_id":9,"quote":"close it","resolved":true,"note":null}}"#,
        &d,
    );
    assert_eq!(
        errors(&o),
        [("/arguments/ticket_id".to_owned(), "unknown_ticket")]
    );
    // A tool's `when` rule.
    let o = Desk_::check_call(
        "close",
        r#"{"ticket_id":7,"quote":"close it","resolved":false,"note":null}"#,
    );
    assert_eq!(errors(&o), [("/arguments/note".to_owned(), "required")]);
    // A quarantined argument is a review reason at its pointer.
    let o = Desk_::check_call_with(
        "close",
        r#"{"ticket_id":7,"quote":"close it","resolved":true,"note":"far too long"}"#,
        &d,
    );
    let contract_runtime::Outcome::Review { reasons, value } = o else {
        panic!("review: {o:?}")
    };
    assert_eq!(reasons[0].pointer, "/arguments/note");
    assert!(matches!(value, Desk_::Close { note: None, .. }));
    // The check's review reason.
    assert_eq!(
        Desk_::check_call_with("escalate", r#"{"ticket_id":7}"#, &d).kind(),
        OutcomeKind::Review
    );
}

#[test]
fn a_batchs_outcome_is_its_most_serious_calls() {
    let d = desk();
    let close = Call {
        id: "1",
        name: "close",
        arguments: CLOSE_7,
    };
    let ask = Call {
        id: "2",
        name: "ask",
        arguments: r#"{"question":"?"}"#,
    };
    let idle = Call {
        id: "3",
        name: "idle",
        arguments: "{}",
    };
    let escalate = Call {
        id: "4",
        name: "escalate",
        arguments: r#"{"ticket_id":8}"#,
    };
    assert_eq!(
        Desk_::check_calls_with(&[close], &d).kind(),
        OutcomeKind::Accept
    );
    assert_eq!(
        Desk_::check_calls_with(&[close, idle], &d).kind(),
        OutcomeKind::Decline
    );
    assert_eq!(
        Desk_::check_calls_with(&[idle, ask, close], &d).kind(),
        OutcomeKind::Clarify
    );
    let o = Desk_::check_calls_with(&[idle, ask, close, escalate], &d);
    let contract_runtime::Outcome::Review { reasons, value } = o else {
        panic!("review")
    };
    assert_eq!(value.len(), 4);
    assert_eq!(reasons[0].pointer, "/3/arguments");
    // `batch_check` across calls, its pointers relative to the batch.
    let again = Call {
        id: "5",
        name: "close",
        arguments: CLOSE_7,
    };
    let o = Desk_::check_calls_with(&[close, again], &d);
    assert_eq!(errors(&o), [("".to_owned(), "closed_twice")]);
    // Without a context, `batch_check` does not run.
    assert!(Desk_::check_calls(&[close, again]).is_accept());
    // Any rejected call rejects the batch, every call's errors kept.
    let bad = Call {
        id: "6",
        name: "close",
        arguments: r#"{"ticket_id":9,"quote":"close it","resolved":true,"note":null}"#,
    };
    let o = Desk_::check_calls_with(
        &[
            ask,
            bad,
            Call {
                id: "7",
                name: "escalate",
                arguments: "{}",
            },
        ],
        &d,
    );
    assert_eq!(
        errors(&o),
        [
            ("/1/arguments/ticket_id".to_owned(), "unknown_ticket"),
            ("/2/arguments/ticket_id".to_owned(), "missing_key"),
        ]
    );
}

#[test]
fn a_call_stream_with_a_context_finishes_as_check_call_with() {
    let d = desk();
    let text = r#"{"ticket_id":9,"quote":"close it","resolved":true,"note":null}"#;
    let mut stream = Desk_::stream_call_with("close", &d).unwrap();
    for piece in text.as_bytes().chunks(7) {
        stream.push(std::str::from_utf8(piece).unwrap());
    }
    assert_eq!(stream.finish(), Desk_::check_call_with("close", text, &d));
}
