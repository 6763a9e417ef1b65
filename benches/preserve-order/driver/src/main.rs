//! One operation, N times, over the valid documents of benches/documents.json:
//! `preserve-order-driver CONTRACT OP N DOCUMENTS_JSON` (run by ../run.sh under
//! callgrind, with and without serde_json's `preserve_order`).
use contract_examples::{
    close_ticket::CloseTicket, settings::Settings, ticket_extraction::TicketExtraction,
    triage::Triage, vacation::VacationRequest,
};
use contract_runtime::{Contract, Limits, fingerprint::Fingerprint, json};
use serde_json::Value;
use std::hint::black_box;

fn docs(all: &Value, name: &str) -> Vec<String> {
    all["contracts"][name]["valid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap().to_owned())
        .collect()
}

fn typed<T: Contract>(op: &str, docs: &[String], n: usize) {
    let values: Vec<T> = docs.iter().map(|d| T::from_json(d).unwrap()).collect();
    for _ in 0..n {
        match op {
            "decode" => {
                for d in docs {
                    black_box(T::from_json(black_box(d)).ok());
                }
            }
            "encode" => {
                for v in &values {
                    black_box(v.to_json());
                }
            }
            "encode_text" => {
                for v in &values {
                    black_box(serde_json::to_string(&v.to_json()).unwrap());
                }
            }
            "schema" => {
                black_box(T::json_schema());
            }
            _ => {}
        }
    }
}

fn untyped(op: &str, docs: &[String], n: usize) {
    let parsed: Vec<Value> = docs
        .iter()
        .map(|d| json::parse(d.as_bytes(), &Limits::DEFAULT).unwrap())
        .collect();
    for _ in 0..n {
        match op {
            "parse" => {
                for d in docs {
                    black_box(json::parse(black_box(d.as_bytes()), &Limits::DEFAULT).ok());
                }
            }
            "serde_value" => {
                for d in docs {
                    black_box(serde_json::from_str::<Value>(black_box(d)).ok());
                }
            }
            "value_text" => {
                for v in &parsed {
                    black_box(serde_json::to_string(v).unwrap());
                }
            }
            "fingerprint" => {
                for v in &parsed {
                    black_box(Fingerprint::of(v));
                }
            }
            "lookup" => {
                for v in &parsed {
                    if let Value::Object(m) = v {
                        for k in m.keys() {
                            black_box(m.get(k));
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (contract, op, n) = (a[1].as_str(), a[2].as_str(), a[3].parse::<usize>().unwrap());
    let all: Value = serde_json::from_str(&std::fs::read_to_string(&a[4]).unwrap()).unwrap();
    let d = docs(&all, contract);
    match op {
        "decode" | "encode" | "encode_text" | "schema" => match contract {
            "close_ticket" => typed::<CloseTicket>(op, &d, n),
            "settings" => typed::<Settings>(op, &d, n),
            "triage" => typed::<Triage>(op, &d, n),
            "ticket_extraction" => typed::<TicketExtraction>(op, &d, n),
            "vacation" => typed::<VacationRequest>(op, &d, n),
            _ => panic!(),
        },
        _ => untyped(op, &d, n),
    }
}
