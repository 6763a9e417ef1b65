//! The time to build an export bound to one request (it runs once per
//! request), against the unbound export in the same run (results and
//! commands in `BENCHMARKS.md`).
//!
//! The contract is `contracts/bound.rs`'s `Order`: an integer member and a
//! string member, each `one_of = ctx.FIELD`, with a context of 10, 1,000
//! and 100,000 values per member. Timed: `json_schema_for_with` and
//! `response_format_with` for OpenAI and Local, and `grammar_with` (Local,
//! no `evidence`: the `%json` grammar of the bound export); the unbound
//! `json_schema_for` / `response_format` / Local export once.
//!
//! Which path each size takes for OpenAI (checked before timing): at 10
//! both members are bound; at 1,000 each member alone keeps within
//! OpenAI's limits but the two pass its 1,000 values in all, so the export
//! is built twice and the larger binding (the strings) stays local; at
//! 100,000 both pass the limits and stay local before any schema is built.
//! Local binds every value at every size.
//!
//! On a shared, loaded machine criterion's groups, run one after another,
//! see different loads; so the binary first prints an interleaved
//! measurement for each size: in each round every side runs once (a batch
//! of calls for the small sizes) in turn, and it reports each side's median
//! time per call and the median of its per-round ratio to the unbound
//! export of the same provider (Local for the grammar).
//!
//! Run: `cargo bench -p contract-tests --bench bound -- --warm-up-time 1 --measurement-time 3`
use std::hint::black_box;
use std::time::Instant;

use contract_runtime::Contract;
use contract_runtime::schema::Provider;
use criterion::{Criterion, criterion_group, criterion_main};

#[path = "contracts/bound.rs"]
mod bound;

use bound::{Catalog, Order};

const SIZES: [usize; 3] = [10, 1_000, 100_000];

/// The members each provider's export binds for `n` values.
fn check_paths(n: usize, ctx: &Catalog) {
    let expected: &[&str] = match n {
        10 => &["/properties/customer_id", "/properties/sku"],
        1_000 => &["/properties/customer_id"],
        _ => &[],
    };
    let openai = Order::json_schema_for_with(Provider::OpenAi, ctx).expect("the OpenAI export");
    assert_eq!(openai.bound, expected, "{n} values, OpenAI");
    let local = Order::json_schema_for_with(Provider::Local, ctx).expect("the Local export");
    assert_eq!(
        local.bound,
        ["/properties/customer_id", "/properties/sku"],
        "{n} values, Local"
    );
    let values = local.schema["properties"]["sku"]["enum"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(values, n, "{n} values, Local");
    let grammar = Order::grammar_with(ctx).expect("the grammar");
    assert!(grammar.contains("sku-0000000"), "{n} values, grammar");
}

/// Each side's median time per call, and the median of its per-round
/// ratio to the unbound export of its provider, over interleaved rounds.
fn print_interleaved(n: usize, ctx: &Catalog) {
    let (rounds, batch) = match n {
        10 => (60, 200),
        1_000 => (60, 2),
        _ => (15, 1),
    };
    type Side<'a> = (&'static str, usize, Box<dyn Fn() -> bool + 'a>);
    let sides: [Side<'_>; 5] = [
        (
            "json_schema_for openai (unbound)",
            0,
            Box::new(|| Order::json_schema_for(Provider::OpenAi).is_ok()),
        ),
        (
            "json_schema_for_with openai",
            0,
            Box::new(|| Order::json_schema_for_with(Provider::OpenAi, black_box(ctx)).is_ok()),
        ),
        (
            "json_schema_for local (unbound)",
            2,
            Box::new(|| Order::json_schema_for(Provider::Local).is_ok()),
        ),
        (
            "json_schema_for_with local",
            2,
            Box::new(|| Order::json_schema_for_with(Provider::Local, black_box(ctx)).is_ok()),
        ),
        (
            "grammar_with",
            2,
            Box::new(|| Order::grammar_with(black_box(ctx)).is_ok()),
        ),
    ];
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); sides.len()];
    for round in 0..rounds {
        for k in 0..sides.len() {
            let i = (k + round) % sides.len();
            let start = Instant::now();
            for _ in 0..batch {
                black_box((sides[i].2)());
            }
            times[i].push(start.elapsed().as_secs_f64() * 1e6 / f64::from(batch));
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (i, (name, against, _)) in sides.iter().enumerate() {
        let ratios: Vec<f64> = times[i]
            .iter()
            .zip(&times[*against])
            .map(|(t, b)| t / b)
            .collect();
        println!(
            "bound interleaved: {n} values | {name} | median {:.1} µs | median ratio to unbound {:.1}",
            median(times[i].clone()),
            median(ratios)
        );
    }
}

fn benches(c: &mut Criterion) {
    for n in SIZES {
        let ctx = Catalog::of(n);
        check_paths(n, &ctx);
        print_interleaved(n, &ctx);
    }
    let mut g = c.benchmark_group("bound/unbound");
    g.bench_function("json_schema_for openai", |t| {
        t.iter(|| black_box(Order::json_schema_for(black_box(Provider::OpenAi)).is_ok()))
    });
    g.bench_function("response_format openai", |t| {
        t.iter(|| black_box(Order::response_format(black_box(Provider::OpenAi)).is_ok()))
    });
    g.bench_function("json_schema_for local", |t| {
        t.iter(|| black_box(Order::json_schema_for(black_box(Provider::Local)).is_ok()))
    });
    g.finish();
    for n in SIZES {
        let ctx = Catalog::of(n);
        check_paths(n, &ctx);
        let mut g = c.benchmark_group(format!("bound/{n} values"));
        if n >= 100_000 {
            g.sample_size(10);
        }
        for (name, provider) in [("openai", Provider::OpenAi), ("local", Provider::Local)] {
            g.bench_function(format!("json_schema_for_with {name}"), |t| {
                t.iter(|| black_box(Order::json_schema_for_with(provider, black_box(&ctx)).is_ok()))
            });
            g.bench_function(format!("response_format_with {name}"), |t| {
                t.iter(|| black_box(Order::response_format_with(provider, black_box(&ctx)).is_ok()))
            });
        }
        g.bench_function("grammar_with", |t| {
            t.iter(|| black_box(Order::grammar_with(black_box(&ctx)).is_ok()))
        });
        g.finish();
    }
}

criterion_group!(bound_exports, benches);
criterion_main!(bound_exports);
