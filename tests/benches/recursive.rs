//! Decoding a recursive document: a filter tree of about 2 KiB (a tagged
//! union through `Vec` and `Box`, and a struct holding the union again in
//! `Option<Box<_>>`), `Filter::from_json` against `serde_json::from_str` on
//! the equivalent `#[derive(Deserialize)]` types (internally tagged,
//! `deny_unknown_fields`; less strict: no `one_of`, no lengths, no depth
//! limit of its own beyond serde_json's 128, stops at the first error).
//! Results and commands in `BENCHMARKS.md` ("Recursive contracts").
//!
//! Run: `cargo bench -p contract-tests --bench recursive -- --warm-up-time 1 --measurement-time 3`.
//! For callgrind, without criterion: `recursive-HASH SIDE ITERATIONS` with
//! SIDE `ours` or `serde` (0 iterations measures the setup).
use std::hint::black_box;

use contract_runtime::Contract;
use criterion::{Criterion, Throughput};
use serde::Deserialize;

/// A search filter.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "op", rename_all = "snake_case", max_depth = 64)]
pub enum Filter {
    All {
        #[contract(min_len = 1, max_len = 8)]
        of: Vec<Filter>,
    },
    Any {
        #[contract(min_len = 1, max_len = 8)]
        of: Vec<Filter>,
    },
    Not {
        filter: Box<Filter>,
    },
    Cond(Cond),
}

/// A condition with an optional exception.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Cond {
    #[contract(one_of = ["status", "owner", "priority", "team"])]
    pub field: String,
    #[contract(max_len = 40)]
    pub equals: String,
    pub unless: Option<Box<Filter>>,
}

/// Baseline: the same shapes for serde.
#[derive(Deserialize, Debug)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum SerdeFilter {
    All { of: Vec<SerdeFilter> },
    Any { of: Vec<SerdeFilter> },
    Not { filter: Box<SerdeFilter> },
    Cond(SerdeCond),
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SerdeCond {
    pub field: String,
    pub equals: String,
    pub unless: Option<Box<SerdeFilter>>,
}

/// A deterministic tree of about 2 KiB: `all`/`any` two to three wide,
/// `not` and `unless` on the way, five levels of filters.
fn tree(depth: usize, seed: &mut u32) -> String {
    *seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
    let pick = (*seed >> 16) % 4;
    let fields = ["status", "owner", "priority", "team"];
    let cond = |seed: &mut u32, unless: &str| {
        *seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        format!(
            r#"{{"op":"cond","field":"{}","equals":"value-{}","unless":{unless}}}"#,
            fields[(*seed >> 16) as usize % 4],
            *seed % 1000
        )
    };
    if depth == 0 {
        return cond(seed, "null");
    }
    match pick {
        0 | 1 => {
            let op = if pick == 0 { "all" } else { "any" };
            let n = 2 + (*seed >> 20) as usize % 2;
            let items: Vec<String> = (0..n).map(|_| tree(depth - 1, seed)).collect();
            format!(r#"{{"op":"{op}","of":[{}]}}"#, items.join(","))
        }
        2 => format!(r#"{{"op":"not","filter":{}}}"#, tree(depth - 1, seed)),
        _ => {
            let unless = tree(depth - 1, seed);
            cond(seed, &unless)
        }
    }
}

/// The first generated tree of 1.9 to 2.3 KB.
fn document() -> String {
    let mut seed = 7;
    loop {
        let doc = tree(5, &mut seed);
        if (1900..=2300).contains(&doc.len()) {
            return doc;
        }
    }
}

fn main() {
    let doc = document();
    assert!(Filter::from_json(&doc).is_ok(), "ours rejects {doc}");
    assert!(
        serde_json::from_str::<SerdeFilter>(&doc).is_ok(),
        "serde rejects {doc}"
    );
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [side, n] if side == "ours" || side == "serde" => {
            let n: usize = n.parse().expect("ITERATIONS");
            for _ in 0..n {
                if side == "ours" {
                    black_box(Filter::from_json(black_box(&doc)).is_ok());
                } else {
                    black_box(serde_json::from_str::<SerdeFilter>(black_box(&doc)).is_ok());
                }
            }
            println!("{} bytes, {n} iterations", doc.len());
            return;
        }
        _ => {}
    }
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("filter_tree/valid");
    g.throughput(Throughput::Bytes(doc.len() as u64));
    g.bench_function("ours", |b| {
        b.iter(|| black_box(Filter::from_json(black_box(&doc)).is_ok()))
    });
    g.bench_function("serde derive", |b| {
        b.iter(|| black_box(serde_json::from_str::<SerdeFilter>(black_box(&doc)).is_ok()))
    });
    g.finish();
    c.final_summary();
}
