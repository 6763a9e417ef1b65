//! Edits as patches on a large document: what a model writes, and what
//! checking it costs (results and commands in `BENCHMARKS.md`).
//!
//! The document is `contracts/service_config.rs`'s: a settings-like
//! contract (nested objects, arrays of objects, strings, numbers, booleans,
//! enums) whose baseline pretty-prints to about 500 lines, edited under its
//! policy `tune` (seven leaves allowed). Each edit changes one or five of
//! those leaves.
//!
//! - **bytes**: printed before the timings, for each edit: the whole
//!   patched document (compact and pretty-printed), the RFC 6902 JSON Patch
//!   (the bare array, and `{"patch": [..]}` as the patch exports describe
//!   it) and the RFC 7396 Merge Patch, all compact.
//! - **time**: `EditPolicy::check_patch(baseline, patch)` and
//!   `check_merge_patch` against `EditPolicy::check(baseline, text)` of the
//!   patched document (compact and pretty), and against the `json-patch`
//!   crate's apply (read the patch with serde_json, apply to a copy of the
//!   baseline, serialize) followed by `check`.
//!
//! Before anything is timed, every side's decision is checked: each
//! accepts, with the same `changed` pointers and the same value.
//!
//! On a shared, loaded machine criterion's groups, run one after another,
//! see different loads; so the binary first prints an interleaved
//! measurement: in each of 150 rounds every side runs a batch of 20 checks
//! in turn, and it reports each side's median time per check and the
//! median of its per-round ratio to `check full compact` (the sides of one
//! round see about the same load).
//!
//! Run: `cargo bench -p contract-tests --bench patch -- --warm-up-time 1 --measurement-time 3`
use std::hint::black_box;
use std::time::Instant;

use contract_runtime::{Contract, json};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Map, Value};

#[path = "contracts/service_config.rs"]
mod service_config;

use service_config::ServiceConfig;

/// One edit of the baseline, in every form a model could write it.
struct Edit {
    leaves: usize,
    /// The RFC 6902 array.
    patch: String,
    /// `{"patch": [..]}`.
    wrapped: String,
    merge: String,
    compact: String,
    pretty: String,
    changed: Vec<String>,
}

fn edit(baseline: &Value, leaves: usize) -> Edit {
    let changes = &service_config::changes()[..leaves];
    let ops: Vec<Value> = changes
        .iter()
        .map(|(path, value)| serde_json::json!({"op": "replace", "path": path, "value": value}))
        .collect();
    let mut merge = Value::Object(Map::new());
    let mut patched = baseline.clone();
    for (path, value) in changes {
        let mut at = &mut merge;
        let keys: Vec<&str> = path.split('/').skip(1).collect();
        for (i, key) in keys.iter().enumerate() {
            let last = i + 1 == keys.len();
            let map = at.as_object_mut().expect("an object");
            at = map.entry(key.to_string()).or_insert_with(|| {
                if last {
                    value.clone()
                } else {
                    Value::Object(Map::new())
                }
            });
        }
        *patched
            .pointer_mut(path)
            .expect("a pointer of the baseline") = value.clone();
    }
    let mut changed: Vec<String> = changes.iter().map(|(p, _)| p.to_string()).collect();
    changed.sort();
    Edit {
        leaves,
        patch: serde_json::to_string(&ops).expect("text"),
        wrapped: serde_json::to_string(&serde_json::json!({ "patch": ops })).expect("text"),
        merge: serde_json::to_string(&merge).expect("text"),
        compact: serde_json::to_string(&patched).expect("text"),
        pretty: serde_json::to_string_pretty(&patched).expect("text"),
        changed,
    }
}

/// The `json-patch` crate's apply, serialized, then the full check.
fn rival(baseline: &Value, patch: &str) -> Option<Vec<String>> {
    let patch: json_patch::Patch = serde_json::from_str(patch).ok()?;
    let mut doc = baseline.clone();
    json_patch::patch(&mut doc, &patch).ok()?;
    let text = serde_json::to_string(&doc).ok()?;
    ServiceConfig::TUNE
        .check(baseline, &text)
        .ok()
        .map(|e| e.changed)
}

/// Every side accepts the edit with the same changes and value.
fn check_decisions(baseline: &Value, e: &Edit) {
    let policy = ServiceConfig::TUNE;
    let sides = [
        ("check_patch", policy.check_patch(baseline, &e.patch)),
        (
            "check_patch wrapped",
            policy.check_patch(baseline, &e.wrapped),
        ),
        (
            "check_merge_patch",
            policy.check_merge_patch(baseline, &e.merge),
        ),
        ("check compact", policy.check(baseline, &e.compact)),
        ("check pretty", policy.check(baseline, &e.pretty)),
    ];
    let mut value = None;
    for (side, result) in sides {
        let accepted =
            result.unwrap_or_else(|r| panic!("{} leaves: {side} refused: {r:?}", e.leaves));
        assert_eq!(accepted.changed, e.changed, "{} leaves: {side}", e.leaves);
        match &value {
            None => value = Some(accepted.value),
            Some(v) => assert_eq!(v, &accepted.value, "{} leaves: {side}", e.leaves),
        }
    }
    assert_eq!(
        rival(baseline, &e.patch).as_deref(),
        Some(&e.changed[..]),
        "{} leaves: json-patch",
        e.leaves
    );
    // A change outside the policy is refused by both routes.
    let outside = r#"[{"op":"replace","path":"/server/port","value":9443}]"#;
    assert!(policy.check_patch(baseline, outside).is_err());
    assert!(rival(baseline, outside).is_none());
}

fn print_bytes(pretty_baseline: &str, edits: &[Edit]) {
    println!(
        "patch bytes: baseline {} lines pretty-printed, {} bytes",
        pretty_baseline.lines().count(),
        pretty_baseline.len()
    );
    println!(
        "patch bytes: leaves | full compact | full pretty | JSON Patch | {{\"patch\": ..}} | Merge Patch"
    );
    for e in edits {
        println!(
            "patch bytes: {} | {} | {} | {} | {} | {}",
            e.leaves,
            e.compact.len(),
            e.pretty.len(),
            e.patch.len(),
            e.wrapped.len(),
            e.merge.len()
        );
    }
}

/// Each side's median time per check, and the median of its per-round
/// ratio to the first side, over interleaved rounds.
fn print_interleaved(baseline: &Value, e: &Edit) {
    const ROUNDS: usize = 150;
    const BATCH: u32 = 20;
    let policy = ServiceConfig::TUNE;
    type Side<'a> = (&'static str, Box<dyn Fn() -> bool + 'a>);
    let sides: [Side<'_>; 5] = [
        (
            "check full compact",
            Box::new(|| policy.check(baseline, black_box(&e.compact)).is_ok()),
        ),
        (
            "check full pretty",
            Box::new(|| policy.check(baseline, black_box(&e.pretty)).is_ok()),
        ),
        (
            "check_patch",
            Box::new(|| policy.check_patch(baseline, black_box(&e.patch)).is_ok()),
        ),
        (
            "check_merge_patch",
            Box::new(|| {
                policy
                    .check_merge_patch(baseline, black_box(&e.merge))
                    .is_ok()
            }),
        ),
        (
            "json-patch + serialize + check",
            Box::new(|| rival(baseline, black_box(&e.patch)).is_some()),
        ),
    ];
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(ROUNDS); sides.len()];
    for round in 0..ROUNDS {
        // The order turns each round, so that no side always runs first.
        for k in 0..sides.len() {
            let i = (k + round) % sides.len();
            let start = Instant::now();
            for _ in 0..BATCH {
                black_box((sides[i].1)());
            }
            times[i].push(start.elapsed().as_secs_f64() * 1e6 / f64::from(BATCH));
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (i, (name, _)) in sides.iter().enumerate() {
        let ratios: Vec<f64> = times[i].iter().zip(&times[0]).map(|(t, b)| t / b).collect();
        println!(
            "patch interleaved: {} leaves | {name} | median {:.1} µs | median ratio to check full compact {:.2}",
            e.leaves,
            median(times[i].clone()),
            median(ratios)
        );
    }
}

fn benches(c: &mut Criterion) {
    let pretty_baseline =
        serde_json::to_string_pretty(&service_config::baseline()).expect("the baseline's text");
    let baseline = json::parse(pretty_baseline.as_bytes(), &ServiceConfig::LIMITS)
        .expect("the baseline reads back");
    assert!(
        ServiceConfig::from_json(&pretty_baseline).is_ok(),
        "the baseline passes its contract"
    );
    let edits = [edit(&baseline, 1), edit(&baseline, 5)];
    for e in &edits {
        check_decisions(&baseline, e);
    }
    print_bytes(&pretty_baseline, &edits);
    for e in &edits {
        print_interleaved(&baseline, e);
    }
    let policy = ServiceConfig::TUNE;
    let b = &baseline;
    for e in &edits {
        let mut g = c.benchmark_group(format!("patch/{} leaves", e.leaves));
        g.bench_function("check_patch", |t| {
            t.iter(|| black_box(policy.check_patch(b, black_box(&e.patch)).is_ok()))
        });
        g.bench_function("check_merge_patch", |t| {
            t.iter(|| black_box(policy.check_merge_patch(b, black_box(&e.merge)).is_ok()))
        });
        g.bench_function("check full compact", |t| {
            t.iter(|| black_box(policy.check(b, black_box(&e.compact)).is_ok()))
        });
        g.bench_function("check full pretty", |t| {
            t.iter(|| black_box(policy.check(b, black_box(&e.pretty)).is_ok()))
        });
        g.bench_function("json-patch + serialize + check", |t| {
            t.iter(|| black_box(rival(b, black_box(&e.patch)).is_some()))
        });
        g.finish();
    }
}

criterion_group!(patch, benches);
criterion_main!(patch);
