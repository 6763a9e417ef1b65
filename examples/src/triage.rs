//! Seed 002: triage classification of a support message (`triage`).
//!
//! Unlike the article's Python: no trimming or lower-casing (`"Bug"` is
//! rejected), no truncation (a 501-character `motivo` is rejected), extra
//! keys rejected, and a boolean is never a number.
//!
//! `categoria` and `prioridade` are contract enums (each variant renamed by
//! `rename_all = "lowercase"`) rather than `String`s with `one_of`: the
//! schema is the same `enum`, but the application gets a type it can
//! `match` exhaustively, so adding a category later is a compile error at
//! every place that routes on it instead of a silently unhandled string.
//!
//! ```
//! use contract_examples::triage::{Categoria, Triage};
//! use contract_runtime::Contract;
//!
//! let t = Triage::from_json(
//!     r#"{"categoria":"bug","prioridade":"alta","confianca":0.9,"motivo":"Erro 500 ao salvar"}"#,
//! )
//! .unwrap();
//! assert_eq!(t.categoria, Categoria::Bug);
//!
//! let r = Triage::from_json(
//!     r#"{"categoria":"Bug","prioridade":"alta","confianca":true,"motivo":""}"#,
//! )
//! .unwrap_err();
//! assert_eq!(r.pointers(), ["/categoria", "/confianca"]);
//! ```
use contract_runtime::Contract;

/// The category of a support message.
#[derive(Contract, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[contract(rename_all = "lowercase")]
pub enum Categoria {
    /// Billing and payments.
    Cobranca,
    /// Something does not work as it should.
    Bug,
    /// A question about how to do something.
    Duvida,
    /// A complaint.
    Reclamacao,
    /// Anything else.
    Outro,
}

/// How urgent the message is.
#[derive(Contract, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[contract(rename_all = "lowercase")]
pub enum Prioridade {
    /// Can wait.
    Baixa,
    /// The usual.
    Normal,
    /// Soon.
    Alta,
    /// Now.
    Critica,
}

/// The triage of one customer-support message: its category, its priority,
/// how confident the model is, and why.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Triage {
    /// The message's category, lower-case, exactly one of the listed values.
    pub categoria: Categoria,
    /// The message's priority, lower-case, exactly one of the listed values.
    pub prioridade: Prioridade,
    /// The model's confidence in this triage, a number from 0 to 1.
    #[contract(min = 0.0, max = 1.0)]
    pub confianca: f64,
    /// A short justification, at most 500 characters.
    #[contract(max_len = 500)]
    pub motivo: String,
}

/// The triage as a tool a model calls (`triage`, its arguments a
/// [`Triage`]): what `contract-check triage --sse` checks a tool-call
/// response's calls against.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tools, rename_all = "snake_case")]
pub enum TriageTool {
    /// Triage one customer-support message.
    Triage(Triage),
}
