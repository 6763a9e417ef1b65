//! What the decode benchmark (`decode.rs`) and its profiling driver
//! (`decode_profile.rs`) share: the documents, the larger contract
//! ([`Invoice`]), baseline A's serde structs, baseline B, and the list of
//! contracts ([`Case`]).
// Each bench target uses a different part of this module.
#![allow(dead_code)]

use std::collections::BTreeMap;

use contract_examples::close_ticket::CloseTicket;
use contract_examples::settings::Settings;
use contract_examples::ticket_extraction::TicketExtraction;
use contract_examples::triage::Triage;
use contract_examples::vacation::VacationRequest;
use contract_runtime::{Contract, Date};
use jsonschema::Validator;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The shared documents (see `benches/make_documents.py`).
pub mod step;

pub const DOCUMENTS: &str = include_str!("../../../benches/documents.json");

// ---------------------------------------------------------------------------
// The larger contract: an invoice extracted from a purchase e-mail.

/// An invoice extracted from a purchase e-mail.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    max_bytes = 65536,
    when(status = InvoiceStatus::Paid, require(paid_on)),
    when(status in [InvoiceStatus::Draft, InvoiceStatus::Issued], forbid(paid_on)),
    order(issued_on <= due_on),
)]
pub struct Invoice {
    /// The invoice number as printed.
    #[contract(min_len = 1, max_len = 32)]
    number: String,
    /// Where the invoice is in its life.
    status: InvoiceStatus,
    /// The currency of every amount.
    currency: Currency,
    /// The day the invoice was issued.
    issued_on: Date,
    /// The day payment is due.
    due_on: Date,
    /// The day it was paid, only when it was.
    paid_on: Option<Date>,
    /// Who is billed.
    customer: Customer,
    /// The invoice lines, 1 to 100.
    #[contract(min_len = 1, max_len = 100)]
    lines: Vec<Line>,
    /// Free-text notes.
    #[contract(max_len = 1000)]
    notes: Option<String>,
}

/// Where an invoice is in its life.
#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "lowercase")]
pub enum InvoiceStatus {
    /// Not sent yet.
    Draft,
    /// Sent, not paid.
    Issued,
    /// Paid.
    Paid,
    /// Cancelled.
    Void,
}

/// An ISO 4217 currency, lower-case.
#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "lowercase")]
pub enum Currency {
    /// Euro.
    Eur,
    /// US dollar.
    Usd,
    /// Brazilian real.
    Brl,
}

/// Who is billed.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Customer {
    /// The customer's legal name.
    #[contract(min_len = 1, max_len = 120)]
    name: String,
    /// Where invoices are sent.
    #[contract(min_len = 3, max_len = 254)]
    email: String,
    /// Whether the customer has priority support.
    vip: bool,
    /// The billing address.
    address: Address,
}

/// A postal address.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Address {
    /// Street and number.
    #[contract(min_len = 1, max_len = 200)]
    street: String,
    /// City.
    #[contract(min_len = 1, max_len = 100)]
    city: String,
    /// Postal code.
    #[contract(min_len = 1, max_len = 16)]
    postal_code: String,
    /// ISO 3166-1 alpha-2 country code.
    #[contract(min_len = 2, max_len = 2)]
    country: String,
}

/// One line of an invoice.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Line {
    /// The stock-keeping unit.
    #[contract(min_len = 1, max_len = 16)]
    sku: String,
    /// How many units.
    #[contract(min = 1, max = 10000)]
    qty: u32,
    /// The unit price in cents.
    cents: u64,
    /// The tax rate, from 0 to 1.
    #[contract(min = 0.0, max = 1.0)]
    tax: f64,
    /// What the line is.
    kind: LineKind,
    /// The day the goods ship, if they do.
    ship: Option<Date>,
}

/// What an invoice line is.
#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "lowercase")]
pub enum LineKind {
    /// Physical goods.
    Goods,
    /// A service.
    Service,
    /// Shipping costs.
    Shipping,
    /// A discount.
    Discount,
}

// ---------------------------------------------------------------------------
// Baseline A: the equivalent serde structs (dates as `String`).

pub mod serde_a {
    #![allow(dead_code)]
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct CloseTicket {
        pub action: String,
        pub ticket_id: u64,
        pub reason: String,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Settings {
        pub notifications: Notifications,
        pub retry_limit: u32,
        pub channels: Vec<String>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Notifications {
        pub email: bool,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Triage {
        pub categoria: Categoria,
        pub prioridade: Prioridade,
        pub confianca: f64,
        pub motivo: String,
    }

    #[derive(Deserialize, Debug)]
    #[serde(rename_all = "lowercase")]
    pub enum Categoria {
        Cobranca,
        Bug,
        Duvida,
        Reclamacao,
        Outro,
    }

    #[derive(Deserialize, Debug)]
    #[serde(rename_all = "lowercase")]
    pub enum Prioridade {
        Baixa,
        Normal,
        Alta,
        Critica,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct TicketExtraction {
        pub issue_summary: String,
        pub deadline_iso: Option<String>,
        pub deadline_context: Option<String>,
        pub affected_cluster: Option<String>,
        pub raw_quote: Option<String>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Vacation {
        pub status: VacationStatus,
        pub start_date: Option<String>,
        pub end_date: Option<String>,
        pub clarification_question: Option<String>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(rename_all = "snake_case")]
    pub enum VacationStatus {
        Complete,
        NeedsClarification,
        NotARequest,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Invoice {
        pub number: String,
        pub status: InvoiceStatus,
        pub currency: Currency,
        pub issued_on: String,
        pub due_on: String,
        pub paid_on: Option<String>,
        pub customer: Customer,
        pub lines: Vec<Line>,
        pub notes: Option<String>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(rename_all = "lowercase")]
    pub enum InvoiceStatus {
        Draft,
        Issued,
        Paid,
        Void,
    }

    #[derive(Deserialize, Debug)]
    #[serde(rename_all = "lowercase")]
    pub enum Currency {
        Eur,
        Usd,
        Brl,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Customer {
        pub name: String,
        pub email: String,
        pub vip: bool,
        pub address: Address,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Address {
        pub street: String,
        pub city: String,
        pub postal_code: String,
        pub country: String,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Line {
        pub sku: String,
        pub qty: u32,
        pub cents: u64,
        pub tax: f64,
        pub kind: LineKind,
        pub ship: Option<String>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(rename_all = "lowercase")]
    pub enum LineKind {
        Goods,
        Service,
        Shipping,
        Discount,
    }
}

// ---------------------------------------------------------------------------
// One contract as benchmarked: ours, its A struct, and B's hand rules.

/// A contract under benchmark.
pub trait Case {
    /// Its key in `documents.json` and the benchmark group prefix.
    const KEY: &'static str;
    /// Our contract type.
    type Ours: Contract;
    /// Baseline A's struct (also B's typed conversion).
    type A: DeserializeOwned;
    /// B's cross-field rules by hand, on a document that passed the schema
    /// (the schema's `allOf`/`if`/`then` already carries `when`; what it
    /// cannot say is `order`): the pointer of each violation.
    fn rules(_value: &Value, _errors: &mut Vec<BError>) {}
}

/// An error as baseline B reports it: where (the pointer) and which stage.
/// The message is not rendered (the cheapest B that still reports every
/// error with its pointer; ours builds pointers and fixed messages).
#[derive(Debug)]
#[allow(dead_code)]
pub enum BError {
    Parse(serde_json::Error),
    Schema(jsonschema::paths::Location),
    Rule(&'static str),
    Typed(serde_json::Error),
}

/// `order(a <= b)` by hand on two nullable date strings (`YYYY-MM-DD`
/// compares as text once the schema's pattern and format have passed).
fn order(value: &Value, a: &str, b: &str, pointer: &'static str, errors: &mut Vec<BError>) {
    if let (Some(a), Some(b)) = (value[a].as_str(), value[b].as_str())
        && a > b
    {
        errors.push(BError::Rule(pointer));
    }
}

pub struct CloseTicketCase;
impl Case for CloseTicketCase {
    const KEY: &'static str = "close_ticket";
    type Ours = CloseTicket;
    type A = serde_a::CloseTicket;
}

pub struct SettingsCase;
impl Case for SettingsCase {
    const KEY: &'static str = "settings";
    type Ours = Settings;
    type A = serde_a::Settings;
}

pub struct TriageCase;
impl Case for TriageCase {
    const KEY: &'static str = "triage";
    type Ours = Triage;
    type A = serde_a::Triage;
}

pub struct TicketExtractionCase;
impl Case for TicketExtractionCase {
    const KEY: &'static str = "ticket_extraction";
    type Ours = TicketExtraction;
    type A = serde_a::TicketExtraction;
}

pub struct VacationCase;
impl Case for VacationCase {
    const KEY: &'static str = "vacation";
    type Ours = VacationRequest;
    type A = serde_a::Vacation;
    fn rules(value: &Value, errors: &mut Vec<BError>) {
        order(value, "start_date", "end_date", "/end_date", errors);
    }
}

pub struct InvoiceCase;
impl Case for InvoiceCase {
    const KEY: &'static str = "invoice";
    type Ours = Invoice;
    type A = serde_a::Invoice;
    fn rules(value: &Value, errors: &mut Vec<BError>) {
        order(value, "issued_on", "due_on", "/due_on", errors);
    }
}

// ---------------------------------------------------------------------------
// Baseline B.

/// B on a document expected valid: `is_valid`, the rules, the typed value.
pub fn b_valid<C: Case>(validator: &Validator, doc: &str) -> Option<C::A> {
    let value: Value = serde_json::from_str(doc).ok()?;
    if !validator.is_valid(&value) {
        return None;
    }
    let mut errors = Vec::new();
    C::rules(&value, &mut errors);
    if !errors.is_empty() {
        return None;
    }
    serde_json::from_value(value).ok()
}

/// B on a document expected invalid: every schema error's pointer
/// (`iter_errors`), then, only if the schema passed, the rules and the typed
/// conversion (as ours runs rules only on a schema-valid document).
pub fn b_errors<C: Case>(validator: &Validator, doc: &str) -> Vec<BError> {
    let value: Value = match serde_json::from_str(doc) {
        Ok(value) => value,
        Err(e) => return vec![BError::Parse(e)],
    };
    let mut errors: Vec<BError> = validator
        .iter_errors(&value)
        .map(|e| BError::Schema(e.instance_path().clone()))
        .collect();
    if errors.is_empty() {
        C::rules(&value, &mut errors);
    }
    if errors.is_empty()
        && let Err(e) = serde_json::from_value::<C::A>(value)
    {
        errors.push(BError::Typed(e));
    }
    errors
}

// ---------------------------------------------------------------------------
// The documents and the benchmark groups.

#[derive(Deserialize)]
pub struct File {
    pub contracts: BTreeMap<String, Docs>,
}

#[derive(Deserialize)]
pub struct Docs {
    pub valid: Vec<String>,
    pub one_error: String,
    pub many_errors: String,
    pub errors: ErrorCounts,
}

#[derive(Deserialize)]
pub struct ErrorCounts {
    pub one_error: usize,
    pub many_errors: usize,
}

/// B's validator: `validator_for` on our schema, with `format` asserted so
/// that B checks calendar dates as ours does (draft 2020-12 treats `format`
/// as an annotation unless asked).
pub fn validator<T: Contract>() -> Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(&T::json_schema())
        .expect("our schema compiles")
}
