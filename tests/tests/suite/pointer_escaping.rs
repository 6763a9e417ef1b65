//! A JSON name holding `/` or `~` is escaped (RFC 6901: `~` → `~0`, `/` →
//! `~1`) in every pointer the contract writes: the schema's rule entries and
//! the runtime's errors.
use contract_runtime::schema::RULES_KEY;
use contract_runtime::{Contract, Stage};
use serde_json::{Value, json};

#[derive(Contract, Debug)]
#[contract(
    order(start <= end),
    when(mode = "strict", require(note))
)]
struct Window {
    start: u32,
    #[contract(rename = "a/b~c")]
    end: u32,
    #[contract(rename = "m/ode", one_of = ["strict", "lax"])]
    mode: String,
    #[contract(rename = "n/o~te")]
    note: Option<String>,
    #[contract(rename = "q/~", quarantine, max = 5)]
    level: Option<u8>,
}

fn pointers_of(schema: &Value, rule: &str) -> Vec<Value> {
    schema[RULES_KEY]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["rule"] == rule)
        .map(|r| r["pointers"].clone())
        .collect()
}

#[test]
fn order_rule_pointers_in_the_schema_are_escaped() {
    let schema = Window::json_schema();
    assert_eq!(
        pointers_of(&schema, "order"),
        vec![json!(["/start", "/a~1b~0c"])]
    );
}

#[test]
fn quarantine_pointers_in_the_schema_are_escaped() {
    let schema = Window::json_schema();
    assert_eq!(pointers_of(&schema, "quarantine"), vec![json!(["/q~1~0"])]);
}

// `when` names members by their JSON names (property names, not pointers),
// unescaped.
#[test]
fn when_rule_in_the_schema_names_members_unescaped() {
    let schema = Window::json_schema();
    let rule = &schema["allOf"][0];
    assert_eq!(rule["if"]["properties"]["m/ode"]["const"], json!("strict"));
    assert_eq!(
        rule["then"]["properties"]["n/o~te"]["not"],
        json!({ "type": "null" })
    );
}

#[test]
fn rule_errors_point_at_escaped_keys() {
    let doc = r#"{"start": 5, "a/b~c": 1, "m/ode": "strict", "n/o~te": null, "q/~": null}"#;
    let rejection = Window::from_json(doc).unwrap_err();
    let mut errors: Vec<(Stage, &str, &str)> = rejection
        .errors
        .iter()
        .map(|e| (e.stage, e.pointer.as_str(), e.code))
        .collect();
    errors.sort();
    assert_eq!(
        errors,
        vec![
            (Stage::Rule, "/a~1b~0c", "order"),
            (Stage::Rule, "/n~1o~0te", "required"),
        ]
    );
}

#[test]
fn schema_errors_point_at_escaped_keys() {
    let doc = r#"{"start": 1, "a/b~c": 2, "m/ode": "lax", "n/o~te": null}"#;
    let rejection = Window::from_json(doc).unwrap_err();
    let errors: Vec<(Stage, &str, &str)> = rejection
        .errors
        .iter()
        .map(|e| (e.stage, e.pointer.as_str(), e.code))
        .collect();
    assert_eq!(errors, vec![(Stage::Schema, "/q~1~0", "missing_key")]);
}
