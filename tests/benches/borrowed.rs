//! Borrowed strings: contracts with a lifetime (`&'a str`, `Cow<'a, str>`
//! fields) against serde_json's derive with the same field types, side by
//! side in one run:
//!
//! - **ours borrowed**: `Invoice::<'a>::from_json` (parse, schema, rules;
//!   strings without escapes borrowed from the text);
//! - **serde borrowed**: `serde_json::from_str` on a `#[derive(Deserialize)]`
//!   struct with `deny_unknown_fields` and the same field types, each
//!   borrowed string `#[serde(borrow)]` (dates as `&str`: no date, bound or
//!   rule is checked);
//! - **ours owned** / **serde owned**: the same two with `String` fields
//!   (the decode benchmark's invoice and baseline A, `contracts/mod.rs`).
//!
//! Contracts: the invoice (`contracts/mod.rs`, its ~4.5 KiB valid documents
//! of `benches/documents.json`; the customer's name and the notes hold
//! escapes, so those two are `Cow`s, every other string a `&str`) and the
//! close-ticket seed (its three valid documents). Before timing, every side
//! must accept every document, and each borrowed `&str` must be a slice of
//! the document.
//!
//! Run: `cargo bench -p contract-tests --bench borrowed -- --warm-up-time 1 --measurement-time 3`
use std::borrow::Cow;
use std::hint::black_box;

use contract_examples::close_ticket::CloseTicket;
use contract_runtime::{Contract, Date};
use criterion::{Criterion, Throughput, criterion_group};

mod contracts;

use contracts::{Currency, DOCUMENTS, File, InvoiceStatus, LineKind, serde_a};

/// The decode benchmark's invoice, its strings borrowed.
#[derive(Contract, Debug)]
#[contract(
    max_bytes = 65536,
    when(status = InvoiceStatus::Paid, require(paid_on)),
    when(status in [InvoiceStatus::Draft, InvoiceStatus::Issued], forbid(paid_on)),
    order(issued_on <= due_on),
)]
pub struct Invoice<'a> {
    #[contract(min_len = 1, max_len = 32)]
    number: &'a str,
    status: InvoiceStatus,
    currency: Currency,
    issued_on: Date,
    due_on: Date,
    paid_on: Option<Date>,
    customer: Customer<'a>,
    #[contract(min_len = 1, max_len = 100)]
    lines: Vec<Line<'a>>,
    #[contract(max_len = 1000)]
    notes: Option<Cow<'a, str>>,
}

#[derive(Contract, Debug)]
pub struct Customer<'a> {
    #[contract(min_len = 1, max_len = 120)]
    name: Cow<'a, str>,
    #[contract(min_len = 3, max_len = 254)]
    email: &'a str,
    vip: bool,
    address: Address<'a>,
}

#[derive(Contract, Debug)]
pub struct Address<'a> {
    #[contract(min_len = 1, max_len = 200)]
    street: &'a str,
    #[contract(min_len = 1, max_len = 100)]
    city: &'a str,
    #[contract(min_len = 1, max_len = 16)]
    postal_code: &'a str,
    #[contract(min_len = 2, max_len = 2)]
    country: &'a str,
}

#[derive(Contract, Debug)]
pub struct Line<'a> {
    #[contract(min_len = 1, max_len = 16)]
    sku: &'a str,
    #[contract(min = 1, max = 10000)]
    qty: u32,
    cents: u64,
    #[contract(min = 0.0, max = 1.0)]
    tax: f64,
    kind: LineKind,
    ship: Option<Date>,
}

/// The close-ticket seed, its strings borrowed.
#[derive(Contract, Debug)]
#[contract(max_bytes = 4096)]
pub struct CloseTicketRef<'a> {
    #[contract(equals = "close_ticket")]
    action: &'a str,
    #[contract(min = 1)]
    ticket_id: u64,
    #[contract(min_len = 1, max_len = 200)]
    reason: &'a str,
}

/// serde's derive with the same borrowed field types.
mod serde_borrowed {
    #![allow(dead_code)]
    use std::borrow::Cow;

    use serde::Deserialize;

    pub use super::serde_a::{Currency, InvoiceStatus, LineKind};

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Invoice<'a> {
        pub number: &'a str,
        pub status: InvoiceStatus,
        pub currency: Currency,
        pub issued_on: &'a str,
        pub due_on: &'a str,
        pub paid_on: Option<&'a str>,
        #[serde(borrow)]
        pub customer: Customer<'a>,
        #[serde(borrow)]
        pub lines: Vec<Line<'a>>,
        #[serde(borrow)]
        pub notes: Option<Cow<'a, str>>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Customer<'a> {
        #[serde(borrow)]
        pub name: Cow<'a, str>,
        pub email: &'a str,
        pub vip: bool,
        #[serde(borrow)]
        pub address: Address<'a>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Address<'a> {
        pub street: &'a str,
        pub city: &'a str,
        pub postal_code: &'a str,
        pub country: &'a str,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Line<'a> {
        pub sku: &'a str,
        pub qty: u32,
        pub cents: u64,
        pub tax: f64,
        pub kind: LineKind,
        pub ship: Option<&'a str>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct CloseTicket<'a> {
        pub action: &'a str,
        pub ticket_id: u64,
        pub reason: &'a str,
    }
}

fn within(doc: &str, s: &str) -> bool {
    doc.as_bytes().as_ptr_range().contains(&s.as_ptr())
}

// Every side accepts every document; the borrowed sides borrow.
fn check_decisions(invoices: &[&str], tickets: &[&str]) {
    for doc in invoices {
        let ours = Invoice::from_json(doc).unwrap_or_else(|r| panic!("ours: {r:?}\n{doc}"));
        assert!(within(doc, ours.number) && within(doc, ours.lines[0].sku));
        let serde = serde_json::from_str::<serde_borrowed::Invoice<'_>>(doc)
            .unwrap_or_else(|e| panic!("serde borrowed: {e}\n{doc}"));
        assert!(within(doc, serde.number) && within(doc, serde.lines[0].sku));
        assert!(contracts::Invoice::from_json(doc).is_ok());
        assert!(serde_json::from_str::<serde_a::Invoice>(doc).is_ok());
    }
    for doc in tickets {
        let ours = CloseTicketRef::from_json(doc).unwrap_or_else(|r| panic!("ours: {r:?}"));
        assert!(within(doc, ours.reason));
        let serde = serde_json::from_str::<serde_borrowed::CloseTicket<'_>>(doc).unwrap();
        assert!(within(doc, serde.reason));
        assert!(CloseTicket::from_json(doc).is_ok());
        assert!(serde_json::from_str::<serde_a::CloseTicket>(doc).is_ok());
    }
}

// One group: the four sides on `docs`.
fn group<'d, OB, SB, OO, SO>(
    c: &mut Criterion,
    name: &str,
    docs: &[&'d str],
    sides: (OB, SB, OO, SO),
) where
    OB: Fn(&'d str) -> bool,
    SB: Fn(&'d str) -> bool,
    OO: Fn(&'d str) -> bool,
    SO: Fn(&'d str) -> bool,
{
    let bytes: usize = docs.iter().map(|d| d.len()).sum();
    let mut g = c.benchmark_group(format!("borrowed/{name}"));
    g.throughput(Throughput::Bytes(bytes as u64));
    let (ours_borrowed, serde_borrowed, ours_owned, serde_owned) = sides;
    g.bench_function("ours borrowed", |b| {
        b.iter(|| {
            docs.iter()
                .for_each(|d| assert!(ours_borrowed(black_box(d))))
        })
    });
    g.bench_function("serde borrowed", |b| {
        b.iter(|| {
            docs.iter()
                .for_each(|d| assert!(serde_borrowed(black_box(d))))
        })
    });
    g.bench_function("ours owned", |b| {
        b.iter(|| docs.iter().for_each(|d| assert!(ours_owned(black_box(d)))))
    });
    g.bench_function("serde owned", |b| {
        b.iter(|| docs.iter().for_each(|d| assert!(serde_owned(black_box(d)))))
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let file: File = serde_json::from_str(DOCUMENTS).expect("documents.json parses");
    let invoices: Vec<&str> = file.contracts["invoice"]
        .valid
        .iter()
        .map(String::as_str)
        .collect();
    let tickets: Vec<&str> = file.contracts["close_ticket"]
        .valid
        .iter()
        .map(String::as_str)
        .collect();
    check_decisions(&invoices, &tickets);
    group(
        c,
        "invoice",
        &invoices,
        (
            |d| black_box(Invoice::from_json(d)).is_ok(),
            |d| black_box(serde_json::from_str::<serde_borrowed::Invoice<'_>>(d)).is_ok(),
            |d| black_box(contracts::Invoice::from_json(d)).is_ok(),
            |d| black_box(serde_json::from_str::<serde_a::Invoice>(d)).is_ok(),
        ),
    );
    group(
        c,
        "close_ticket",
        &tickets,
        (
            |d| black_box(CloseTicketRef::from_json(d)).is_ok(),
            |d| black_box(serde_json::from_str::<serde_borrowed::CloseTicket<'_>>(d)).is_ok(),
            |d| black_box(CloseTicket::from_json(d)).is_ok(),
            |d| black_box(serde_json::from_str::<serde_a::CloseTicket>(d)).is_ok(),
        ),
    );
}

// `BORROWED_PROFILE=CONTRACT:SIDE:N` (`invoice` or `close_ticket`; `ours
// borrowed`, `serde borrowed`, `ours owned` or `serde owned`): decodes the
// contract's documents N times with one side and exits, for callgrind
// (`benches/borrowed-callgrind.sh` subtracts the run with N = 0).
fn profile(spec: &str) {
    let mut parts = spec.split(':');
    let (Some(contract), Some(side), Some(n)) = (parts.next(), parts.next(), parts.next()) else {
        panic!("BORROWED_PROFILE=CONTRACT:SIDE:N, not {spec}");
    };
    let n: usize = n.parse().expect("N is a number");
    let file: File = serde_json::from_str(DOCUMENTS).expect("documents.json parses");
    let docs: Vec<&str> = file.contracts[contract]
        .valid
        .iter()
        .map(String::as_str)
        .collect();
    let decode: fn(&str) -> bool = match (contract, side) {
        ("invoice", "ours borrowed") => |d| black_box(Invoice::from_json(d)).is_ok(),
        ("invoice", "serde borrowed") => {
            |d| black_box(serde_json::from_str::<serde_borrowed::Invoice<'_>>(d)).is_ok()
        }
        ("invoice", "ours owned") => |d| black_box(contracts::Invoice::from_json(d)).is_ok(),
        ("invoice", "serde owned") => {
            |d| black_box(serde_json::from_str::<serde_a::Invoice>(d)).is_ok()
        }
        ("close_ticket", "ours borrowed") => |d| black_box(CloseTicketRef::from_json(d)).is_ok(),
        ("close_ticket", "serde borrowed") => {
            |d| black_box(serde_json::from_str::<serde_borrowed::CloseTicket<'_>>(d)).is_ok()
        }
        ("close_ticket", "ours owned") => |d| black_box(CloseTicket::from_json(d)).is_ok(),
        ("close_ticket", "serde owned") => {
            |d| black_box(serde_json::from_str::<serde_a::CloseTicket>(d)).is_ok()
        }
        _ => panic!("unknown contract or side in {spec}"),
    };
    for _ in 0..n {
        for doc in &docs {
            assert!(decode(black_box(doc)));
        }
    }
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(spec) = std::env::var("BORROWED_PROFILE") {
        profile(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
