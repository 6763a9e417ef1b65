//! Tagged unions: DESIGN.md's `Step` and `Refund` (declared exactly as there,
//! in `schema_support/step.rs`), and unions as fields, options and items.
mod schema_support;

use contract_runtime::{Contract, OutcomeKind, Rejection};
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
