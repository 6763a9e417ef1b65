//! The five seed contracts (each from one of the articles the project grew
//! from, numbered 000–004 in the table; the articles are not in the
//! repository), a tagged union (`step`) and a
//! contract of patterns (`shipping-label`), declared with `#[derive(Contract)]`, and the `contract-check` command that runs any of
//! them over a file of model outputs.
//!
//! | module | CLI name | seed | what the model is asked for |
//! |---|---|---|---|
//! | [`close_ticket`] | `close-ticket` | 000 | close one resolved ticket (business stage against a trusted tenant) |
//! | [`settings`] | `settings` | 001 | the whole settings document, changing only what a policy allows |
//! | [`triage`] | `triage` | 002 | category, priority, confidence and reason of a support message |
//! | [`ticket_extraction`] | `ticket-extraction` | 003 | incident facts from an e-mail, with evidence and review |
//! | [`vacation`] | `vacation` | 004 | a vacation request: complete, needs clarification, or not a request |
//! | [`step`] | `step` | — | an agent's next step, a tagged union: close a ticket, refund, ask, or nothing |
//! | [`shipping_label`] | `shipping-label` | — | a shipping label read from a photo: codes fixed by `pattern`, on every item of a list too |
//! | [`support_tools`] | `support-tools` | — | the tools a support assistant may call, checked one call and one batch at a time (`--calls`) |
//!
//! [`registry`] makes them entries of `contract_runtime::cli` with its public
//! API, as a crate of yours would; [`cli`] is the command
//! (`contract-check`) over them, whose line format, blank-line and exit-code
//! decisions are documented in `contract_runtime::cli`. [`retry_demo`] takes the vacation contract
//! from decision to action: a bounded retry with redacted feedback around a
//! scripted model, then an idempotency key (`cargo run --example retry`).
//! [`close_ticket::MockExecutor`] refuses a second call with the same
//! idempotency key, and [`settings::SettingsStore`] refuses an approved edit
//! whose baseline is no longer the stored document.
//!
//! ```sh
//! cargo run -q -p contract-examples --bin contract-check -- vacation examples/data/vacation.jsonl
//! cargo run -q -p contract-examples --bin contract-check -- --schema close-ticket
//! cargo run -q -p contract-examples --bin contract-check -- support-tools examples/data/support-tools.jsonl --calls
//! cargo run -q -p contract-examples --bin contract-check -- --schema vacation --provider openai
//! cargo run -q -p contract-examples --bin contract-check -- --compat examples/data/vacation.v1.schema.json examples/data/vacation.v2.schema.json
//! cargo run -q -p contract-examples --example retry
//! ```
//!
//! Dependencies: `contract-runtime` (with its `cli` feature, which reads
//! the command line with clap), `serde` and `serde_json` only.
pub mod cli;
pub mod close_ticket;
pub mod registry;
pub mod retry_demo;
pub mod settings;
pub mod shipping_label;
pub mod step;
pub mod support_tools;
pub mod ticket_extraction;
pub mod triage;
pub mod vacation;
