//! Tools bound to the trusted context: `one_of = ctx.FIELD` on a tool's
//! arguments, checked in the business stage (`check_call_with`) and bound
//! in `tool_definitions_with` for each provider, within the providers'
//! enum limits, an empty set an error naming the tool.
use contract_runtime::schema::{ExportError, Provider};
use contract_runtime::tools::Tools;
use contract_runtime::{Contract, Violation};
use serde_json::{Value, json};

pub struct Desk {
    pub closable: Vec<u64>,
    pub agents: Vec<String>,
    pub labels: Vec<&'static str>,
    pub queues: Vec<String>,
}

fn desk() -> Desk {
    Desk {
        closable: vec![7, 8, 7],
        agents: vec!["ana".into(), "bo".into()],
        labels: vec!["billing", "bug"],
        queues: vec!["eu".into(), "us".into()],
    }
}

fn on_hold(call: &DeskTool, _: &Desk) -> Result<(), Violation> {
    match call {
        DeskTool::Close { ticket_id: 9, .. } => Err(Violation::business(
            "/arguments/ticket_id",
            "ticket_on_hold",
            "ticket 9 is on hold",
        )),
        _ => Ok(()),
    }
}

/// Moving a ticket to a queue: a newtype tool over a struct of the desk's context.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk)]
pub struct Move {
    #[contract(one_of = ctx.queues)]
    pub queue: String,
}

/// A note: a newtype tool over a struct without a context.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Note {
    #[contract(min_len = 1)]
    pub text: String,
}

/// A desk's tools, arguments bound to the context.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tools, rename_all = "snake_case", context = Desk, check = on_hold)]
pub enum DeskTool {
    /// Close a ticket the desk may close.
    Close {
        #[contract(min = 1, one_of = ctx.closable)]
        ticket_id: u64,
        #[contract(one_of = ctx.agents)]
        by: Option<String>,
    },
    /// Label a ticket.
    Label {
        #[contract(one_of = ctx.labels, max_len = 3)]
        labels: Vec<String>,
    },
    /// Move a ticket.
    Move(Move),
    /// Add a note.
    Note(Note),
    /// Nothing to do.
    Wait,
}

/// Each tool's arguments schema in a `tools` array for `provider`, by name.
fn parameters(provider: Provider, tools: &Value) -> Vec<(String, Value)> {
    let entries = match provider {
        Provider::Gemini => tools[0]["functionDeclarations"].clone(),
        _ => tools.clone(),
    };
    entries
        .as_array()
        .unwrap()
        .iter()
        .map(|t| match provider {
            Provider::OpenAi | Provider::Local => (
                t["function"]["name"].as_str().unwrap().to_owned(),
                t["function"]["parameters"].clone(),
            ),
            Provider::Anthropic => (
                t["name"].as_str().unwrap().to_owned(),
                t["input_schema"].clone(),
            ),
            Provider::Gemini => (
                t["name"].as_str().unwrap().to_owned(),
                t["parametersJsonSchema"].clone(),
            ),
            other => panic!("no definitions known for {other}"),
        })
        .collect()
}

fn of(params: &[(String, Value)], tool: &str) -> Value {
    params.iter().find(|(n, _)| n == tool).unwrap().1.clone()
}

#[test]
fn a_bound_argument_is_checked_in_the_business_stage() {
    let desk = desk();
    assert!(DeskTool::check_call_with("close", r#"{"ticket_id":7,"by":null}"#, &desk).is_accept());
    let other = DeskTool::check_call_with("close", r#"{"ticket_id":10,"by":"cy"}"#, &desk);
    let r = other.rejection().unwrap();
    let found: Vec<(&str, &str)> = r
        .errors
        .iter()
        .map(|e| (e.pointer.as_str(), e.code))
        .collect();
    assert_eq!(
        found,
        [
            ("/arguments/ticket_id", "not_in_context"),
            ("/arguments/by", "not_in_context")
        ]
    );
    let labels = DeskTool::check_call_with("label", r#"{"labels":["bug","ux"]}"#, &desk);
    assert_eq!(
        labels.rejection().unwrap().pointers(),
        ["/arguments/labels/1"]
    );
    // A newtype over a struct of the desk's context checks its own members.
    let moved = DeskTool::check_call_with("move", r#"{"queue":"apac"}"#, &desk);
    assert_eq!(moved.rejection().unwrap().pointers(), ["/arguments/queue"]);
    // The `check` function's reason at the pointer stands for `not_in_context`.
    let held = DeskTool::check_call_with("close", r#"{"ticket_id":9,"by":"bo"}"#, &desk);
    let r = held.rejection().unwrap();
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].code, "ticket_on_hold");
    // Without a context, no business stage.
    assert!(DeskTool::check_call("close", r#"{"ticket_id":10,"by":"cy"}"#).is_accept());
}

#[test]
fn every_provider_s_definitions_carry_the_bound_values() {
    let desk = desk();
    for provider in Provider::ALL {
        let tools = DeskTool::tool_definitions_with(provider, &desk).unwrap();
        let params = parameters(provider, &tools);
        let close = of(&params, "close");
        assert_eq!(
            close["properties"]["ticket_id"]["enum"],
            json!([7, 8]),
            "{provider}"
        );
        // The member's other keywords stay beside the enum.
        if matches!(provider, Provider::OpenAi | Provider::Local) {
            assert_eq!(
                close["properties"]["ticket_id"]["minimum"],
                json!(1),
                "{provider}"
            );
        }
        let by = close["properties"]["by"].to_string();
        assert!(by.contains(r#"["ana","bo""#), "{provider}: {by}");
        let labels = &of(&params, "label")["properties"]["labels"]["items"]["enum"];
        assert_eq!(*labels, json!(["billing", "bug"]), "{provider}");
        let queue = &of(&params, "move")["properties"]["queue"]["enum"];
        assert_eq!(*queue, json!(["eu", "us"]), "{provider}");
        // Nothing else of the context leaves the process, nor an enum elsewhere.
        assert!(
            !of(&params, "note").to_string().contains("enum"),
            "{provider}"
        );
        // The unbound definitions are unchanged, and bind nothing.
        let unbound = DeskTool::tool_definitions(provider).unwrap();
        assert!(!unbound.to_string().contains("\"enum\""), "{provider}");
    }
}

fn many(n: u64) -> Desk {
    Desk {
        closable: (1..=n).collect(),
        ..desk()
    }
}

#[test]
fn past_the_provider_s_enum_limits_a_binding_stays_local_and_says_so() {
    let openai = DeskTool::tool_definitions_with(Provider::OpenAi, &many(1_001)).unwrap();
    let ticket_id = &of(&parameters(Provider::OpenAi, &openai), "close")["properties"]["ticket_id"];
    assert!(ticket_id.get("enum").is_none(), "{ticket_id}");
    let words = ticket_id["description"].as_str().unwrap();
    assert!(words.contains("checked when the call arrives"), "{words}");
    // The other bindings of the request are still sent.
    let by = &of(&parameters(Provider::OpenAi, &openai), "close")["properties"]["by"];
    assert!(by.to_string().contains("ana"), "{by}");
    // Within the limit (the request's other 6 bound values included:
    // 1,000 enum values in all), and for a local engine (no limit), it is
    // bound.
    let within = DeskTool::tool_definitions_with(Provider::OpenAi, &many(994)).unwrap();
    let params = parameters(Provider::OpenAi, &within);
    assert_eq!(
        of(&params, "close")["properties"]["ticket_id"]["enum"]
            .as_array()
            .map(Vec::len),
        Some(994)
    );
    let past = DeskTool::tool_definitions_with(Provider::OpenAi, &many(995)).unwrap();
    let params = parameters(Provider::OpenAi, &past);
    assert!(
        of(&params, "close")["properties"]["ticket_id"]
            .get("enum")
            .is_none()
    );
    let local = DeskTool::tool_definitions_with(Provider::Local, &many(1_001)).unwrap();
    let params = parameters(Provider::Local, &local);
    assert_eq!(
        of(&params, "close")["properties"]["ticket_id"]["enum"]
            .as_array()
            .map(Vec::len),
        Some(1_001)
    );
}

pub struct Pair {
    pub left: Vec<u64>,
    pub right: Vec<u64>,
}

/// Two tools bound to two fields of one context.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tools, rename_all = "snake_case", context = Pair)]
pub enum PairTool {
    Left {
        #[contract(one_of = ctx.left)]
        id: u64,
    },
    Right {
        #[contract(one_of = ctx.right)]
        id: u64,
    },
}

// Each binding keeps within OpenAI's 1,000 values; together they pass
// the 1,000 enum values in all of one request: the larger stays local.
#[test]
fn a_request_level_cap_across_tools_leaves_the_largest_binding_local() {
    let pair = Pair {
        left: (0..600).collect(),
        right: (0..500).collect(),
    };
    let tools = PairTool::tool_definitions_with(Provider::OpenAi, &pair).unwrap();
    let params = parameters(Provider::OpenAi, &tools);
    let left = &of(&params, "left")["properties"]["id"];
    let right = &of(&params, "right")["properties"]["id"];
    assert!(left.get("enum").is_none(), "{left}");
    assert!(
        left["description"]
            .as_str()
            .unwrap()
            .contains("checked when the call arrives")
    );
    assert_eq!(right["enum"].as_array().map(Vec::len), Some(500));
    // Gemini has no cap across tools: both are bound.
    let gemini = PairTool::tool_definitions_with(Provider::Gemini, &pair).unwrap();
    let params = parameters(Provider::Gemini, &gemini);
    assert!(
        of(&params, "left")["properties"]["id"]
            .get("enum")
            .is_some()
    );
    assert!(
        of(&params, "right")["properties"]["id"]
            .get("enum")
            .is_some()
    );
}

#[test]
fn an_empty_set_is_an_error_naming_the_tool() {
    let mut desk = desk();
    desk.closable.clear();
    for provider in Provider::ALL {
        assert_eq!(
            DeskTool::tool_definitions_with(provider, &desk).unwrap_err(),
            ExportError::Tool {
                name: "close",
                source: Box::new(ExportError::EmptyBinding {
                    pointer: "/properties/ticket_id".into()
                }),
            },
            "{provider}"
        );
    }
    // An `Option` argument is bound to `null` alone.
    let mut desk = self::desk();
    desk.agents.clear();
    let tools = DeskTool::tool_definitions_with(Provider::Anthropic, &desk).unwrap();
    let by = &of(&parameters(Provider::Anthropic, &tools), "close")["properties"]["by"];
    assert_eq!(by["type"], json!("null"), "{by}");
    let mut desk = self::desk();
    desk.queues.clear();
    let error = DeskTool::tool_definitions_with(Provider::Local, &desk).unwrap_err();
    assert!(
        matches!(error, ExportError::Tool { name: "move", .. }),
        "{error}"
    );
}

/// A batch of moves: a tool's arguments holding a bound contract.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tools, rename_all = "snake_case", context = Desk)]
pub enum ShelfTool {
    /// Move several tickets.
    MoveAll { moves: Vec<Move>, first: Move },
    /// One move.
    MoveOne(Move),
}

// A contract held in a tool's arguments is bound in the arguments' own
// `$defs` entry, and checked at each value's pointer.
#[test]
fn a_contract_held_in_a_tools_arguments_is_bound_in_its_definition() {
    let defs = ShelfTool::tool_definitions_with(Provider::OpenAi, &desk()).unwrap();
    let all = &defs[0]["function"]["parameters"];
    assert_eq!(defs[0]["function"]["name"], "move_all");
    assert_eq!(
        all["$defs"]["Move"]["properties"]["queue"]["enum"],
        json!(["eu", "us"])
    );
    assert_eq!(all["properties"]["moves"]["items"]["$ref"], "#/$defs/Move");
    let one = &defs[1]["function"]["parameters"];
    assert_eq!(one["properties"]["queue"]["enum"], json!(["eu", "us"]));
    let bad = ShelfTool::check_call_with(
        "move_all",
        r#"{"moves":[{"queue":"eu"},{"queue":"xx"}],"first":{"queue":"us"}}"#,
        &desk(),
    );
    let errors: Vec<(String, &str)> = bad
        .rejection()
        .unwrap()
        .errors
        .iter()
        .map(|e| (e.pointer.to_string(), e.code))
        .collect();
    assert_eq!(
        errors,
        [("/arguments/moves/1/queue".to_owned(), "not_in_context")]
    );
}
