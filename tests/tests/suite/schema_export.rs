//! Provider exports: one test per documented fact of each provider
//! (`contract_runtime::schema` module docs), on derived contracts and on
//! hand-written schemas for the size limits.
use crate::schema_support;

use contract_runtime::schema::{Export, ExportError, Provider, export, export_schema};
use contract_runtime::{Contract, Date, DateTime};
use schema_support::{
    CloseTicket, Everything, Notifications, Settings, Status, Step, TicketExtraction, Triage,
    VacationRequest,
};
use serde_json::{Map, Value, json};

// ------------------------------------------------------------------ helpers

/// Every schema node of `value` (walks every object in the document).
fn nodes(value: &Value) -> Vec<&Value> {
    let mut out = vec![value];
    match value {
        Value::Object(map) => {
            for (key, sub) in map {
                // Values of these keywords are data, not schemas.
                if matches!(
                    key.as_str(),
                    "enum" | "const" | "required" | "propertyOrdering"
                ) {
                    continue;
                }
                if key == "properties" || key == "$defs" {
                    for s in sub.as_object().into_iter().flat_map(Map::values) {
                        out.extend(nodes(s));
                    }
                } else {
                    out.extend(nodes(sub).into_iter().skip(usize::from(!sub.is_object())));
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                out.extend(nodes(item));
            }
        }
        _ => {}
    }
    out.into_iter().filter(|v| v.is_object()).collect()
}

fn keywords(value: &Value) -> Vec<String> {
    let mut out: Vec<String> = nodes(value)
        .into_iter()
        .flat_map(|n| n.as_object().unwrap().keys().cloned())
        .collect();
    out.sort();
    out.dedup();
    out
}

fn dropped(export: &Export) -> Vec<(&str, &str)> {
    export
        .dropped
        .iter()
        .map(|d| (d.pointer.as_str(), d.keyword.as_str()))
        .collect()
}

fn objects(value: &Value) -> Vec<&Map<String, Value>> {
    nodes(value)
        .into_iter()
        .filter(|n| n.get("properties").is_some())
        .map(|n| n.as_object().unwrap())
        .collect()
}

// ------------------------------------------------------------------ contracts

/// Optional keys.
#[derive(Contract, Debug)]
struct WithOptional {
    /// Always there.
    name: String,
    /// May be absent or null.
    #[contract(optional)]
    note: Option<String>,
    /// May be absent (then 0).
    #[contract(optional, default)]
    retries: u32,
}

/// Keywords every provider treats differently.
#[derive(Contract, Debug)]
struct Kept {
    #[contract(min = 1, max = 9)]
    count: u8,
    #[contract(min_len = 2, max_len = 4)]
    tags: Vec<String>,
    #[contract(min_len = 1, max_len = 3)]
    few: Vec<String>,
    #[contract(max_len = 10)]
    short: String,
    day: Date,
    #[contract(equals = "v1")]
    version: String,
    #[contract(equals = true)]
    agreed: bool,
    #[contract(one_of = ["a", "b"])]
    maybe_letter: Option<String>,
    status: Option<Status>,
    nested: Option<Notifications>,
}

/// A tree: the contract contains itself through a required field.
#[derive(Contract, Debug)]
struct Tree {
    label: String,
    children: Vec<Tree>,
}

/// A tree whose children may be absent.
#[derive(Contract, Debug)]
struct LooseTree {
    label: String,
    #[contract(optional, default)]
    children: Vec<LooseTree>,
}

// ------------------------------------------------------------------ OpenAI

#[test]
fn openai_root_must_be_an_object() {
    assert_eq!(
        export::<Status>(Provider::OpenAi),
        Err(ExportError::RootNotObject {
            provider: Provider::OpenAi
        })
    );
    let any_of_root = json!({"anyOf": [{"type": "object", "properties": {}, "additionalProperties": false}, {"type": "null"}]});
    assert!(matches!(
        export_schema(&any_of_root, Provider::OpenAi),
        Err(ExportError::RootNotObject { .. })
    ));
    assert!(export::<Status>(Provider::Gemini).is_ok());
}

#[test]
fn openai_refuses_a_root_union_and_says_to_wrap_it_in_a_struct_field() {
    let err = export::<Step>(Provider::OpenAi).unwrap_err();
    assert_eq!(
        err,
        ExportError::RootUnion {
            provider: Provider::OpenAi
        }
    );
    assert!(err.to_string().contains("struct field"), "{err}");
}

#[derive(Contract)]
struct NextStep {
    step: Step,
    later: Option<Step>,
}

#[test]
fn a_union_exports_as_any_of_for_every_provider() {
    for provider in Provider::ALL {
        let e = export::<NextStep>(provider).unwrap();
        let text = e.schema.to_string();
        assert!(!text.contains("oneOf"), "{provider}: {text}");
        let step = &e.schema["$defs"]["Step"];
        assert_eq!(
            step["anyOf"].as_array().map(Vec::len),
            Some(4),
            "{provider}"
        );
    }
}

#[test]
fn openai_requires_every_property_and_closed_objects() {
    let e = export::<WithOptional>(Provider::OpenAi).unwrap();
    assert_eq!(e.schema["required"], json!(["name", "note", "retries"]));
    assert_eq!(e.made_required, ["/properties/note", "/properties/retries"]);
    // `note` was already nullable; `retries` stays non-null: the decoder
    // would refuse null for a `u32`, so the model must write a number.
    assert_eq!(
        e.schema["properties"]["note"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(e.schema["properties"]["retries"]["type"], json!("integer"));
    for export in [
        export::<VacationRequest>(Provider::OpenAi).unwrap(),
        export::<Settings>(Provider::OpenAi).unwrap(),
        export::<Kept>(Provider::OpenAi).unwrap(),
    ] {
        for obj in objects(&export.schema) {
            assert_eq!(obj["additionalProperties"], json!(false));
            let props: Vec<&String> = obj["properties"].as_object().unwrap().keys().collect();
            let required: Vec<&str> = obj["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            assert_eq!(props, required);
        }
    }
}

#[test]
fn openai_cannot_take_a_map() {
    let err = export::<Everything>(Provider::OpenAi).unwrap_err();
    assert!(matches!(
        &err,
        ExportError::Unsupported { pointer, .. } if pointer == "/properties/scores/additionalProperties"
    ));
    assert!(
        err.to_string()
            .contains("openai cannot take the schema at `/properties/scores/additionalProperties`")
    );
    assert!(matches!(
        export::<Everything>(Provider::Anthropic),
        Err(ExportError::Unsupported { .. })
    ));
    assert!(export::<Everything>(Provider::Gemini).is_ok());
}

#[test]
fn openai_nullable_forms() {
    let e = export::<Kept>(Provider::OpenAi).unwrap();
    let p = &e.schema["properties"];
    // A nullable enum: `anyOf` with a null branch.
    assert_eq!(
        p["maybe_letter"],
        json!({"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]})
    );
    assert_eq!(
        p["status"],
        json!({"anyOf": [{"type": "string", "enum": ["complete", "needs_clarification", "not_a_request"]}, {"type": "null"}], "description": "What the model concluded about the message."})
    );
    // A nullable reference: `anyOf` with a null branch.
    assert_eq!(
        p["nested"],
        json!({"anyOf": [{"$ref": "#/$defs/Notifications"}, {"type": "null"}]})
    );
    // A nullable scalar: a type array.
    let v = export::<VacationRequest>(Provider::OpenAi).unwrap();
    assert_eq!(
        v.schema["properties"]["start_date"]["type"],
        json!(["string", "null"])
    );
}

#[test]
fn openai_drops_composition_and_string_lengths_and_keeps_the_rest() {
    let e = export::<Kept>(Provider::OpenAi).unwrap();
    let kw = keywords(&e.schema);
    for absent in [
        "allOf",
        "if",
        "then",
        "not",
        "dependentRequired",
        "minLength",
        "maxLength",
        "x-contract-rules",
        "$schema",
    ] {
        assert!(!kw.contains(&absent.to_owned()), "{absent} in {kw:?}");
    }
    let p = &e.schema["properties"];
    assert_eq!(
        (p["count"]["minimum"].clone(), p["count"]["maximum"].clone()),
        (json!(1), json!(9))
    );
    assert_eq!(
        (p["tags"]["minItems"].clone(), p["tags"]["maxItems"].clone()),
        (json!(2), json!(4))
    );
    assert_eq!(p["day"]["format"], "date");
    assert!(p["day"]["pattern"].as_str().unwrap().contains("-02-29"));
    assert_eq!(p["version"]["const"], "v1");
    assert!(e.schema["$defs"]["Notifications"].is_object());
    assert_eq!(dropped(&e), [("/properties/short/maxLength", "maxLength")]);
    // The `when` rules and the order rule of the vacation contract.
    let v = export::<VacationRequest>(Provider::OpenAi).unwrap();
    assert_eq!(
        dropped(&v),
        [
            ("/properties/clarification_question/minLength", "minLength"),
            ("/properties/clarification_question/maxLength", "maxLength"),
            ("/allOf", "allOf"),
            ("/x-contract-rules", "x-contract-rules"),
        ]
    );
    assert!(v.dropped[0].enforced_by.contains("`too_short`"));
    assert!(v.dropped[1].enforced_by.contains("`too_long`"));
    assert!(v.dropped[2].enforced_by.contains("`when` rules"));
    assert!(v.dropped[3].enforced_by.contains("`order`"));
    // Each pointer leads to the dropped value in the full schema.
    let full = VacationRequest::json_schema();
    for d in &v.dropped {
        assert!(full.pointer(&d.pointer).is_some(), "{}", d.pointer);
    }
}

#[test]
fn openai_drops_unknown_keywords_and_reports_them() {
    let e = export::<TicketExtraction>(Provider::OpenAi).unwrap();
    let rules = e
        .dropped
        .iter()
        .find(|d| d.keyword == "x-contract-rules")
        .unwrap();
    for part in ["quarantined", "evidence_not_found", "`check` function"] {
        assert!(rules.enforced_by.contains(part), "{}", rules.enforced_by);
    }
    let schema = json!({"type": "object", "properties": {"a": {"type": "string", "x-note": 1, "dependentRequired": {}}}, "required": ["a"], "additionalProperties": false});
    let e = export_schema(&schema, Provider::OpenAi).unwrap();
    assert_eq!(e.schema["properties"]["a"], json!({"type": "string"}));
    assert_eq!(
        dropped(&e),
        [
            ("/properties/a/x-note", "x-note"),
            ("/properties/a/dependentRequired", "dependentRequired")
        ]
    );
}

/// An object schema with `n` levels of object nesting.
fn nested(n: usize) -> Value {
    let mut schema = json!({"type": "object", "properties": {"leaf": {"type": "boolean"}}, "required": ["leaf"], "additionalProperties": false});
    for _ in 1..n {
        schema = json!({"type": "object", "properties": {"child": schema}, "required": ["child"], "additionalProperties": false});
    }
    schema
}

fn object_with(properties: Map<String, Value>) -> Value {
    let names: Vec<Value> = properties.keys().map(|k| json!(k)).collect();
    json!({"type": "object", "properties": properties, "required": names, "additionalProperties": false})
}

fn limit_of(result: Result<Export, ExportError>) -> Option<(&'static str, usize, usize)> {
    match result {
        Err(ExportError::Limit {
            limit, max, found, ..
        }) => Some((limit, max, found)),
        _ => None,
    }
}

#[test]
fn openai_nesting_limit_is_an_error_not_a_truncation() {
    assert!(export_schema(&nested(10), Provider::OpenAi).is_ok());
    assert_eq!(
        limit_of(export_schema(&nested(11), Provider::OpenAi)),
        Some(("levels of object nesting", 10, 11))
    );
    // Arrays do not add levels; references are followed.
    let through_ref = json!({
        "type": "object",
        "properties": {"list": {"type": "array", "items": {"$ref": "#/$defs/Deep"}}},
        "required": ["list"],
        "additionalProperties": false,
        "$defs": {"Deep": nested(10)}
    });
    assert_eq!(
        limit_of(export_schema(&through_ref, Provider::OpenAi)),
        Some(("levels of object nesting", 10, 11))
    );
    // A recursive contract is allowed (OpenAI takes recursion), counted once.
    let tree = export::<Tree>(Provider::OpenAi).unwrap();
    assert_eq!(
        tree.schema["properties"]["children"]["items"],
        json!({"$ref": "#"})
    );
}

#[test]
fn openai_size_limits() {
    let props = |n: usize| {
        (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "boolean"})))
            .collect::<Map<_, _>>()
    };
    assert!(export_schema(&object_with(props(5000)), Provider::OpenAi).is_ok());
    assert_eq!(
        limit_of(export_schema(&object_with(props(5001)), Provider::OpenAi)),
        Some(("object properties in all", 5000, 5001))
    );
    let enum_of = |n: usize, width: usize| {
        let values: Vec<Value> = (0..n).map(|i| json!(format!("{i:0width$}"))).collect();
        json!({"type": "string", "enum": values})
    };
    let two = |a: Value, b: Value| {
        object_with(Map::from_iter([("a".to_owned(), a), ("b".to_owned(), b)]))
    };
    assert!(export_schema(&two(enum_of(500, 3), enum_of(500, 3)), Provider::OpenAi).is_ok());
    assert_eq!(
        limit_of(export_schema(
            &two(enum_of(500, 3), enum_of(501, 3)),
            Provider::OpenAi
        )),
        Some(("enum values in all", 1000, 1001))
    );
    // One string enum of more than 250 values: at most 15,000 characters.
    assert!(
        export_schema(
            &two(enum_of(300, 50), json!({"type": "boolean"})),
            Provider::OpenAi
        )
        .is_ok()
    );
    assert_eq!(
        limit_of(export_schema(
            &two(enum_of(301, 50), json!({"type": "boolean"})),
            Provider::OpenAi
        )),
        Some((
            "characters in one string enum of more than 250 values",
            15_000,
            15_050
        ))
    );
    // Names, enum values and consts: 120,000 characters in all.
    let long = |i: usize| {
        (
            format!("{i}{}", "x".repeat(1000 - i.to_string().len())),
            json!({"type": "boolean"}),
        )
    };
    assert!(export_schema(&object_with((0..120).map(long).collect()), Provider::OpenAi).is_ok());
    let mut over: Map<String, Value> = (0..120).map(long).collect();
    over.insert("z".into(), json!({"type": "string", "const": "!"}));
    assert_eq!(
        limit_of(export_schema(&object_with(over), Provider::OpenAi)),
        Some((
            "characters of property names, definition names, enum values and consts",
            120_000,
            120_002
        ))
    );
}

// ------------------------------------------------------------------ integer ranges

#[test]
fn every_integer_type_states_its_range() {
    let schema = Everything::json_schema();
    let p = &schema["properties"];
    let range = |field: &str| (p[field]["minimum"].clone(), p[field]["maximum"].clone());
    assert_eq!(range("a_u8"), (json!(0), json!(255)));
    assert_eq!(range("a_i32"), (json!(i32::MIN), json!(i32::MAX)));
    for field in ["a_u64", "a_usize"] {
        assert_eq!(range(field), (json!(0), json!(u64::MAX)), "{field}");
        assert!(p[field]["maximum"].is_u64());
    }
    for field in ["a_i64", "a_isize"] {
        assert_eq!(range(field), (json!(i64::MIN), json!(i64::MAX)), "{field}");
        assert!(p[field]["minimum"].is_i64());
    }
    // Exact integers in the text, not floats.
    let text = schema.to_string();
    assert!(text.contains(r#""maximum":18446744073709551615"#));
    assert!(text.contains(r#""minimum":-9223372036854775808,"maximum":9223372036854775807"#));
    // A field's own bound replaces the type's: the tighter one wins.
    let ticket = &CloseTicket::json_schema()["properties"]["ticket_id"];
    assert_eq!(
        (ticket["minimum"].clone(), ticket["maximum"].clone()),
        (json!(1), json!(u64::MAX))
    );
}

#[test]
fn a_bound_beyond_2_pow_53_is_dropped_and_reported_by_every_provider() {
    for provider in Provider::ALL {
        let e = export::<CloseTicket>(provider).unwrap();
        let ticket = &e.schema["properties"]["ticket_id"];
        assert!(ticket.get("maximum").is_none(), "{provider}");
        let dropped = e
            .dropped
            .iter()
            .find(|d| d.pointer == "/properties/ticket_id/maximum")
            .unwrap_or_else(|| panic!("{provider}: the u64 maximum is not reported"));
        assert!(dropped.enforced_by.contains("`out_of_range`"), "{provider}");
        // `minimum: 1` is exact as a double: kept where bounds are kept.
        assert_eq!(
            ticket.get("minimum").is_some(),
            provider != Provider::Anthropic
        );
    }
    // An i64 loses both bounds, a u64 its maximum; a u32 keeps its range.
    for provider in [Provider::OpenAi, Provider::Gemini] {
        let e = export::<Counters>(provider).unwrap();
        assert_eq!(
            dropped(&e),
            [
                ("/properties/signed/minimum", "minimum"),
                ("/properties/signed/maximum", "maximum"),
                ("/properties/unsigned/maximum", "maximum"),
            ],
            "{provider}"
        );
        let p = &e.schema["properties"];
        assert_eq!(p["signed"], json!({"type": "integer"}), "{provider}");
        assert_eq!(
            p["unsigned"],
            json!({"type": "integer", "minimum": 0}),
            "{provider}"
        );
        assert_eq!(
            p["small"],
            json!({"type": "integer", "minimum": 0, "maximum": u32::MAX}),
            "{provider}"
        );
    }
}

#[derive(Contract)]
struct Counters {
    signed: i64,
    unsigned: u64,
    small: u32,
}

// ------------------------------------------------------------------ Gemini

const GEMINI: &[&str] = &[
    "$id",
    "$defs",
    "$ref",
    "$anchor",
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "oneOf",
    "properties",
    "additionalProperties",
    "required",
    "propertyOrdering",
];

#[test]
fn gemini_keeps_only_its_keywords() {
    for e in [
        export::<Everything>(Provider::Gemini).unwrap(),
        export::<Kept>(Provider::Gemini).unwrap(),
        export::<VacationRequest>(Provider::Gemini).unwrap(),
        export::<TicketExtraction>(Provider::Gemini).unwrap(),
    ] {
        for kw in keywords(&e.schema) {
            assert!(GEMINI.contains(&kw.as_str()), "{kw}");
        }
        assert!(!keywords(&e.schema).contains(&"default".to_owned()));
    }
    let e = export::<Kept>(Provider::Gemini).unwrap();
    assert_eq!(
        dropped(&e),
        [
            ("/properties/short/maxLength", "maxLength"),
            // Kept, but read by Gemini its own way.
            ("/properties/day/format", "format"),
            ("/properties/day/pattern", "pattern"),
            ("/properties/agreed/const", "const"),
        ]
    );
    // Kept: minItems, maxItems, minimum, maximum, format.
    let p = &e.schema["properties"];
    assert_eq!(p["tags"]["minItems"], 2);
    assert_eq!(p["count"]["maximum"], 9);
    assert_eq!(p["day"]["format"], "date");
}

#[test]
fn gemini_const_is_a_one_value_enum_and_null_is_a_branch() {
    let e = export::<Kept>(Provider::Gemini).unwrap();
    let p = &e.schema["properties"];
    assert_eq!(p["version"], json!({"type": "string", "enum": ["v1"]}));
    assert_eq!(p["agreed"], json!({"type": "boolean"}));
    assert_eq!(
        p["maybe_letter"],
        json!({"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]})
    );
}

#[test]
fn gemini_orders_properties_in_field_order() {
    let e = export::<Everything>(Provider::Gemini).unwrap();
    let objs = objects(&e.schema);
    assert!(objs.len() >= 2);
    for obj in objs {
        let props: Vec<Value> = obj["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(|k| json!(k))
            .collect();
        assert_eq!(obj["propertyOrdering"], Value::Array(props));
    }
    // The `when` rules are lowered: each branch lists every field.
    assert_eq!(e.schema["anyOf"][0]["propertyOrdering"][0], "a_u8");
    assert_eq!(e.schema["anyOf"][0]["propertyOrdering"][35], "flags");
}

#[test]
fn gemini_references_have_no_siblings() {
    let e = export::<Settings>(Provider::Gemini).unwrap();
    assert_eq!(
        e.schema["properties"]["notifications"],
        json!({"$ref": "#/$defs/Notifications"})
    );
    assert_eq!(
        dropped(&e),
        [("/properties/notifications/description", "description")]
    );
    assert!(e.dropped[0].enforced_by.starts_with("nothing to enforce"));
    for export in [export::<Everything>(Provider::Gemini).unwrap(), e] {
        for node in nodes(&export.schema) {
            if node.get("$ref").is_some() {
                assert_eq!(node.as_object().unwrap().len(), 1, "{node}");
            }
        }
    }
}

#[test]
fn gemini_recursion_only_through_optional_properties() {
    assert_eq!(
        export::<Tree>(Provider::Gemini),
        Err(ExportError::Recursive {
            provider: Provider::Gemini,
            pointer: String::new()
        })
    );
    let loose = export::<LooseTree>(Provider::Gemini).unwrap();
    assert_eq!(loose.schema["required"], json!(["label"]));
}

// ------------------------------------------------------------------ Anthropic

#[test]
fn anthropic_drops_numeric_and_length_bounds() {
    let e = export::<Kept>(Provider::Anthropic).unwrap();
    assert_eq!(
        dropped(&e),
        [
            ("/properties/count/minimum", "minimum"),
            ("/properties/count/maximum", "maximum"),
            ("/properties/tags/minItems", "minItems"),
            ("/properties/tags/maxItems", "maxItems"),
            ("/properties/few/maxItems", "maxItems"),
            ("/properties/short/maxLength", "maxLength"),
            // Kept, but read by Anthropic its own way.
            ("/properties/day/format", "format"),
            ("/properties/day/pattern", "pattern"),
        ]
    );
    let p = &e.schema["properties"];
    // minItems 0 or 1 stays; enum with null, const and format stay.
    assert_eq!(p["few"]["minItems"], 1);
    assert_eq!(p["maybe_letter"]["enum"], json!(["a", "b", null]));
    assert_eq!(p["version"]["const"], "v1");
    assert_eq!(p["day"]["format"], "date");
    for obj in objects(&e.schema) {
        assert_eq!(obj["additionalProperties"], json!(false));
    }
}

#[test]
fn anthropic_drops_every_pattern_as_its_client_does() {
    // anthropic 2.14.0's `transform_schema` moves `pattern` into the
    // description: the API never sees it.
    let schema = json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "^[a-z]+$"}}, "required": ["s"], "additionalProperties": false});
    let e = export_schema(&schema, Provider::Anthropic).unwrap();
    assert_eq!(dropped(&e), [("/properties/s/pattern", "pattern")]);
    assert!(e.schema["properties"]["s"].get("pattern").is_none());
}

#[test]
fn local_patterns_without_backreferences_or_lookaround() {
    let schema = |pattern: &str| json!({"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}, "required": ["s"], "additionalProperties": false});
    let kept = export_schema(&schema(r"^[a-z]+(-[a-z]+)*$"), Provider::Local).unwrap();
    assert!(kept.dropped.is_empty());
    for bad in [r"^(a)\1$", r"^a(?=b)", r"^(?<!x)a", r"\bword\b"] {
        let e = export_schema(&schema(bad), Provider::Local).unwrap();
        assert_eq!(dropped(&e), [("/properties/s/pattern", "pattern")], "{bad}");
        assert!(e.schema["properties"]["s"].get("pattern").is_none());
    }
}

#[test]
fn anthropic_takes_no_recursion() {
    assert!(matches!(
        export::<Tree>(Provider::Anthropic),
        Err(ExportError::Recursive { .. })
    ));
    assert!(matches!(
        export::<LooseTree>(Provider::Anthropic),
        Err(ExportError::Recursive { .. })
    ));
}

#[test]
fn anthropic_budgets_for_optional_and_union_typed_properties() {
    let optional = |n: usize| {
        let props: Map<String, Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "boolean"})))
            .collect();
        json!({"type": "object", "properties": props, "additionalProperties": false})
    };
    assert!(export_schema(&optional(24), Provider::Anthropic).is_ok());
    assert_eq!(
        limit_of(export_schema(&optional(25), Provider::Anthropic)),
        Some(("optional properties", 24, 25))
    );
    let unions = |n: usize| {
        let props: Map<String, Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": ["string", "null"]})))
            .collect();
        object_with(props)
    };
    assert!(export_schema(&unions(16), Provider::Anthropic).is_ok());
    assert_eq!(
        limit_of(export_schema(&unions(17), Provider::Anthropic)),
        Some(("union-typed schemas (anyOf or a type array)", 16, 17))
    );
    // The seeds fit: vacation has three nullable fields, extraction four.
    assert!(export::<VacationRequest>(Provider::Anthropic).is_ok());
    assert!(export::<TicketExtraction>(Provider::Anthropic).is_ok());
}

// ------------------------------------------------------------------ all providers

/// A versioned contract.
#[derive(Contract, Debug)]
#[contract(version = 2)]
struct Versioned {
    a: bool,
}

#[test]
fn exports_leave_out_document_metadata() {
    assert_eq!(Versioned::json_schema()["x-contract-version"], 2);
    for provider in Provider::ALL {
        let e = export::<Versioned>(provider).unwrap();
        assert!(e.schema.get("$schema").is_none(), "{provider}");
        assert!(e.schema.get("x-contract-version").is_none(), "{provider}");
        assert!(
            !e.dropped
                .iter()
                .any(|d| d.keyword == "$schema" || d.keyword == "x-contract-version")
        );
    }
}

#[test]
fn recursive_root_error_names_the_root() {
    let e = export::<Tree>(Provider::Anthropic).unwrap_err();
    assert_eq!(
        e.to_string(),
        "anthropic does not take this recursive schema (the root contains itself)"
    );
}

#[test]
fn an_unsupported_root_error_names_the_root() {
    let e = ExportError::Unsupported {
        provider: Provider::Anthropic,
        pointer: String::new(),
        reason: "why",
    };
    assert_eq!(
        e.to_string(),
        "anthropic cannot take the schema at the root: why"
    );
}

#[test]
fn export_errors_read_well() {
    let e = ExportError::Recursive {
        provider: Provider::Gemini,
        pointer: "/$defs/Filter".to_owned(),
    };
    assert_eq!(
        e.to_string(),
        "gemini does not take this recursive schema (the definition at `/$defs/Filter` contains itself)"
    );
    let e = limit_of(export_schema(&nested(11), Provider::OpenAi));
    assert!(e.is_some());
    let e = ExportError::Limit {
        provider: Provider::OpenAi,
        limit: "enum values in all",
        max: 1000,
        found: 1001,
    };
    assert_eq!(
        e.to_string(),
        "openai takes at most 1000 enum values in all; this schema has 1001"
    );
}

#[test]
fn an_export_serializes_for_the_cli() {
    let e = export::<WithOptional>(Provider::OpenAi).unwrap();
    let v = serde_json::to_value(&e).unwrap();
    assert_eq!(v["provider"], "openai");
    assert_eq!(
        v["made_required"],
        json!(["/properties/note", "/properties/retries"])
    );
    assert!(v.get("dropped").is_none(), "an empty list is left out");
}

// ------------------------------------------------------------------ what the clients send

/// A vacation request inside a reply: its `when` rules sit in `$defs`.
#[derive(Contract, Debug)]
struct Reply {
    request: VacationRequest,
}

#[test]
fn anthropic_states_a_nullable_value_as_any_of_never_a_type_array() {
    // anthropic 2.14.0's transform_schema raises on `"type": [T, "null"]`.
    for export in [
        export::<VacationRequest>(Provider::Anthropic).unwrap(),
        export::<TicketExtraction>(Provider::Anthropic).unwrap(),
    ] {
        for node in nodes(&export.schema) {
            assert!(!node["type"].is_array(), "{node}");
        }
    }
    let e = export::<TicketExtraction>(Provider::Anthropic).unwrap();
    assert_eq!(
        e.schema["properties"]["deadline_context"]["anyOf"][1],
        json!({"type": "null"})
    );
}

#[test]
fn anthropic_leaves_type_out_beside_enum_and_const() {
    let e = export::<CloseTicket>(Provider::Anthropic).unwrap();
    assert!(e.schema["properties"]["action"].get("type").is_none());
    assert_eq!(e.schema["properties"]["action"]["const"], "close_ticket");
    let e = export::<Triage>(Provider::Anthropic).unwrap();
    assert!(e.schema["properties"]["categoria"].get("type").is_none());
    assert!(e.schema["properties"]["categoria"]["enum"].is_array());
}

#[test]
fn openai_lowers_when_rules_below_the_root() {
    let e = export::<Reply>(Provider::OpenAi).unwrap();
    assert_eq!(e.lowered, ["/$defs/VacationRequest/allOf"]);
    let def = &e.schema["$defs"]["VacationRequest"];
    let branches = def["anyOf"].as_array().unwrap();
    assert_eq!(branches.len(), 3);
    for branch in branches {
        // Strict mode: closed, every property required.
        assert_eq!(branch["additionalProperties"], false);
        let names: Vec<Value> = branch["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(|k| json!(k))
            .collect();
        assert_eq!(branch["required"], Value::Array(names));
    }
    assert!(e.dropped.iter().all(|d| d.keyword != "allOf"));
}

#[test]
fn rules_that_would_pass_a_limit_stay_local() {
    // Anthropic takes 16 union-typed schemas; each branch repeats the
    // nullable members, so 15 of them and a rule lower into 30.
    let mut props = Map::new();
    props.insert("s".into(), json!({"type": "string", "enum": ["a", "b"]}));
    for i in 0..15 {
        props.insert(format!("n{i}"), json!({"type": ["string", "null"]}));
    }
    let names: Vec<Value> = props.keys().map(|k| json!(k)).collect();
    let schema = json!({
        "type": "object", "properties": props, "required": names, "additionalProperties": false,
        "allOf": [{"if": {"properties": {"s": {"const": "a"}}}, "then": {"properties": {"n0": {"not": {"type": "null"}}}}}],
    });
    let e = export_schema(&schema, Provider::Anthropic).unwrap();
    assert!(e.lowered.is_empty());
    assert!(dropped(&e).contains(&("/allOf", "allOf")));
    assert!(
        e.schema["description"]
            .as_str()
            .unwrap()
            .contains("When s is a, n0 is required.")
    );
}

#[test]
fn a_lowered_root_states_its_object_type_for_every_provider() {
    for provider in Provider::ALL {
        let e = export::<VacationRequest>(provider).unwrap();
        assert_eq!(e.schema["type"], "object", "{provider}");
        if provider != Provider::OpenAi {
            assert_eq!(e.lowered, ["/allOf"], "{provider}");
            assert!(e.schema["anyOf"].is_array(), "{provider}");
        }
    }
}

// ------------------------------------------------------------------ formats as exact patterns

/// Each format the decoder checks, plain and nullable.
#[derive(Contract, Debug)]
struct Formats {
    starts_on: Date,
    ends_on: Option<Date>,
    at: DateTime,
    maybe_at: Option<DateTime>,
    #[contract(format = "email")]
    email: Option<String>,
    #[contract(format = "uuid")]
    id: String,
    #[contract(pattern = "^[A-Z]{2}-[0-9]{4}$")]
    parcel: String,
}

/// Whether `pattern` (read by `jsonschema`, ECMA-262) matches `text`.
fn pattern_matches(pattern: &Value, text: &str) -> bool {
    let schema = json!({"type": "string", "pattern": pattern});
    jsonschema::validator_for(&schema)
        .unwrap()
        .is_valid(&json!(text))
}

/// The schema a (possibly nullable) property goes out with, its null
/// branch left aside.
fn string_schema<'v>(export: &'v Export, name: &str) -> &'v Value {
    let p = &export.schema["properties"][name];
    match p["anyOf"].as_array() {
        Some(branches) => &branches[0],
        None => p,
    }
}

#[test]
fn local_exports_formats_as_exact_patterns_instead_of_format() {
    let e = export::<Formats>(Provider::Local).unwrap();
    for name in ["starts_on", "ends_on", "at", "maybe_at", "email", "id"] {
        let s = string_schema(&e, name);
        assert!(s.get("format").is_none(), "{name}: {s}");
        assert!(s["pattern"].is_string(), "{name}: {s}");
    }
    assert!(
        e.dropped
            .iter()
            .all(|d| d.keyword != "format" && d.keyword != "pattern")
    );
    assert_eq!(
        string_schema(&e, "parcel")["pattern"],
        "^[A-Z]{2}-[0-9]{4}$"
    );
}

#[test]
fn local_date_time_pattern_refuses_what_the_decoder_refuses() {
    let e = export::<Formats>(Provider::Local).unwrap();
    let at = &string_schema(&e, "at")["pattern"];
    assert!(pattern_matches(at, "2027-06-30T12:00:00.5+02:00"));
    for refused in [
        "2027-06-30T12:00:00",
        "2027-06-30T23:59:60Z",
        "2027-06-30T12:00:00.1234567890Z",
        "2027-02-30T12:00:00Z",
    ] {
        assert!(!pattern_matches(at, refused), "{refused}");
    }
}

#[test]
fn local_email_pattern_refuses_an_address_literal() {
    let e = export::<Formats>(Provider::Local).unwrap();
    let email = &string_schema(&e, "email")["pattern"];
    assert!(pattern_matches(email, "ana.lopez+tickets@example.com"));
    assert!(!pattern_matches(email, "ana@[127.0.0.1]"));
}

#[test]
fn local_date_pattern_checks_the_calendar() {
    let e = export::<Formats>(Provider::Local).unwrap();
    let day = &string_schema(&e, "starts_on")["pattern"];
    assert!(pattern_matches(day, "2024-02-29"));
    assert!(pattern_matches(day, "2000-02-29"));
    assert!(!pattern_matches(day, "1900-02-29"));
    assert!(!pattern_matches(day, "2027-04-31"));
}

#[test]
fn openai_sends_the_exact_pattern_beside_format() {
    let e = export::<Formats>(Provider::OpenAi).unwrap();
    let local = export::<Formats>(Provider::Local).unwrap();
    for name in ["starts_on", "ends_on", "at", "maybe_at", "email", "id"] {
        let s = string_schema(&e, name);
        assert!(s["format"].is_string(), "{name}: {s}");
        assert_eq!(
            s["pattern"],
            string_schema(&local, name)["pattern"],
            "{name}"
        );
    }
}

#[test]
fn local_keeps_a_contracts_own_pattern_and_reports_the_format_beside_it() {
    let schema = json!({"type": "object", "properties": {"s": {"type": "string", "format": "email", "pattern": "^a"}}, "required": ["s"], "additionalProperties": false});
    let e = export_schema(&schema, Provider::Local).unwrap();
    assert_eq!(dropped(&e), [("/properties/s/format", "format")]);
    let s = &e.schema["properties"]["s"];
    assert_eq!(s["pattern"], "^a");
    assert!(s.get("format").is_none());
    assert!(e.dropped[0].enforced_by.contains("invalid_email"));
}

/// The format fields of [`Formats`], with their decoder codes and rules.
const FORMAT_FIELDS: [(&str, &str, &str); 6] = [
    (
        "starts_on",
        "invalid_date",
        "a strict YYYY-MM-DD calendar date",
    ),
    (
        "ends_on",
        "invalid_date",
        "a strict YYYY-MM-DD calendar date",
    ),
    (
        "at",
        "invalid_date_time",
        "an RFC 3339 date-time with a mandatory offset, 1–9 fraction digits, no leap second",
    ),
    (
        "maybe_at",
        "invalid_date_time",
        "an RFC 3339 date-time with a mandatory offset, 1–9 fraction digits, no leap second",
    ),
    ("email", "invalid_email", "a WHATWG valid e-mail address"),
    (
        "id",
        "invalid_uuid",
        "a UUID of 8-4-4-4-12 hexadecimal digits",
    ),
];

#[test]
fn gemini_and_anthropic_report_the_exact_format_syntax_as_local() {
    for provider in [Provider::Gemini, Provider::Anthropic] {
        let e = export::<Formats>(provider).unwrap();
        for (name, code, rule) in FORMAT_FIELDS {
            let at = format!("/properties/{name}/format");
            let entries: Vec<_> = e.dropped.iter().filter(|d| d.pointer == at).collect();
            assert_eq!(entries.len(), 1, "{provider} {name}: {:?}", e.dropped);
            assert_eq!(entries[0].keyword, "format", "{provider} {name}");
            assert!(
                entries[0].enforced_by.contains(&format!("`{code}`"))
                    && entries[0].enforced_by.contains(rule),
                "{provider} {name}: {}",
                entries[0].enforced_by
            );
        }
    }
}

#[test]
fn gemini_and_anthropic_keep_the_format_they_read_beside_the_local_syntax() {
    let anthropic = export::<Formats>(Provider::Anthropic).unwrap();
    for (name, _, _) in FORMAT_FIELDS {
        assert!(
            string_schema(&anthropic, name)["format"].is_string(),
            "{name}"
        );
    }
    // Gemini documents `date-time` and `date` only.
    let gemini = export::<Formats>(Provider::Gemini).unwrap();
    for name in ["starts_on", "ends_on", "at", "maybe_at"] {
        assert!(string_schema(&gemini, name)["format"].is_string(), "{name}");
    }
    for name in ["email", "id"] {
        assert!(
            string_schema(&gemini, name).get("format").is_none(),
            "{name}"
        );
    }
}

#[test]
fn an_exact_format_syntax_left_local_is_said_in_the_fields_description() {
    for provider in [Provider::Gemini, Provider::Anthropic] {
        let e = export::<Formats>(provider).unwrap();
        for (name, _, rule) in FORMAT_FIELDS {
            // Beside the branches of a nullable field, where its notes are.
            let p = &e.schema["properties"][name];
            assert_eq!(
                p["description"],
                format!("Exact syntax: {rule}."),
                "{provider} {name}: {p}"
            );
            for branch in p["anyOf"].as_array().into_iter().flatten() {
                assert!(branch.get("description").is_none(), "{provider} {name}");
            }
        }
        assert!(
            e.schema["properties"]["parcel"]
                .get("description")
                .is_none()
        );
    }
}

#[test]
fn an_exact_format_syntax_left_local_follows_the_fields_own_description() {
    let schema = json!({"type": "object", "properties": {"d": {"type": ["string", "null"], "format": "date-time", "description": "When it happened."}}, "required": ["d"], "additionalProperties": false});
    for provider in [Provider::Gemini, Provider::Anthropic] {
        let e = export_schema(&schema, provider).unwrap();
        assert_eq!(
            e.schema["properties"]["d"]["description"],
            "When it happened.\n\nExact syntax: an RFC 3339 date-time with a mandatory offset, 1–9 fraction digits, no leap second.",
            "{provider}"
        );
    }
}

#[test]
fn targets_that_send_the_exact_pattern_state_no_format_syntax_in_words() {
    for provider in [Provider::OpenAi, Provider::Local] {
        let e = export::<Formats>(provider).unwrap();
        for (name, _, _) in FORMAT_FIELDS {
            assert!(
                e.schema["properties"][name].get("description").is_none(),
                "{provider} {name}"
            );
        }
    }
}

#[test]
fn openai_reports_the_format_syntax_as_local_beside_a_contracts_own_pattern() {
    let schema = json!({"type": "object", "properties": {"s": {"type": "string", "format": "uuid", "pattern": "^a"}}, "required": ["s"], "additionalProperties": false});
    let e = export_schema(&schema, Provider::OpenAi).unwrap();
    assert_eq!(dropped(&e), [("/properties/s/format", "format")]);
    assert!(e.dropped[0].enforced_by.contains("`invalid_uuid`"));
    let s = &e.schema["properties"]["s"];
    assert_eq!(s["format"], "uuid");
    assert_eq!(s["pattern"], "^a");
    assert_eq!(
        s["description"],
        "Exact syntax: a UUID of 8-4-4-4-12 hexadecimal digits."
    );
}

#[test]
fn local_says_the_format_syntax_in_words_beside_a_contracts_own_pattern() {
    let schema = json!({"type": "object", "properties": {"s": {"type": "string", "format": "email", "pattern": "^a"}}, "required": ["s"], "additionalProperties": false});
    let e = export_schema(&schema, Provider::Local).unwrap();
    assert_eq!(
        e.schema["properties"]["s"]["description"],
        "Exact syntax: a WHATWG valid e-mail address."
    );
}
