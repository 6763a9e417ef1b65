//! Seed 000's experiment: a mock executor that records a call only when every
//! stage passes. Of the article's thirteen kinds of input (the first thirteen
//! lines of `examples/data/close-ticket.jsonl`), only the valid proposal for
//! ticket 7 reaches the tool; every rejected one makes zero calls.
use contract_examples::close_ticket::{ExecutedCall, MockExecutor, TicketContext};

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
        let outcome = executor.propose(raw, &ctx);
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
        rejected += usize::from(executor.propose(&raw, &ctx).is_reject());
    }
    assert_eq!(rejected, 12);
    assert_eq!(
        executor.calls(),
        [ExecutedCall {
            ticket_id: 7,
            action: "close_ticket".into()
        }]
    );
}

#[test]
fn the_same_proposal_is_refused_for_another_tenant() {
    // Ticket 7 is demo-a's: seen from demo-b, the valid proposal is refused.
    let ctx = TicketContext::demo("demo-b");
    let mut executor = MockExecutor::default();
    let outcome = executor.propose(&inputs()[0], &ctx);
    assert_eq!(outcome.rejection().unwrap().errors[0].code, "wrong_tenant");
    assert!(executor.calls().is_empty());
}

#[test]
fn the_schema_valid_proposals_are_stopped_at_the_business_stage() {
    let ctx = TicketContext::demo("demo-a");
    let mut executor = MockExecutor::default();
    for raw in &inputs()[1..4] {
        let outcome = executor.propose(raw, &ctx);
        let rejection = outcome.rejection().unwrap();
        assert_eq!(rejection.stage().unwrap().as_str(), "business");
        assert_eq!(rejection.pointers(), ["/ticket_id"]);
    }
    assert!(executor.calls().is_empty());
}
