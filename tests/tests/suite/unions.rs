//! Tagged unions: DESIGN.md's `Step` and `Refund` (declared exactly as there,
//! in `schema_support/step.rs`), and unions as fields, options and items.
use crate::schema_support;

use contract_runtime::{Contract, EvidenceSource, OutcomeKind, Rejection, Violation};
use proptest::prelude::*;
use schema_support::{Refund, Step};

/// A struct holding unions: as a field, an optional field, items, and the outcome.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(outcome = next)]
pub struct Plan {
    pub next: Step,
    pub fallback: Option<Step>,
    pub later: Vec<Step>,
}

/// A union with variant-level rules.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "kind")]
pub enum Window {
    #[contract(order(start < end))]
    Range { start: u32, end: u32 },
    /// A hold, with a reason when it is long.
    #[contract(when(length = "long", require(reason)))]
    Hold {
        /// How long.
        #[contract(one_of = ["short", "long"])]
        length: String,
        reason: Option<String>,
    },
    #[contract(rename = "open")]
    Open {
        #[contract(rename = "from")]
        start: u32,
    },
}

/// Edits through a union-typed field.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(edit(reword = ["/step/reason", "/step/question"]))]
pub struct Ticket {
    pub step: Step,
}

fn errors(rejection: &Rejection) -> Vec<(&str, &str, &str)> {
    rejection
        .errors
        .iter()
        .map(|e| (e.stage.as_str(), e.pointer.as_str(), e.code))
        .collect()
}

fn rejected(raw: &str) -> Rejection {
    match Step::from_json(raw) {
        Ok(value) => panic!("accepted {raw}: {value:?}"),
        Err(rejection) => rejection,
    }
}

/// `{"action":"close_ticket","ticket_id":7,"reason":"done"}`.
fn close_ticket() -> Step {
    Step::CloseTicket {
        ticket_id: 7,
        reason: "done".into(),
    }
}

#[test]
fn tag_first_decodes_the_variant() {
    let raw = r#"{"action":"close_ticket","ticket_id":7,"reason":"done"}"#;
    assert_eq!(Step::from_json(raw).unwrap(), close_ticket());
}

#[test]
fn tag_last_decodes_the_variant() {
    let raw = r#"{"ticket_id":7,"reason":"done","action":"close_ticket"}"#;
    assert_eq!(Step::from_json(raw).unwrap(), close_ticket());
}

#[test]
fn tag_in_the_middle_decodes_the_variant() {
    let raw = r#"{"order_id":3, "action" : "refund","refund_cents":50,"order_total_cents":100}"#;
    let step = Step::from_json(raw).unwrap();
    assert_eq!(
        step,
        Step::Refund(Refund {
            order_id: 3,
            refund_cents: 50,
            order_total_cents: 100
        })
    );
}

#[test]
fn tag_written_with_escapes_is_the_tag() {
    let raw = r#"{"reason":"done","\u0061ction":"close_ticket","ticket_id":7}"#;
    assert_eq!(Step::from_json(raw).unwrap(), close_ticket());
}

#[test]
fn missing_tag_is_missing_key_at_the_tag_and_nothing_else() {
    let r = rejected(r#"{"ticket_id":0,"bogus":1}"#);
    assert_eq!(errors(&r), [("schema", "/action", "missing_key")]);
    let r = rejected("{}");
    assert_eq!(errors(&r), [("schema", "/action", "missing_key")]);
}

#[test]
fn unknown_tag_is_unknown_variant_at_the_tag() {
    let r = rejected(r#"{"ticket_id":0,"action":"close","bogus":1}"#);
    assert_eq!(errors(&r), [("schema", "/action", "unknown_variant")]);
    for name in ["close_ticket", "refund", "ask_customer", "no_action"] {
        assert!(
            r.errors[0].message.contains(name),
            "{}",
            r.errors[0].message
        );
    }
}

#[test]
fn wrong_typed_tag_is_invalid_type_at_the_tag() {
    let r = rejected(r#"{"action":7,"ticket_id":"x"}"#);
    assert_eq!(errors(&r), [("schema", "/action", "invalid_type")]);
}

#[test]
fn duplicate_tag_is_a_duplicate_key() {
    for raw in [
        r#"{"action":"no_action","action":"no_action"}"#,
        r#"{"x":1,"action":"no_action","action":"no_action"}"#,
        r#"{"action":"nope","action":"no_action"}"#,
        r#"{"action":"close_ticket","ticket_id":1,"reason":"r","action":"close_ticket"}"#,
    ] {
        let r = rejected(raw);
        assert_eq!(errors(&r), [("parse", "/action", "duplicate_key")], "{raw}");
    }
}

#[test]
fn a_failed_tag_still_checks_the_object_is_json() {
    let r = rejected(r#"{"action":"nope","a":1,"a":2}"#);
    assert_eq!(errors(&r), [("parse", "/a", "duplicate_key")]);
    let r = rejected(r#"{"a":[1,}"#);
    assert_eq!(r.errors[0].stage.as_str(), "parse");
}

#[test]
fn a_member_of_a_sibling_variant_is_an_unknown_key() {
    let r = rejected(r#"{"action":"ask_customer","question":"which?","ticket_id":1}"#);
    assert_eq!(errors(&r), [("schema", "/ticket_id", "unknown_key")]);
}

#[test]
fn every_error_of_a_variant_is_collected() {
    let r = rejected(r#"{"ticket_id":0,"extra":true,"action":"close_ticket"}"#);
    assert_eq!(
        errors(&r),
        [
            ("schema", "/ticket_id", "below_minimum"),
            ("schema", "/extra", "unknown_key"),
            ("schema", "/reason", "missing_key"),
        ]
    );
}

#[test]
fn a_unit_variant_with_an_extra_member_is_an_unknown_key() {
    let r = rejected(r#"{"action":"no_action","why":"none"}"#);
    assert_eq!(errors(&r), [("schema", "/why", "unknown_key")]);
}

#[test]
fn a_root_that_is_not_an_object_is_invalid_type_at_the_root() {
    let r = rejected(r#""close_ticket""#);
    assert_eq!(errors(&r), [("schema", "", "invalid_type")]);
}

#[test]
fn a_newtype_variant_runs_its_structs_order_rule() {
    let r =
        rejected(r#"{"action":"refund","order_id":1,"refund_cents":200,"order_total_cents":100}"#);
    assert_eq!(errors(&r), [("rule", "/order_total_cents", "order")]);
}

#[test]
fn a_variant_order_rule_runs_with_its_members() {
    assert!(Window::from_json(r#"{"kind":"Range","start":1,"end":2}"#).is_ok());
    let r = Window::from_json(r#"{"kind":"Range","start":2,"end":2}"#).unwrap_err();
    assert_eq!(errors(&r), [("rule", "/end", "order")]);
    let open = Window::from_json(r#"{"from":4,"kind":"open"}"#).unwrap();
    assert_eq!(open, Window::Open { start: 4 });
}

#[test]
fn a_variant_when_rule_runs_with_its_members() {
    assert!(Window::from_json(r#"{"kind":"Hold","length":"short","reason":null}"#).is_ok());
    let r = Window::from_json(r#"{"kind":"Hold","length":"long","reason":null}"#).unwrap_err();
    assert_eq!(errors(&r), [("rule", "/reason", "required")]);
    let r = Window::from_json(r#"{"kind":"Hold","length":"medium","reason":null}"#).unwrap_err();
    assert_eq!(errors(&r), [("schema", "/length", "not_one_of")]);
}

#[test]
fn variant_and_member_docs_become_descriptions() {
    let schema = Window::json_schema();
    let hold = &schema["oneOf"][1];
    assert_eq!(
        hold["description"],
        "A hold, with a reason when it is long."
    );
    assert_eq!(hold["properties"]["length"]["description"], "How long.");
    assert_eq!(hold["properties"]["kind"]["const"], "Hold");
    assert_eq!(hold["required"][0], "kind");
    assert_eq!(hold["additionalProperties"], false);
    assert_eq!(hold["allOf"].as_array().map(Vec::len), Some(1));
}

#[test]
fn the_unions_max_bytes_applies_at_the_root() {
    let raw = format!(
        r#"{{"action":"ask_customer","question":"{}"}}"#,
        "a".repeat(5000)
    );
    let r = rejected(&raw);
    assert_eq!(errors(&r), [("parse", "", "too_large")]);
}

#[test]
fn clarify_and_decline_variants_decide_the_outcome() {
    let kind = |raw: &str| Step::check(raw).kind();
    assert_eq!(
        kind(r#"{"action":"ask_customer","question":"which?"}"#),
        OutcomeKind::Clarify
    );
    assert_eq!(kind(r#"{"action":"no_action"}"#), OutcomeKind::Decline);
    assert_eq!(
        kind(r#"{"action":"close_ticket","ticket_id":7,"reason":"done"}"#),
        OutcomeKind::Accept
    );
    assert_eq!(kind(r#"{"action":"no_action","x":1}"#), OutcomeKind::Reject);
}

#[test]
fn a_union_outcome_field_decides_the_structs_outcome() {
    let raw = r#"{"next":{"action":"ask_customer","question":"?"},"fallback":null,"later":[]}"#;
    assert_eq!(Plan::check(raw).kind(), OutcomeKind::Clarify);
}

#[test]
fn a_union_as_field_option_and_items_reports_errors_at_nested_pointers() {
    let raw = r#"{"next":{"action":"no_action"},"fallback":{"action":"refund"},"later":[{"action":"no_action"},{"question":"","action":"ask_customer"}]}"#;
    let r = Plan::from_json(raw).unwrap_err();
    assert_eq!(
        errors(&r),
        [
            ("schema", "/fallback/order_id", "missing_key"),
            ("schema", "/fallback/refund_cents", "missing_key"),
            ("schema", "/fallback/order_total_cents", "missing_key"),
            ("schema", "/later/1/question", "too_short"),
        ]
    );
    let ok = r#"{"next":{"action":"no_action"},"fallback":null,"later":[{"action":"refund","order_id":1,"refund_cents":1,"order_total_cents":2}]}"#;
    let plan = Plan::from_json(ok).unwrap();
    assert_eq!(plan.later.len(), 1);
    assert_eq!(Plan::check(ok).kind(), OutcomeKind::Decline);
}

#[test]
fn a_nested_newtype_rule_reports_below_the_field() {
    let raw = r#"{"next":{"action":"no_action"},"fallback":{"action":"refund","order_id":1,"refund_cents":3,"order_total_cents":2},"later":[]}"#;
    let r = Plan::from_json(raw).unwrap_err();
    assert_eq!(
        errors(&r),
        [("rule", "/fallback/order_total_cents", "order")]
    );
}

#[test]
fn to_json_writes_the_tag_first() {
    let step = Step::CloseTicket {
        ticket_id: 7,
        reason: "done".into(),
    };
    assert_eq!(
        serde_json::to_string(&step.to_json()).unwrap(),
        r#"{"action":"close_ticket","ticket_id":7,"reason":"done"}"#
    );
    let refund = Step::Refund(Refund {
        order_id: 1,
        refund_cents: 2,
        order_total_cents: 3,
    });
    assert_eq!(
        serde_json::to_string(&refund.to_json()).unwrap(),
        r#"{"action":"refund","order_id":1,"refund_cents":2,"order_total_cents":3}"#
    );
    assert_eq!(
        serde_json::to_string(&Step::NoAction.to_json()).unwrap(),
        r#"{"action":"no_action"}"#
    );
}

#[test]
fn unit_only_enums_without_tag_stay_strings() {
    #[derive(Contract, Debug, Clone, Copy, PartialEq)]
    #[contract(rename_all = "snake_case")]
    enum Mood {
        Calm,
        Upset,
    }
    assert_eq!(Mood::Upset.to_json(), serde_json::json!("upset"));
    assert_eq!(
        Mood::json_schema()["enum"],
        serde_json::json!(["calm", "upset"])
    );
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (1u64.., "[a-z ]{1,200}")
            .prop_map(|(ticket_id, reason)| Step::CloseTicket { ticket_id, reason }),
        (any::<u64>(), any::<u32>(), any::<u32>()).prop_map(|(order_id, a, b)| Step::Refund(
            Refund {
                order_id,
                refund_cents: a.min(b),
                order_total_cents: a.max(b),
            }
        )),
        "\\PC{1,300}".prop_map(|question| Step::AskCustomer { question }),
        Just(Step::NoAction),
    ]
}

proptest! {
    #[test]
    fn from_json_of_to_json_is_identity(value in step()) {
        let raw = serde_json::to_string(&value.to_json()).unwrap();
        prop_assert_eq!(Step::from_json(&raw).unwrap(), value);
    }

    #[test]
    fn the_tag_may_be_anywhere(value in step(), at in 0usize..4) {
        let serde_json::Value::Object(map) = value.to_json() else { unreachable!() };
        let mut members: Vec<_> = map.into_iter().collect();
        let tag = members.remove(0);
        let at = at.min(members.len());
        members.insert(at, tag);
        let raw = serde_json::to_string(&members.into_iter().collect::<serde_json::Map<_, _>>()).unwrap();
        prop_assert_eq!(Step::from_json(&raw).unwrap(), value);
    }
}

#[test]
fn an_edit_policy_allows_a_member_of_a_union_field() {
    let baseline =
        serde_json::json!({"step": {"action": "close_ticket", "ticket_id": 7, "reason": "a"}});
    let candidate = r#"{"step":{"action":"close_ticket","ticket_id":7,"reason":"b"}}"#;
    let edit = Ticket::REWORD.check(&baseline, candidate).unwrap();
    assert_eq!(edit.changed, ["/step/reason"]);
}

#[test]
fn an_edit_policy_blocks_a_member_it_does_not_list() {
    let baseline =
        serde_json::json!({"step": {"action": "close_ticket", "ticket_id": 7, "reason": "a"}});
    let candidate = r#"{"step":{"action":"close_ticket","ticket_id":8,"reason":"a"}}"#;
    let r = Ticket::REWORD.check(&baseline, candidate).unwrap_err();
    assert_eq!(
        errors(&r),
        [("edit", "/step/ticket_id", "change_not_allowed")]
    );
}

#[test]
fn a_changed_tag_is_a_changed_member() {
    let before =
        serde_json::json!({"step": {"action": "close_ticket", "ticket_id": 7, "reason": "a"}});
    let after = serde_json::json!({"step": {"action": "ask_customer", "question": "a"}});
    let changed = contract_runtime::diff::changed_paths(&before, &after);
    assert_eq!(
        changed.into_iter().collect::<Vec<_>>(),
        [
            "/step/action",
            "/step/question",
            "/step/reason",
            "/step/ticket_id"
        ]
    );
    let r = Ticket::REWORD
        .check(&before, &serde_json::to_string(&after).unwrap())
        .unwrap_err();
    assert_eq!(
        errors(&r),
        [
            ("edit", "/step/action", "change_not_allowed"),
            ("edit", "/step/ticket_id", "change_not_allowed"),
        ]
    );
}

// Business checks on a union: its `check`, its variants' `evidence`, a
// newtype variant's struct's own checks, and all of them through fields.

/// What the business checks of `Action` know: the open tickets, the refund
/// limit and the conversation the model read.
pub struct Desk {
    tickets: Vec<u64>,
    max_refund_cents: u32,
    source: &'static str,
}

impl EvidenceSource for Desk {
    fn source_text(&self) -> &str {
        self.source
    }
}

fn desk() -> Desk {
    Desk {
        tickets: vec![7],
        max_refund_cents: 1000,
        source: "customer: please close ticket 7, the printer works again",
    }
}

fn within_limit(r: &DeskRefund, desk: &Desk) -> Result<(), Violation> {
    if r.refund_cents > desk.max_refund_cents {
        return Err(Violation::business(
            "/refund_cents",
            "refund_over_limit",
            "over the desk's limit",
        ));
    }
    Ok(())
}

/// A refund the desk may grant.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk, check = within_limit)]
pub struct DeskRefund {
    pub order_id: u64,
    pub refund_cents: u32,
}

fn open_ticket(a: &Action, desk: &Desk) -> Result<(), Vec<Violation>> {
    match a {
        Action::Close { ticket_id, .. } if !desk.tickets.contains(ticket_id) => {
            Err(vec![Violation::business(
                "/ticket_id",
                "unknown_ticket",
                "no such open ticket",
            )])
        }
        Action::Escalate { note: Some(note) } if note.contains("printer") => {
            Err(vec![Violation::review(
                "/note",
                "hardware",
                "a person looks at hardware",
            )])
        }
        _ => Ok(()),
    }
}

/// An action at the help desk, checked against the desk's records.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "action", rename_all = "snake_case", context = Desk, check = open_ticket)]
pub enum Action {
    Close {
        ticket_id: u64,
        #[contract(evidence)]
        quote: String,
    },
    Refund(DeskRefund),
    Escalate {
        #[contract(evidence, quarantine)]
        note: Option<String>,
    },
    Wait,
}

/// Actions as a field, an optional field and items.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk)]
pub struct Queue {
    pub first: Action,
    pub maybe: Option<Action>,
    pub rest: Vec<Action>,
}

fn business_errors<T: Contract<Context = Desk>>(raw: &str) -> Vec<(String, String, &'static str)> {
    match T::check_with(raw, &desk()).rejection() {
        Some(r) => r
            .errors
            .iter()
            .map(|e| (e.stage.as_str().to_owned(), e.pointer.to_string(), e.code))
            .collect(),
        None => Vec::new(),
    }
}

fn triples(expected: &[(&str, &str, &'static str)]) -> Vec<(String, String, &'static str)> {
    expected
        .iter()
        .map(|(s, p, c)| ((*s).to_owned(), (*p).to_owned(), *c))
        .collect()
}

#[test]
fn a_unions_check_runs_against_the_context() {
    let raw = r#"{"action":"close","ticket_id":8,"quote":"printer works"}"#;
    assert_eq!(
        business_errors::<Action>(raw),
        triples(&[("business", "/ticket_id", "unknown_ticket")])
    );
    let ok = r#"{"quote":"printer works","action":"close","ticket_id":7}"#;
    assert_eq!(Action::check_with(ok, &desk()).kind(), OutcomeKind::Accept);
}

#[test]
fn a_variant_members_evidence_is_checked_at_its_pointer() {
    let raw = r#"{"action":"close","ticket_id":7,"quote":"the scanner"}"#;
    assert_eq!(
        business_errors::<Action>(raw),
        triples(&[("business", "/quote", "evidence_not_found")])
    );
}

#[test]
fn a_newtype_variants_struct_runs_its_own_check_beside_the_tag() {
    let raw = r#"{"action":"refund","order_id":3,"refund_cents":5000}"#;
    assert_eq!(
        business_errors::<Action>(raw),
        triples(&[("business", "/refund_cents", "refund_over_limit")])
    );
}

#[test]
fn a_quarantined_variant_member_without_evidence_is_dropped_for_review() {
    let outcome = Action::check_with(r#"{"action":"escalate","note":"a fire"}"#, &desk());
    assert_eq!(outcome.kind(), OutcomeKind::Review);
    assert_eq!(outcome.reasons()[0].pointer, "/note");
    assert_eq!(outcome.reasons()[0].code, "evidence_not_found");
    assert_eq!(outcome.value(), Some(&Action::Escalate { note: None }));
}

#[test]
fn a_review_reason_from_the_unions_check_drops_a_quarantined_member() {
    let outcome = Action::check_with(r#"{"action":"escalate","note":"printer"}"#, &desk());
    assert_eq!(outcome.kind(), OutcomeKind::Review);
    assert_eq!(outcome.reasons()[0].code, "hardware");
    assert_eq!(outcome.value(), Some(&Action::Escalate { note: None }));
}

#[test]
fn a_unions_business_checks_do_not_run_without_check_with() {
    let raw = r#"{"action":"refund","order_id":3,"refund_cents":5000}"#;
    assert_eq!(Action::check(raw).kind(), OutcomeKind::Accept);
}

#[test]
fn union_fields_run_their_business_checks_at_their_pointers() {
    let raw = r#"{
        "first": {"action":"close","ticket_id":9,"quote":"ticket 7"},
        "maybe": {"action":"refund","order_id":1,"refund_cents":1001},
        "rest": [{"action":"wait"}, {"action":"close","ticket_id":7,"quote":"fax"}]
    }"#;
    assert_eq!(
        business_errors::<Queue>(raw),
        triples(&[
            ("business", "/first/ticket_id", "unknown_ticket"),
            ("business", "/maybe/refund_cents", "refund_over_limit"),
            ("business", "/rest/1/quote", "evidence_not_found"),
        ])
    );
}

#[test]
fn a_quarantined_member_of_a_union_item_is_dropped_at_its_pointer() {
    let raw = r#"{"first":{"action":"wait"},"maybe":null,"rest":[{"action":"wait"},{"action":"escalate","note":"smoke"}]}"#;
    let outcome = Queue::check_with(raw, &desk());
    assert_eq!(outcome.kind(), OutcomeKind::Review);
    assert_eq!(outcome.reasons()[0].pointer, "/rest/1/note");
    let queue = outcome.value().unwrap();
    assert_eq!(queue.rest[1], Action::Escalate { note: None });
}

#[test]
fn a_unions_business_checks_wait_for_a_schema_valid_document() {
    let raw = r#"{"action":"close","ticket_id":8,"quote":7}"#;
    assert_eq!(
        business_errors::<Action>(raw),
        triples(&[("schema", "/quote", "invalid_type")])
    );
}

/// A struct holding contract structs with the same context.
#[derive(Contract, Debug)]
#[contract(context = Desk)]
pub struct Ledger {
    pub refunds: Vec<DeskRefund>,
}

#[test]
fn a_nested_structs_check_runs_at_its_pointer() {
    let raw =
        r#"{"refunds":[{"order_id":1,"refund_cents":10},{"order_id":2,"refund_cents":2000}]}"#;
    assert_eq!(
        business_errors::<Ledger>(raw),
        triples(&[("business", "/refunds/1/refund_cents", "refund_over_limit")])
    );
}

/// A page of anything the desk checks: its items run their checks with
/// the page's context.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk)]
pub struct DeskPage<T> {
    pub items: Vec<T>,
}

#[test]
fn a_generic_structs_items_run_their_checks_with_its_context() {
    let raw = r#"{"items":[{"order_id":1,"refund_cents":10},{"order_id":2,"refund_cents":2000}]}"#;
    assert_eq!(
        business_errors::<DeskPage<DeskRefund>>(raw),
        triples(&[("business", "/items/1/refund_cents", "refund_over_limit")])
    );
}

#[test]
fn a_unions_check_is_listed_beside_its_variants_in_the_schema() {
    let union = Action::json_schema();
    assert_eq!(union["x-contract-rules"][0]["rule"], "check");
    assert_eq!(union["x-contract-rules"][0]["function"], "open_ticket");
    let close = &union["oneOf"][0];
    assert_eq!(close["x-contract-rules"][0]["rule"], "evidence");
    assert_eq!(close["x-contract-rules"][0]["pointers"][0], "/quote");
}
