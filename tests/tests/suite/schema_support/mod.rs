//! The contracts the schema tests share: the five seed contracts as
//! `contract-examples` ships them, and one contract with every field type.
//! Plus the snapshot helper: `UPDATE_SNAPSHOTS=1` rewrites the files.
// Each test file uses a different part of this module.
#![allow(dead_code, unused_imports)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use contract_runtime::stream::Progress;
use contract_runtime::{Contract, Date, DateTime, Outcome, OutcomeKind, Rejection, Violation};
use serde_json::Value;

// ---------------------------------------------------------------- the seed contracts

// The five seed contracts as shipped: the snapshots are what `contract-check
// --schema` prints and what users send to providers.
pub use contract_examples::close_ticket::CloseTicket;
pub use contract_examples::settings::{Notifications, Settings};
pub use contract_examples::ticket_extraction::TicketExtraction;
pub use contract_examples::triage::Triage;
pub use contract_examples::vacation::{Status, VacationRequest};

pub mod documents;
mod step;
pub use step::{Refund, Step};

mod generic_union;
pub use generic_union::{Replies, Reply};

mod recursive;
pub use recursive::{
    Cond, Filter, Listing, Node, Org, Page, PageTicket, Person, Team, Ticket, Tree,
};

// ---------------------------------------------------------------- every field type

/// How important something is.
#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
pub enum Level {
    /// Can wait.
    Low,
    /// Cannot wait.
    High,
}

/// A nested contract.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Inner {
    /// A name (at least one character).
    #[contract(min_len = 1)]
    pub name: String,
    /// A weight, when known; the key may be absent.
    #[contract(optional)]
    pub weight: Option<f64>,
}

/// Every field type the derive supports, with every attribute that shapes
/// the schema.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    version = 3,
    when(level = Level::High, require(note)),
    when(color in ["red", "blue"], forbid(maybe_text)),
    order(starts_on <= ends_on),
)]
pub struct Everything {
    /// An 8-bit unsigned integer.
    pub a_u8: u8,
    /// A 16-bit unsigned integer.
    pub a_u16: u16,
    /// A 32-bit unsigned integer.
    pub a_u32: u32,
    /// A 64-bit unsigned integer.
    pub a_u64: u64,
    /// A pointer-sized unsigned integer.
    pub a_usize: usize,
    /// An 8-bit signed integer.
    pub a_i8: i8,
    /// A 16-bit signed integer.
    pub a_i16: i16,
    /// A 32-bit signed integer.
    pub a_i32: i32,
    /// A 64-bit signed integer.
    pub a_i64: i64,
    /// A pointer-sized signed integer.
    pub a_isize: isize,
    /// A 32-bit float.
    pub a_f32: f32,
    /// A 64-bit float.
    pub a_f64: f64,
    /// A boolean.
    pub flag: bool,
    /// Any string.
    pub text: String,
    /// A date.
    pub starts_on: Date,
    /// A date, or null.
    pub ends_on: Option<Date>,
    /// A string, or null.
    pub maybe_text: Option<String>,
    /// A list of integers.
    pub numbers: Vec<i32>,
    /// Scores by name.
    pub scores: BTreeMap<String, f64>,
    /// A nested contract.
    pub inner: Inner,
    /// A nested contract, or null.
    pub maybe_inner: Option<Inner>,
    /// A list of nested contracts.
    pub inners: Vec<Inner>,
    /// A contract enum.
    pub level: Level,
    /// A contract enum, or null.
    pub maybe_level: Option<Level>,
    /// May be absent or null; required when `level` is `high`.
    #[contract(optional)]
    pub note: Option<String>,
    /// May be absent (then 0).
    #[contract(optional, default)]
    pub retries: u32,
    /// From 1 to 10.
    #[contract(min = 1, max = 10)]
    pub bounded: i32,
    /// From -1.5 to 2.5.
    #[contract(min = -1.5, max = 2.5)]
    pub ratio: f64,
    /// From 0 to 1, as an f32.
    #[contract(min = 0, max = 1)]
    pub narrow: f32,
    /// One to three tags.
    #[contract(min_len = 1, max_len = 3)]
    pub tags: Vec<String>,
    /// Two to eight characters, or null.
    #[contract(min_len = 2, max_len = 8)]
    pub code: Option<String>,
    /// A colour.
    #[contract(one_of = ["red", "green", "blue"])]
    pub color: String,
    /// A size.
    #[contract(one_of = [1, 2, 3])]
    pub size: u8,
    /// Always `v1`.
    #[contract(equals = "v1")]
    pub schema_tag: String,
    /// Always 7, or null.
    #[contract(equals = 7)]
    pub seven: Option<i64>,
    /// Booleans or nulls.
    pub flags: Vec<Option<bool>>,
    /// An instant with its offset.
    pub at: DateTime,
    /// An instant, or null.
    pub maybe_at: Option<DateTime>,
    /// A parcel code.
    #[contract(pattern = "^[A-Z]{2}-[0-9]{4}$")]
    pub parcel: String,
    /// An e-mail address, or null.
    #[contract(format = "email")]
    pub email: Option<String>,
    /// A UUID.
    #[contract(format = "uuid")]
    pub id: String,
}

// ---------------------------------------------------------------- the table

/// A contract under test: its CLI name, its schema, and the Rust decision.
pub struct Case {
    /// The name used for snapshot files (`close-ticket`).
    pub name: &'static str,
    /// `T::json_schema()`.
    pub schema: Value,
    /// `T::from_json(raw)` without the value.
    pub decide: fn(&str) -> Result<(), Rejection>,
    /// Whether it is one of the five seed contracts.
    pub seed: bool,
    /// The pieces pushed through `T::stream()`, and `T::check` on their
    /// concatenation.
    pub stream: fn(&[&str]) -> Streamed,
}

/// An outcome without its type: the decision, the errors, the review
/// reasons and the accepted value as JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    pub kind: OutcomeKind,
    pub rejection: Option<Rejection>,
    pub reasons: Vec<Violation>,
    pub value: Option<Value>,
}

impl Decided {
    pub fn of<T: Contract>(outcome: &Outcome<T>) -> Decided {
        Decided {
            kind: outcome.kind(),
            rejection: outcome.rejection().cloned(),
            reasons: outcome.reasons().to_vec(),
            value: outcome.value().map(Contract::to_json),
        }
    }
}

/// What a stream said about one document split into pieces.
#[derive(Debug, Clone)]
pub struct Streamed {
    /// The first push that returned `Rejected`: its index and rejection.
    pub rejected: Option<(usize, Rejection)>,
    /// `finish()`.
    pub finish: Decided,
    /// `T::check` on the concatenation.
    pub check: Decided,
    /// `partial()` after the last push, unless rejected.
    pub partial: Option<Value>,
}

/// Pushes `pieces` through `T::stream()`, after a rejection too.
pub fn stream<T: Contract>(pieces: &[&str]) -> Streamed {
    let mut stream = T::stream();
    let mut rejected = None;
    for (i, piece) in pieces.iter().enumerate() {
        match stream.push(piece) {
            Progress::Rejected(r) if rejected.is_none() => rejected = Some((i, r)),
            Progress::Rejected(_) => {}
            Progress::Pending => assert!(rejected.is_none(), "a push after a rejection is pending"),
            _ => {}
        }
    }
    let whole: String = pieces.concat();
    let partial = rejected.is_none().then(|| stream.partial());
    Streamed {
        rejected,
        finish: Decided::of(&stream.finish()),
        check: Decided::of(&T::check(&whole)),
        partial,
    }
}

fn decide<T: Contract>(raw: &str) -> Result<(), Rejection> {
    T::from_json(raw).map(|_| ())
}

fn case<T: Contract>(name: &'static str, seed: bool) -> Case {
    Case {
        name,
        schema: T::json_schema(),
        decide: decide::<T>,
        seed,
        stream: stream::<T>,
    }
}

/// Every contract the schema tests cover.
pub fn cases() -> Vec<Case> {
    vec![
        case::<CloseTicket>("close-ticket", true),
        case::<Settings>("settings", true),
        case::<Triage>("triage", true),
        case::<TicketExtraction>("ticket-extraction", true),
        case::<VacationRequest>("vacation", true),
        case::<Everything>("everything", false),
        case::<Step>("step", false),
        case::<Tree>("tree", false),
        case::<Node>("node", false),
        case::<Org>("org", false),
        case::<Filter>("filter", false),
        case::<Listing>("listing", false),
        case::<Replies>("replies", false),
    ]
}

// ---------------------------------------------------------------- snapshots

fn snapshot_path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("snapshots")
        .join(file)
}

/// Compares `value`, pretty-printed, with `tests/snapshots/<file>`; with
/// `UPDATE_SNAPSHOTS=1` writes it instead. Returns a mismatch message.
pub fn check_snapshot(file: &str, value: &Value) -> Option<String> {
    let path = snapshot_path(file);
    let text = serde_json::to_string_pretty(value).unwrap() + "\n";
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v != "0") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        return None;
    }
    match std::fs::read_to_string(&path) {
        Ok(expected) if expected == text => None,
        Ok(expected) => Some(format!(
            "snapshot {file} differs (review, then rerun with UPDATE_SNAPSHOTS=1):\n{}",
            line_diff(&expected, &text)
        )),
        Err(_) => Some(format!(
            "snapshot {file} is missing: run with UPDATE_SNAPSHOTS=1 and review it"
        )),
    }
}

/// The lines that differ, `-` expected, `+` actual (first 40).
fn line_diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<_>, Vec<_>) = (expected.lines().collect(), actual.lines().collect());
    let mut out = Vec::new();
    for i in 0..e.len().max(a.len()) {
        match (e.get(i), a.get(i)) {
            (Some(x), Some(y)) if x == y => {}
            (x, y) => {
                if let Some(x) = x {
                    out.push(format!("{:>4} - {x}", i + 1));
                }
                if let Some(y) = y {
                    out.push(format!("{:>4} + {y}", i + 1));
                }
            }
        }
        if out.len() >= 40 {
            out.push("...".into());
            break;
        }
    }
    out.join("\n")
}

/// Reads a snapshot file back (for the meta-schema test).
pub fn read_snapshot(file: &str) -> Option<Value> {
    let text = std::fs::read_to_string(snapshot_path(file)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Every file under `tests/snapshots` whose name ends with `suffix`.
pub fn snapshot_files(suffix: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(snapshot_path(""))
        .map(|dir| {
            dir.filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| n.ends_with(suffix))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}
