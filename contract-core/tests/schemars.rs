//! Feature `schemars`: every contract is a `schemars::JsonSchema` whose
//! schema is its own, nested contracts defined once.
use std::collections::BTreeSet;

use contract_runtime::{Contract, Date};
use schemars::{JsonSchema, Schema, SchemaGenerator, generate::SchemaSettings, json_schema};
use serde_json::{Value, json};

/// A refund.
#[derive(Contract, Debug)]
#[contract(order(refund_cents <= order_total_cents))]
struct Refund {
    order_id: u64,
    refund_cents: u32,
    order_total_cents: u32,
}

#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
enum Priority {
    Low,
    High,
}

/// What to do next.
#[derive(Contract, Debug)]
#[contract(tag = "action", rename_all = "snake_case")]
enum Step {
    Close {
        #[contract(min = 1)]
        ticket_id: u64,
    },
    Refund(Refund),
    NoAction,
}

/// A plan: nested contracts, some of them twice (a plain enum is inlined,
/// as in its own schema).
#[derive(Contract, Debug)]
#[contract(version = 2)]
struct Plan {
    first: Refund,
    steps: Vec<Step>,
    fallback: Option<Refund>,
    priority: Priority,
    due: Option<Date>,
}

/// A contract that contains itself.
#[derive(Contract, Debug)]
struct Tree {
    children: Vec<Tree>,
}

// What a crate that takes `T: JsonSchema` (an agent framework, an OpenAPI
// generator) does with a type.
fn schema_of<T: JsonSchema>() -> Value {
    schemars::schema_for!(T).to_value()
}

// With `schemars::JsonSchema` in scope, `T::json_schema` names two
// functions: the contract's needs its trait spelled out.
fn own<T: Contract>() -> Value {
    <T as Contract>::json_schema()
}

fn refs(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match v {
                    Value::String(r) if key == "$ref" => {
                        out.insert(r.clone());
                    }
                    other => refs(other, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

fn def_names(schema: &Value, path: &str) -> BTreeSet<String> {
    schema
        .pointer(path)
        .and_then(Value::as_object)
        .map(|defs| defs.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn schema_for_a_contract_equals_its_own_json_schema() {
    assert_eq!(schema_of::<Refund>(), own::<Refund>());
    assert_eq!(schema_of::<Priority>(), own::<Priority>());
    assert_eq!(schema_of::<Step>(), own::<Step>());
    assert_eq!(schema_of::<Plan>(), own::<Plan>());
}

#[test]
fn the_schema_name_is_the_contract_name() {
    assert_eq!(<Plan as schemars::JsonSchema>::schema_name(), Plan::NAME);
    assert_ne!(Plan::schema_id(), Refund::schema_id());
}

#[test]
fn nested_contracts_are_defined_once_and_every_ref_resolves() {
    let schema = schema_of::<Plan>();
    assert_eq!(
        def_names(&schema, "/$defs"),
        BTreeSet::from(["Refund".into(), "Step".into()])
    );
    let mut found = BTreeSet::new();
    refs(&schema, &mut found);
    for r in &found {
        let pointer = r.strip_prefix('#').unwrap();
        assert!(schema.pointer(pointer).is_some(), "{r} does not resolve");
    }
}

// A schemars type around contracts: each contract is a definition once,
// however many fields and nested contracts reach it.
struct Envelope;

impl JsonSchema for Envelope {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Envelope".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let refund = generator.subschema_for::<Refund>();
        let plan = generator.subschema_for::<Plan>();
        let step = generator.subschema_for::<Step>();
        json_schema!({
            "type": "object",
            "properties": {"refund": refund, "plan": plan, "step": step},
            "required": ["refund", "plan", "step"]
        })
    }
}

#[test]
fn contracts_inside_a_schemars_type_share_one_definition_each() {
    let schema = schema_of::<Envelope>();
    assert_eq!(
        def_names(&schema, "/$defs"),
        BTreeSet::from(["Plan".into(), "Refund".into(), "Step".into()])
    );
    assert_eq!(
        schema["properties"]["refund"],
        json!({"$ref": "#/$defs/Refund"})
    );
    assert_eq!(
        schema["$defs"]["Refund"],
        own::<Refund>()
            .as_object()
            .map(|o| {
                let mut body = o.clone();
                body.remove("$schema");
                body.remove("title");
                Value::Object(body)
            })
            .unwrap()
    );
    let mut found = BTreeSet::new();
    refs(&schema, &mut found);
    for r in &found {
        assert!(
            schema.pointer(r.strip_prefix('#').unwrap()).is_some(),
            "{r} does not resolve"
        );
    }
}

#[test]
fn references_follow_the_generators_definitions_path() {
    let schema = SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<Plan>()
        .to_value();
    assert_eq!(
        def_names(&schema, "/definitions"),
        BTreeSet::from(["Refund".into(), "Step".into()])
    );
    let mut found = BTreeSet::new();
    refs(&schema, &mut found);
    assert!(!found.is_empty());
    for r in &found {
        assert!(r.starts_with("#/definitions/"), "{r}");
        assert!(
            schema.pointer(r.strip_prefix('#').unwrap()).is_some(),
            "{r} does not resolve"
        );
    }
}

// The one difference: a recursive contract's document refers to its root as
// `#`, a schemars schema to its definition.
#[test]
fn a_recursive_contract_refers_to_its_definition() {
    let schema = schema_of::<Tree>();
    assert_eq!(
        own::<Tree>()["properties"]["children"]["items"],
        json!({"$ref": "#"})
    );
    assert_eq!(
        schema["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Tree"})
    );
    assert_eq!(schema["$defs"]["Tree"]["properties"], schema["properties"]);
}

// `Checked<T>` describes itself as `T`: the schema a crate taking
// `P: DeserializeOwned + JsonSchema` advertises is the contract's.
#[test]
fn checked_has_the_contracts_own_schema() {
    use contract_runtime::Checked;
    assert_eq!(schema_of::<Checked<Refund>>(), own::<Refund>());
    assert_eq!(schema_of::<Checked<Plan>>(), own::<Plan>());
    assert_eq!(
        <Checked<Plan> as JsonSchema>::schema_name(),
        <Plan as JsonSchema>::schema_name()
    );
    assert_eq!(Checked::<Plan>::schema_id(), Plan::schema_id());
}

// Beside the plain contract in one generator, `Checked<T>` is the same
// definition, not a second one named `Refund2`.
#[test]
fn checked_and_its_contract_share_one_definition() {
    use contract_runtime::Checked;
    struct Both;
    impl JsonSchema for Both {
        fn schema_name() -> std::borrow::Cow<'static, str> {
            "Both".into()
        }
        fn json_schema(generator: &mut SchemaGenerator) -> Schema {
            let plain = generator.subschema_for::<Refund>();
            let checked = generator.subschema_for::<Checked<Refund>>();
            json_schema!({"type": "object", "properties": {"plain": plain, "checked": checked}})
        }
    }
    let schema = schema_of::<Both>();
    assert_eq!(
        def_names(&schema, "/$defs"),
        BTreeSet::from(["Refund".into()])
    );
    assert_eq!(
        schema["properties"]["plain"],
        schema["properties"]["checked"]
    );
}
