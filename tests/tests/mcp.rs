//! An MCP server built with rmcp (the official Rust MCP SDK) whose tools take
//! `Checked<..>` parameters: `tools/list` advertises the contract's schema and
//! a wrong argument is refused, with its pointer, before the tool runs. The
//! server and a client talk over an in-process pipe (`tokio::io::duplex`).
//!
//! rmcp's `Parameters<P>` needs `P: DeserializeOwned + JsonSchema`;
//! `Checked<T>` is both (feature `schemars`, the same schemars 1.x major as
//! rmcp's), so it goes in as is: no adapter.
//!
//! Run with `cargo test -p contract-tests --features mcp --test mcp`.
use std::sync::{Arc, Mutex};

use contract_runtime::{Checked, Contract};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, JsonObject};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde_json::{Value, json};

/// Close a resolved ticket.
#[derive(Contract, Debug)]
struct CloseTicket {
    #[contract(pattern = "^T-[0-9]{1,8}$")]
    ticket_id: String,
    #[contract(min_len = 1, max_len = 200)]
    reason: String,
}

/// The same arguments with serde's own `Deserialize` beside the contract: the
/// workaround that compiles and checks nothing.
#[derive(Contract, serde::Deserialize, Debug)]
struct CloseTicketLenient {
    #[contract(pattern = "^T-[0-9]{1,8}$")]
    ticket_id: String,
}

#[derive(Debug, Clone)]
struct Desk {
    // What the tools ran with, in order.
    ran: Arc<Mutex<Vec<String>>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Desk {
    fn new(ran: Arc<Mutex<Vec<String>>>) -> Self {
        Self {
            ran,
            tool_router: Self::tool_router(),
        }
    }

    /// Close a resolved ticket.
    #[tool]
    async fn close_ticket(&self, Parameters(args): Parameters<Checked<CloseTicket>>) -> String {
        let args = args.into_inner();
        self.ran
            .lock()
            .unwrap()
            .push(format!("close_ticket {}", args.ticket_id));
        format!("closed {}: {}", args.ticket_id, args.reason)
    }

    /// Close a resolved ticket (serde's reading: do not do this).
    #[tool]
    async fn close_ticket_lenient(
        &self,
        Parameters(args): Parameters<CloseTicketLenient>,
    ) -> String {
        self.ran
            .lock()
            .unwrap()
            .push(format!("close_ticket_lenient {}", args.ticket_id));
        format!("closed {}", args.ticket_id)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Desk {}

async fn connect(ran: Arc<Mutex<Vec<String>>>) -> RunningService<RoleClient, ()> {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let server = Desk::new(ran).serve(server_end).await.unwrap();
        let _ = server.waiting().await;
    });
    ().serve(client_end).await.unwrap()
}

fn object(value: Value) -> JsonObject {
    value.as_object().unwrap().clone()
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &'static str,
    arguments: Value,
) -> Result<Value, ServiceError> {
    let params = CallToolRequestParams::new(name).with_arguments(object(arguments));
    let result = client.call_tool(params).await?;
    Ok(serde_json::to_value(result).unwrap())
}

// What `tools/list` carries for a schema: rmcp drops the root's `title` and
// `description` (the tool has its own).
fn listed(schema: Value) -> Value {
    let mut schema = object(schema);
    schema.remove("title");
    schema.remove("description");
    Value::Object(schema)
}

#[tokio::test]
async fn tools_list_advertises_the_contracts_schema() {
    let client = connect(Arc::default()).await;
    let tools = client.list_all_tools().await.unwrap();
    let close = tools.iter().find(|t| t.name == "close_ticket").unwrap();
    assert_eq!(
        Value::Object(close.input_schema.as_ref().clone()),
        listed(<CloseTicket as Contract>::json_schema())
    );
    assert_eq!(
        close.description.as_deref(),
        Some("Close a resolved ticket.")
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_wrong_argument_is_refused_with_its_pointer_before_the_tool_runs() {
    let ran = Arc::new(Mutex::new(Vec::new()));
    let client = connect(ran.clone()).await;

    let wrong = json!({"ticket_id": "nope", "reason": "done", "extra": true});
    let result = call(&client, "close_ticket", wrong).await.unwrap();
    // rmcp answers a parameter its `Deserialize` refuses with a tool error
    // (`isError`, so the model can read it and retry) whose text is serde's
    // message: the rejection as JSON.
    assert_eq!(result["isError"], true);
    let text = result["content"][0]["text"].as_str().unwrap();
    let rejection: Value = serde_json::Deserializer::from_str(
        text.trim_start_matches("failed to deserialize parameters: "),
    )
    .into_iter()
    .next()
    .unwrap()
    .unwrap();
    let found: Vec<(String, String)> = rejection["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["pointer"].as_str().unwrap().to_owned(),
                e["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("/ticket_id".to_owned(), "pattern_mismatch".to_owned()),
            ("/extra".to_owned(), "unknown_key".to_owned()),
        ]
    );
    assert!(ran.lock().unwrap().is_empty(), "the tool ran");

    let right = json!({"ticket_id": "T-7", "reason": "done"});
    let result = call(&client, "close_ticket", right).await.unwrap();
    assert_eq!(result["content"][0]["text"], "closed T-7: done");
    assert_eq!(*ran.lock().unwrap(), ["close_ticket T-7"]);
    client.cancel().await.unwrap();
}

// The workaround the docs warn about: serde's derive beside the contract
// advertises the contract's schema and runs the tool on what it forbids.
#[tokio::test]
async fn a_co_derived_deserialize_runs_the_tool_on_what_the_schema_forbids() {
    let ran = Arc::new(Mutex::new(Vec::new()));
    let client = connect(ran.clone()).await;
    let tools = client.list_all_tools().await.unwrap();
    let lenient = tools
        .iter()
        .find(|t| t.name == "close_ticket_lenient")
        .unwrap();
    assert_eq!(
        Value::Object(lenient.input_schema.as_ref().clone()),
        listed(<CloseTicketLenient as Contract>::json_schema())
    );

    let wrong = json!({"ticket_id": "nope", "extra": true});
    assert!(CloseTicketLenient::from_json(&wrong.to_string()).is_err());
    let result = call(&client, "close_ticket_lenient", wrong).await.unwrap();
    assert_eq!(result["content"][0]["text"], "closed nope");
    assert_eq!(*ran.lock().unwrap(), ["close_ticket_lenient nope"]);
    client.cancel().await.unwrap();
}
