//! Seed 000's experiment: a mock executor that records a call only when every
//! stage passes. Of the article's thirteen kinds of input (the first thirteen
//! lines of `examples/data/close-ticket.jsonl`), only the valid proposal for
//! ticket 7 reaches the tool; every rejected one makes zero calls. And the
//! executor is idempotent: the same accepted proposal twice — also
//! with another key order or whitespace — makes one call.
use contract_examples::close_ticket::{
    CloseTicket, DuplicateCall, ExecutedCall, MockExecutor, TicketContext,
};
use contract_runtime::Contract;

const THIRTEEN: [&str; 13] = [
    "valid: ticket 7 of demo-a, resolved",
    "schema-valid, but ticket 8 belongs to demo-b",
    "schema-valid, but ticket 9 is open",
    "schema-valid, but ticket 404 does not exist",
    "truncated JSON",
    "over 4,096 bytes",
    "duplicate key",
    "NaN",
    "\"7\" instead of 7",
    "an extra key",
    "a missing key",
    "another action",
    "a reason of 201 characters",
];

fn inputs() -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/data/close-ticket.jsonl"
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .take(THIRTEEN.len())
        .map(str::to_owned)
        .collect()
}

#[test]
fn only_the_valid_proposal_reaches_the_executor() {
    let ctx = TicketContext::demo("demo-a");
    let inputs = inputs();
    assert_eq!(inputs.len(), 13);
    for (what, raw) in THIRTEEN.iter().zip(&inputs) {
        // The counter is reset before each case, as in the article.
        let mut executor = MockExecutor::default();
        let outcome = executor.propose(raw, &ctx).unwrap();
        let expected_calls = usize::from(outcome.is_accept());
        assert_eq!(executor.calls().len(), expected_calls, "{what}");
        if outcome.is_reject() {
            assert!(
                executor.calls().is_empty(),
                "{what}: a rejection makes zero calls"
            );
        }
    }
}

#[test]
fn exactly_one_of_the_thirteen_is_executed() {
    let ctx = TicketContext::demo("demo-a");
    let mut executor = MockExecutor::default();
    let mut rejected = 0;
    for raw in inputs() {
        rejected += usize::from(executor.propose(&raw, &ctx).unwrap().is_reject());
    }
    assert_eq!(rejected, 12);
    let valid = CloseTicket::from_json(&inputs()[0]).unwrap();
    assert_eq!(
        executor.calls(),
        [ExecutedCall {
            ticket_id: 7,
            action: "close_ticket".into(),
            key: valid.idempotency_key(Some("demo-a")),
        }]
    );
}

#[test]
fn the_same_proposal_is_refused_for_another_tenant() {
    // Ticket 7 is demo-a's: seen from demo-b, the valid proposal is refused.
    let ctx = TicketContext::demo("demo-b");
    let mut executor = MockExecutor::default();
    let outcome = executor.propose(&inputs()[0], &ctx).unwrap();
    assert_eq!(outcome.rejection().unwrap().errors[0].code, "wrong_tenant");
    assert!(executor.calls().is_empty());
}

#[test]
fn the_schema_valid_proposals_are_stopped_at_the_business_stage() {
    let ctx = TicketContext::demo("demo-a");
    let mut executor = MockExecutor::default();
    for raw in &inputs()[1..4] {
        let outcome = executor.propose(raw, &ctx).unwrap();
        let rejection = outcome.rejection().unwrap();
        assert_eq!(rejection.stage().unwrap().as_str(), "business");
        assert_eq!(rejection.pointers(), ["/ticket_id"]);
    }
    assert!(executor.calls().is_empty());
}

// ------------------------------------------------------------ idempotency

const VALID: &str = r#"{"action":"close_ticket","ticket_id":7,"reason":"Solicitação resolvida"}"#;

#[test]
fn the_same_valid_proposal_twice_makes_one_call() {
    let ctx = TicketContext::demo("demo-a");
    let mut executor = MockExecutor::default();
    let first = executor.propose(VALID, &ctx).unwrap();
    assert!(first.is_accept());
    assert_eq!(executor.calls().len(), 1);

    let second = executor.propose(VALID, &ctx).unwrap_err();
    let key = CloseTicket::from_json(VALID)
        .unwrap()
        .idempotency_key(Some("demo-a"));
    assert_eq!(second, DuplicateCall { key, ticket_id: 7 });
    assert!(second.to_string().contains(&key.to_string()));
    assert_eq!(executor.calls().len(), 1, "no second call recorded");
    assert!(executor.has_executed(&key));
}

#[test]
fn another_key_order_whitespace_or_escape_is_the_same_call() {
    let replays = [
        r#"{"reason":"Solicitação resolvida","ticket_id":7,"action":"close_ticket"}"#,
        "{\n  \"action\" : \"close_ticket\",\n  \"ticket_id\" : 7,\n  \"reason\" : \"Solicitação resolvida\"\n}",
        r#"  { "ticket_id": 7, "action": "close_ticket", "reason": "Solicita\u00e7\u00e3o resolvida" }  "#,
        "\t{\"action\":\"\\u0063lose_ticket\",\"reason\":\"Solicitação resolvida\",\"ticket_id\":7}\r\n",
    ];
    let ctx = TicketContext::demo("demo-a");
    let mut executor = MockExecutor::default();
    executor.propose(VALID, &ctx).unwrap();
    for raw in replays {
        // Each replay is accepted by the contract, and refused by the tool.
        assert!(CloseTicket::check_with(raw, &ctx).is_accept(), "{raw}");
        assert!(executor.propose(raw, &ctx).is_err(), "{raw}");
    }
    assert_eq!(executor.calls().len(), 1);
}

#[test]
fn a_refused_duplicate_records_nothing() {
    let ctx = TicketContext::demo("demo-a");
    let mut executor = MockExecutor::default();
    executor.propose(VALID, &ctx).unwrap();
    let before = executor.calls().to_vec();
    for _ in 0..3 {
        assert!(executor.propose(VALID, &ctx).is_err());
    }
    assert_eq!(executor.calls(), before);
}

#[test]
fn rejections_in_between_do_not_count_as_calls() {
    let ctx = TicketContext::demo("demo-a");
    let mut executor = MockExecutor::default();
    let stale = r#"{"action":"close_ticket","ticket_id":"7","reason":"Solicitação resolvida"}"#;
    assert!(executor.propose(stale, &ctx).unwrap().is_reject());
    assert!(executor.propose(VALID, &ctx).unwrap().is_accept());
    assert!(executor.propose(stale, &ctx).unwrap().is_reject());
    assert!(executor.propose(VALID, &ctx).is_err());
    assert_eq!(executor.calls().len(), 1);
}

#[test]
fn the_key_is_scoped_by_the_trusted_tenant() {
    // Two tenants each own a resolved ticket 7 (the demo gives it to demo-a
    // only, so build both stores): the same document is a call for each.
    let a = TicketContext::demo("demo-a");
    let mut b = TicketContext::demo("demo-b");
    if let Some(t) = b.tickets.get_mut(&7) {
        t.tenant = "demo-b".into();
    }
    b.closable_ticket_ids = TicketContext::closable("demo-b", &b.tickets);
    let mut executor = MockExecutor::default();
    executor.propose(VALID, &a).unwrap();
    executor.propose(VALID, &b).unwrap();
    assert_eq!(executor.calls().len(), 2);
    assert_ne!(executor.calls()[0].key, executor.calls()[1].key);
    assert!(executor.propose(VALID, &b).is_err());
    assert_eq!(executor.calls().len(), 2);
}

#[test]
fn another_reason_is_another_document_hence_another_key() {
    // The key is the fingerprint of the whole accepted document: a proposal
    // that closes the same ticket with other words is a second call. (An
    // application that wants "close ticket 7 once" keys on the ticket.)
    let ctx = TicketContext::demo("demo-a");
    let mut executor = MockExecutor::default();
    executor.propose(VALID, &ctx).unwrap();
    let reworded = r#"{"action":"close_ticket","ticket_id":7,"reason":"Resolvido"}"#;
    assert!(executor.propose(reworded, &ctx).unwrap().is_accept());
    assert_eq!(executor.calls().len(), 2);
}

#[test]
fn execute_is_idempotent_on_its_own() {
    let ctx = TicketContext::demo("demo-a");
    let proposal = CloseTicket::from_json(VALID).unwrap();
    let mut executor = MockExecutor::default();
    let call = executor.execute(&proposal, &ctx).unwrap();
    assert_eq!(call.key, proposal.idempotency_key(Some("demo-a")));
    assert!(executor.execute(&proposal, &ctx).is_err());
    assert_eq!(executor.calls().len(), 1);
}

#[test]
fn reset_forgets_calls_and_keys() {
    let ctx = TicketContext::demo("demo-a");
    let mut executor = MockExecutor::default();
    executor.propose(VALID, &ctx).unwrap();
    executor.reset();
    assert!(executor.calls().is_empty());
    assert!(executor.propose(VALID, &ctx).unwrap().is_accept());
    assert_eq!(executor.calls().len(), 1);
}
