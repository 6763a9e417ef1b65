//! Tool calls: `#[contract(tools)]`, one call, a batch, definitions.
use contract_runtime::schema::Provider;
use contract_runtime::tools::{Call, Tools};
use contract_runtime::{Contract, OutcomeKind, Violation};
use serde_json::json;

#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(order(refund_cents <= order_total_cents))]
pub struct Refund {
    pub order_id: u64,
    pub refund_cents: u32,
    pub order_total_cents: u32,
}

/// What the support assistant may do.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tools, rename_all = "snake_case", max_calls = 4)]
pub enum SupportTool {
    /// Close a resolved ticket.
    CloseTicket {
        #[contract(min = 1)]
        ticket_id: u64,
        #[contract(min_len = 1, max_len = 200)]
        reason: String,
    },
    /// Refund part of an order (at most one refund per turn).
    #[contract(max_calls = 1)]
    Refund(Refund),
    /// Ask the customer a question first.
    #[contract(clarify)]
    AskCustomer {
        #[contract(min_len = 1, max_len = 300)]
        question: String,
    },
    /// List the customer's open tickets (no arguments).
    ListOpenTickets,
}

fn codes<T>(o: &contract_runtime::Outcome<T>) -> Vec<(String, &'static str)> {
    o.rejection()
        .map(|r| {
            r.errors
                .iter()
                .map(|e| (e.pointer.to_string(), e.code))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_json_form_is_mcps_call() {
    let v = SupportTool::from_json(
        r#"{"name":"close_ticket","arguments":{"ticket_id":7,"reason":"done"}}"#,
    )
    .unwrap();
    assert_eq!(
        v,
        SupportTool::CloseTicket {
            ticket_id: 7,
            reason: "done".into()
        }
    );
    assert_eq!(
        v.to_json(),
        json!({"name":"close_ticket","arguments":{"ticket_id":7,"reason":"done"}})
    );
    // arguments first, `_meta` ignored
    let v2 = SupportTool::from_json(
        r#"{"arguments":{"ticket_id":7,"reason":"done"},"_meta":{"x":1},"name":"close_ticket"}"#,
    )
    .unwrap();
    assert_eq!(v, v2);
    assert_eq!(
        SupportTool::from_json(r#"{"name":"list_open_tickets"}"#).unwrap(),
        SupportTool::ListOpenTickets
    );
    assert_eq!(
        SupportTool::from_json(r#"{"name":"list_open_tickets","arguments":{}}"#).unwrap(),
        SupportTool::ListOpenTickets
    );
    let r = SupportTool::from_json(r#"{"name":"close_ticket"}"#).unwrap_err();
    assert_eq!(r.pointers(), ["/arguments"]);
    assert_eq!(r.errors[0].code, "missing_key");
    let r = SupportTool::from_json(r#"{"name":"nope","arguments":{}}"#).unwrap_err();
    assert_eq!(
        (r.errors[0].pointer.as_str(), r.errors[0].code),
        ("/name", "unknown_tool")
    );
    assert!(
        r.errors[0].message.contains("\"close_ticket\""),
        "{}",
        r.errors[0].message
    );
    let r = SupportTool::from_json(r#"{"name":"list_open_tickets","extra":1}"#).unwrap_err();
    assert_eq!(
        (r.errors[0].pointer.as_str(), r.errors[0].code),
        ("/extra", "unknown_key")
    );
    let r = SupportTool::from_json(
        r#"{"name":"close_ticket","arguments":{"ticket_id":0,"reason":"","x":1}}"#,
    )
    .unwrap_err();
    assert_eq!(
        r.pointers(),
        ["/arguments/ticket_id", "/arguments/reason", "/arguments/x"]
    );
    // a newtype tool's struct rules
    let r = SupportTool::from_json(
        r#"{"name":"refund","arguments":{"order_id":1,"refund_cents":9,"order_total_cents":5}}"#,
    )
    .unwrap_err();
    assert_eq!(
        (r.errors[0].pointer.as_str(), r.errors[0].code),
        ("/arguments/order_total_cents", "order")
    );
    for v in [
        SupportTool::ListOpenTickets,
        SupportTool::AskCustomer {
            question: "which?".into(),
        },
        SupportTool::Refund(Refund {
            order_id: 1,
            refund_cents: 2,
            order_total_cents: 3,
        }),
    ] {
        assert_eq!(SupportTool::from_json(&v.to_json().to_string()).unwrap(), v);
    }
    assert_eq!(
        SupportTool::check(r#"{"name":"ask_customer","arguments":{"question":"?"}}"#).kind(),
        OutcomeKind::Clarify
    );
}

#[test]
fn check_call_reads_the_arguments_text_with_the_json_forms_pointers() {
    assert!(
        SupportTool::check_call("close_ticket", r#"{"ticket_id":7,"reason":"done"}"#).is_accept()
    );
    let o = SupportTool::check_call("close_ticket", r#"{"ticket_id":"7","reason":"done"}"#);
    assert_eq!(
        codes(&o),
        [("/arguments/ticket_id".to_owned(), "invalid_type")]
    );
    let o = SupportTool::check_call("delete", "{}");
    assert_eq!(codes(&o), [("/name".to_owned(), "unknown_tool")]);
    assert!(SupportTool::check_call("list_open_tickets", "").is_accept());
    assert!(SupportTool::check_call("list_open_tickets", " {} ").is_accept());
    let o = SupportTool::check_call("close_ticket", "");
    assert_eq!(codes(&o), [("".to_owned(), "unexpected_end")]);
    let o = SupportTool::check_call("close_ticket", r#"{"ticket_id":7,"ticket_id":8}"#);
    let e = &o.rejection().unwrap().errors[0];
    assert_eq!(
        (e.code, e.line, e.column),
        ("duplicate_key", Some(1), Some(16))
    );
    let o = SupportTool::check_call("close_ticket", "{\"ticket_id\":7,\n x");
    let e = &o.rejection().unwrap().errors[0];
    assert_eq!((e.code, e.line, e.column), ("syntax", Some(2), Some(2)));
    assert_eq!(
        SupportTool::check_call("ask_customer", r#"{"question":"which order?"}"#).kind(),
        OutcomeKind::Clarify
    );
    let o = SupportTool::check_call("close_ticket", "[]");
    assert_eq!(codes(&o), [("/arguments".to_owned(), "invalid_type")]);
}

#[test]
fn a_batch_is_all_or_nothing() {
    let ok = r#"{"ticket_id":7,"reason":"done"}"#;
    let calls = [
        Call {
            id: "a",
            name: "close_ticket",
            arguments: ok,
        },
        Call {
            id: "b",
            name: "list_open_tickets",
            arguments: "{}",
        },
    ];
    assert_eq!(SupportTool::check_calls(&calls).kind(), OutcomeKind::Accept);
    let calls = [
        Call {
            id: "a",
            name: "close_ticket",
            arguments: ok,
        },
        Call {
            id: "a",
            name: "close_ticket",
            arguments: r#"{"ticket_id":0,"reason":"x"}"#,
        },
        Call {
            id: "c",
            name: "nope",
            arguments: "{}",
        },
    ];
    let o = SupportTool::check_calls(&calls);
    assert_eq!(
        codes(&o),
        [
            ("/1/arguments/ticket_id".to_owned(), "below_minimum"),
            ("/1/id".to_owned(), "duplicate_call_id"),
            ("/2/name".to_owned(), "unknown_tool"),
        ]
    );
    let refund = r#"{"order_id":1,"refund_cents":1,"order_total_cents":5}"#;
    let calls: Vec<Call<'_>> = ["a", "b", "c", "d", "e"]
        .iter()
        .map(|id| Call {
            id,
            name: "refund",
            arguments: refund,
        })
        .collect();
    let o = SupportTool::check_calls(&calls);
    assert_eq!(
        codes(&o),
        [
            ("".to_owned(), "too_many_calls"),
            ("/1".to_owned(), "too_many_calls")
        ]
    );
    let calls = [
        Call {
            id: "a",
            name: "ask_customer",
            arguments: r#"{"question":"?"}"#,
        },
        Call {
            id: "b",
            name: "list_open_tickets",
            arguments: "{}",
        },
    ];
    assert_eq!(
        SupportTool::check_calls(&calls).kind(),
        OutcomeKind::Clarify
    );
    assert_eq!(SupportTool::check_calls(&[]).kind(), OutcomeKind::Accept);
}

#[test]
fn definitions_per_provider() {
    let openai = SupportTool::tool_definitions(Provider::OpenAi).unwrap();
    assert_eq!(openai.as_array().unwrap().len(), 4);
    assert_eq!(openai[0]["type"], "function");
    assert_eq!(openai[0]["function"]["name"], "close_ticket");
    assert_eq!(
        openai[0]["function"]["description"],
        "Close a resolved ticket."
    );
    assert_eq!(openai[0]["function"]["strict"], true);
    assert_eq!(openai[0]["function"]["parameters"]["type"], "object");
    assert_eq!(
        openai[0]["function"]["parameters"],
        Refund::json_schema_for(Provider::OpenAi)
            .map(|_| openai[0]["function"]["parameters"].clone())
            .unwrap()
    );
    assert_eq!(
        SupportTool::tool_definitions(Provider::Local).unwrap(),
        SupportTool::tool_definitions(Provider::Local).unwrap()
    );
    let anthropic = SupportTool::tool_definitions(Provider::Anthropic).unwrap();
    assert_eq!(anthropic[1]["name"], "refund");
    assert_eq!(anthropic[1]["strict"], true);
    assert!(anthropic[1]["input_schema"].is_object());
    let gemini = SupportTool::tool_definitions(Provider::Gemini).unwrap();
    let decls = gemini[0]["functionDeclarations"].as_array().unwrap();
    assert_eq!(decls[3]["name"], "list_open_tickets");
    assert!(decls[3]["parametersJsonSchema"].is_object());
    let mcp = SupportTool::mcp_tools();
    assert_eq!(mcp[0]["name"], "close_ticket");
    assert_eq!(
        mcp[0]["inputSchema"]["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let _ = Violation::review("", "x", "y");
}

/// A tool whose arguments one provider cannot take.
#[derive(Contract, Debug)]
#[contract(tools)]
pub enum Tagger {
    /// Tag a ticket.
    #[contract(rename = "tag")]
    Tag {
        tags: std::collections::BTreeMap<String, String>,
    },
}

#[test]
fn an_export_error_names_the_tool() {
    let e = Tagger::tool_definitions(Provider::Anthropic).unwrap_err();
    let contract_runtime::schema::ExportError::Tool { name, source } = &e else {
        panic!("{e:?}");
    };
    assert_eq!(*name, "tag");
    assert!(matches!(
        **source,
        contract_runtime::schema::ExportError::Unsupported { .. }
    ));
    assert!(e.to_string().starts_with("tool `tag`: "), "{e}");
}

#[test]
fn each_tools_parameters_are_its_arguments_export() {
    for provider in [
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::Local,
    ] {
        let tools = SupportTool::tool_definitions(provider).unwrap();
        let refund = match provider {
            Provider::OpenAi | Provider::Local => tools[1]["function"]["parameters"].clone(),
            Provider::Anthropic => tools[1]["input_schema"].clone(),
            _ => tools[0]["functionDeclarations"][1]["parametersJsonSchema"].clone(),
        };
        let mut expected = Refund::json_schema_for(provider).unwrap().schema;
        expected.as_object_mut().unwrap().remove("title");
        assert_eq!(refund, expected, "{provider:?}");
    }
    let mut full = Refund::json_schema();
    full.as_object_mut().unwrap().remove("title");
    assert_eq!(SupportTool::mcp_tools()[1]["inputSchema"], full);
}

macro_rules! many_tools {
    ($name:ident, $($v:ident),*) => {
        #[derive(Contract, Debug)]
        #[contract(tools)]
        pub enum $name { $($v { #[contract(optional)] a: Option<u8> },)* }
    };
}

many_tools!(
    TwentyOne, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, T17, T18,
    T19, T20, T21
);
many_tools!(
    Twenty, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, T17, T18, T19,
    T20
);

#[test]
fn anthropics_request_caps_are_checked_across_tools() {
    let e = TwentyOne::tool_definitions(Provider::Anthropic).unwrap_err();
    assert_eq!(
        e,
        contract_runtime::schema::ExportError::Limit {
            provider: Provider::Anthropic,
            limit: "strict tools in one request",
            max: 20,
            found: 21,
        }
    );
    // 20 tools, each with an optional union-typed parameter: 20 of 24
    // optional parameters, but 20 union-typed ones of 16.
    let e = Twenty::tool_definitions(Provider::Anthropic).unwrap_err();
    assert!(
        matches!(e, contract_runtime::schema::ExportError::Limit { limit, max: 16, found: 20, .. } if limit.contains("union")),
        "{e:?}"
    );
    assert!(Twenty::tool_definitions(Provider::OpenAi).is_ok());
    assert!(TwentyOne::tool_definitions(Provider::Gemini).is_ok());
}

/// A model's plan: calls held in a struct.
#[derive(Contract, Debug, PartialEq)]
pub struct Plan {
    pub calls: Vec<SupportTool>,
    pub next: Option<SupportTool>,
}

#[test]
fn a_tools_enum_is_a_field_type_like_any_contract() {
    let plan = Plan::from_json(r#"{"calls":[{"name":"list_open_tickets"}],"next":null}"#).unwrap();
    assert_eq!(plan.calls, [SupportTool::ListOpenTickets]);
    let r = Plan::from_json(r#"{"calls":[{"name":"close_ticket","arguments":{"ticket_id":0,"reason":"x"}},{"name":"x"}],"next":null}"#).unwrap_err();
    assert_eq!(
        r.pointers(),
        ["/calls/0/arguments/ticket_id", "/calls/1/name"]
    );
    let schema = Plan::json_schema();
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.is_valid(&json!({"calls":[{"name":"refund","arguments":{"order_id":1,"refund_cents":1,"order_total_cents":2}}],"next":null})));
    assert!(!validator.is_valid(&json!({"calls":[{"name":"refund","arguments":{}}],"next":null})));
    assert!(!validator.is_valid(&json!({"calls":[{"name":"nope"}],"next":null})));
}
