//! The registry of built-in contracts and the per-stage [`Report`].
use contract_examples::registry;
use contract_examples::vacation::VacationRequest;
use contract_runtime::Contract;
use contract_runtime::cli::Setup;
use contract_runtime::report::Report;

#[test]
fn the_registry_lists_the_five_seed_contracts_then_the_union_the_label_and_the_tools() {
    let names: Vec<_> = registry::contracts().iter().map(|c| c.name()).collect();
    assert_eq!(
        names,
        [
            "close-ticket",
            "settings",
            "triage",
            "ticket-extraction",
            "vacation",
            "step",
            "shipping-label",
            "support-tools"
        ]
    );
}

#[test]
fn every_schema_is_a_closed_draft_2020_12_object() {
    for entry in registry::contracts() {
        let schema = entry.schema();
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema",
            "{}",
            entry.name()
        );
        // A union is a `oneOf` of closed objects, one per variant.
        let objects = match schema["oneOf"].as_array() {
            Some(variants) => variants.iter().collect(),
            None => vec![&schema],
        };
        for object in objects {
            assert_eq!(object["additionalProperties"], false, "{}", entry.name());
        }
        // A tools enum's schema describes each tool (its `oneOf` items
        // carry the variants' doc comments), not the enum.
        let described = if entry.takes_calls() {
            schema["oneOf"]
                .as_array()
                .is_some_and(|tools| tools.iter().all(|t| t["description"].is_string()))
        } else {
            schema["description"].is_string()
        };
        assert!(described, "{}: doc comment", entry.name());
        jsonschema::meta::validate(&schema).unwrap();
    }
}

#[test]
fn only_settings_declares_an_edit_policy() {
    for entry in registry::contracts() {
        let policies = entry.edit_policies();
        if entry.name() == "settings" {
            assert_eq!(policies.len(), 1);
            assert_eq!(policies[0].name, "disable_email");
            assert_eq!(policies[0].paths, ["/notifications/email"]);
        } else {
            assert!(policies.is_empty(), "{}", entry.name());
        }
    }
}

#[test]
fn close_ticket_has_the_seed_size_limit() {
    assert_eq!(
        registry::find("close-ticket").unwrap().limits().max_bytes,
        4096
    );
}

#[test]
fn a_contract_with_context_needs_it() {
    let err = registry::find("close-ticket")
        .unwrap()
        .checker(&Setup::default())
        .unwrap_err();
    assert!(err.to_string().contains("--context"));
}

#[test]
fn the_typed_outcome_and_the_decision_agree() {
    let checker = registry::find("vacation")
        .unwrap()
        .checker(&Setup::default())
        .unwrap();
    let raw = r#"{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":"Quando?"}"#;
    assert_eq!(
        checker.check(raw).outcome,
        VacationRequest::check(raw).kind()
    );
}

#[test]
fn report_counts_the_vacation_funnel() {
    let mut report = Report::new();
    for raw in [
        r#"{"status":"complete","start_date":"2027-06-12","end_date":"2027-06-14","clarification_question":null}"#,
        r#"{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":"Quando?"}"#,
        r#"{"status":"complete","start_date":"2027-06-14","end_date":"2027-06-12","clarification_question":null}"#,
        r#"{"status":"complete","start_date":"2027-02-30","end_date":null,"clarification_question":null}"#,
        "not json",
    ] {
        report.record(&VacationRequest::check(raw));
    }
    assert_eq!(report.read, 5);
    assert_eq!(report.parsed, 4);
    assert_eq!(report.schema_valid, 3);
    assert_eq!(report.rule_valid, 2);
    assert_eq!((report.accepted, report.clarified), (1, 1));
    assert_eq!(
        (
            report.rejected.parse,
            report.rejected.schema,
            report.rejected.rule
        ),
        (1, 1, 1)
    );
    assert_eq!(report.rates().rule_valid, 0.4);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["clarified"], 1);
    assert_eq!(json["rates"]["schema_valid"], 0.6);
}
