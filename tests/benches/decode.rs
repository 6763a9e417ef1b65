//! Decoding speed of a contract against the stacks a user would otherwise
//! assemble, measured side by side in one run:
//! - ours: `T::from_json` (parse + schema + rules, all errors collected);
//! - A: `serde_json::from_str::<T>` with `#[derive(Deserialize)]` and
//!   `deny_unknown_fields` (less strict: last duplicate wins, no bounds);
//! - B: `serde_json::from_str::<Value>` + a prebuilt `jsonschema` validator
//!   on our own full schema + the rules by hand + the typed conversion.
use std::hint::black_box;

use contract_runtime::{Contract, Date};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::Deserialize;

#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    max_bytes = 4096,
    outcome = status,
    when(status = Status::Complete, require(start_date, end_date), forbid(clarification_question)),
    when(status = Status::NeedsClarification, require(clarification_question)),
    when(status = Status::NotARequest, forbid(start_date, end_date)),
    order(start_date <= end_date),
)]
struct VacationRequest {
    status: Status,
    start_date: Option<Date>,
    end_date: Option<Date>,
    #[contract(min_len = 1, max_len = 500)]
    clarification_question: Option<String>,
}

#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
enum Status {
    Complete,
    #[contract(clarify)]
    NeedsClarification,
    #[contract(decline)]
    NotARequest,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct SerdeVacation {
    status: SerdeStatus,
    start_date: Option<String>,
    end_date: Option<String>,
    clarification_question: Option<String>,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum SerdeStatus {
    Complete,
    NeedsClarification,
    NotARequest,
}

const VALID: [&str; 3] = [
    r#"{"status":"complete","start_date":"2027-06-01","end_date":"2027-06-12","clarification_question":null}"#,
    r#"{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":"Which dates do you mean?"}"#,
    r#"{"status":"not_a_request","start_date":null,"end_date":null,"clarification_question":null}"#,
];

const ONE_ERROR: &str = r#"{"status":"complete","start_date":"2027-06-01","end_date":"2027-06-12","clarification_question":null,"x":1}"#;
const MANY_ERRORS: &str = r#"{"status":"done","start_date":"2027-02-30","end_date":7,"clarification_question":"","extra":[1,2]}"#;

fn bench_vacation(c: &mut Criterion) {
    let schema = VacationRequest::json_schema();
    let validator = jsonschema::validator_for(&schema).expect("our schema compiles");
    let bytes: usize = VALID.iter().map(|d| d.len()).sum();

    let mut g = c.benchmark_group("vacation/valid");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("ours", |b| {
        b.iter(|| {
            for doc in VALID {
                black_box(VacationRequest::from_json(black_box(doc)).is_ok());
            }
        })
    });
    g.bench_function("A serde derive", |b| {
        b.iter(|| {
            for doc in VALID {
                black_box(serde_json::from_str::<SerdeVacation>(black_box(doc)).is_ok());
            }
        })
    });
    g.bench_function("B value+jsonschema+rules", |b| {
        b.iter(|| {
            for doc in VALID {
                let value: serde_json::Value = serde_json::from_str(black_box(doc)).unwrap();
                let ok = validator.is_valid(&value) && rules_by_hand(&value);
                let typed = serde_json::from_value::<SerdeVacation>(value).is_ok();
                black_box(ok && typed);
            }
        })
    });
    g.finish();

    for (name, doc) in [("one error", ONE_ERROR), ("many errors", MANY_ERRORS)] {
        let mut g = c.benchmark_group(format!("vacation/{name}"));
        g.throughput(Throughput::Bytes(doc.len() as u64));
        g.bench_function("ours", |b| {
            b.iter(|| black_box(VacationRequest::from_json(black_box(doc)).is_err()))
        });
        g.bench_function("A serde derive", |b| {
            b.iter(|| black_box(serde_json::from_str::<SerdeVacation>(black_box(doc)).is_err()))
        });
        g.bench_function("B value+jsonschema+rules", |b| {
            b.iter(|| {
                let value: serde_json::Value = serde_json::from_str(black_box(doc)).unwrap();
                black_box(validator.iter_errors(&value).count())
            })
        });
        g.finish();
    }
}

// The cross-field rules, written by hand over a `Value`.
fn rules_by_hand(v: &serde_json::Value) -> bool {
    let status = v["status"].as_str().unwrap_or_default();
    let (start, end) = (v["start_date"].as_str(), v["end_date"].as_str());
    let question = v["clarification_question"].as_str();
    let by_status = match status {
        "complete" => start.is_some() && end.is_some() && question.is_none(),
        "needs_clarification" => question.is_some(),
        "not_a_request" => start.is_none() && end.is_none(),
        _ => false,
    };
    let ordered = match (start, end) {
        (Some(s), Some(e)) => s <= e,
        _ => true,
    };
    by_status && ordered
}

criterion_group!(benches, bench_vacation);
criterion_main!(benches);
