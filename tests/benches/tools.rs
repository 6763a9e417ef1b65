//! Checking tool calls against what a user would otherwise write, side by
//! side in one run (results and the commands in `BENCHMARKS.md`):
//!
//! - **one call** (`tools/call valid`, `tools/call invalid`): ours
//!   `SupportTool::check_call(name, arguments)` (OpenAI's `function.name`
//!   and `function.arguments`) and `SupportTool::from_json` of the full call
//!   text `{"name", "arguments"}`, against `serde_json::from_str` of the
//!   full call text into the same tools with serde's adjacent tagging
//!   (`tag = "name"`, `content = "arguments"`, `deny_unknown_fields`: no
//!   bounds, no lengths, no rules, the first error only). The invalid call
//!   has a mistyped argument.
//! - **a batch of 4 calls** (`tools/batch valid`, `tools/batch invalid`):
//!   ours `SupportTool::check_calls`, against 4 serde `from_str` of the full
//!   call texts and a hand-written check of unique ids and `max_calls` (4
//!   in all, 1 refund). The invalid batch's third call has a mistyped
//!   argument.
//!
//! Both sides' decisions are checked before anything is timed
//! (`tool_calls::check_decisions`). Instructions per call with callgrind:
//! the `tools_profile` driver.
//!
//! Run: `cargo bench -p contract-tests --bench tools -- --warm-up-time 1 --measurement-time 3`
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

mod tool_calls;

use tool_calls::{
    check_decisions, invalid_batch, invalid_call, ours_batch, ours_call, ours_full, serde_batch,
    serde_full, valid_batch, valid_call,
};

fn benches(c: &mut Criterion) {
    check_decisions();
    for (case, call) in [("valid", valid_call()), ("invalid", invalid_call())] {
        let mut g = c.benchmark_group(format!("tools/call {case}"));
        g.bench_function("ours check_call", |b| {
            b.iter(|| ours_call(black_box(&call)))
        });
        g.bench_function("ours from_json", |b| b.iter(|| ours_full(black_box(&call))));
        g.bench_function("serde adjacent", |b| {
            b.iter(|| serde_full(black_box(&call)))
        });
        g.finish();
    }
    for (case, batch) in [("valid", valid_batch()), ("invalid", invalid_batch())] {
        let calls = batch.ours();
        let mut g = c.benchmark_group(format!("tools/batch {case}"));
        g.bench_function("ours check_calls", |b| {
            b.iter(|| ours_batch(black_box(&calls)))
        });
        g.bench_function("serde x4 + rules", |b| {
            b.iter(|| serde_batch(black_box(&batch)))
        });
        g.finish();
    }
}

criterion_group!(tools, benches);
criterion_main!(tools);
