//! `changed_paths` on generated documents of about 1 KiB, 64 KiB and 1 MiB
//! (see `changed_paths_documents`): `after` is `before` with three leaf
//! edits, so the walk goes through the whole tree. Throughput is the size of
//! `before` serialized, so criterion reports bytes per second.
//!
//! Run: `cargo bench -p contract-core --bench changed_paths -- --quick`
#![allow(missing_docs)]

use std::hint::black_box;

use contract_runtime::diff::changed_paths;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

mod changed_paths_documents;

use changed_paths_documents::{SIZES, bytes, document, edited};

fn bench_changed_paths(c: &mut Criterion) {
    let mut group = c.benchmark_group("changed_paths");
    for (label, target) in SIZES {
        let before = document(target);
        let after = edited(&before);
        let changes = changed_paths(&before, &after).len();
        assert_eq!(changes, 3, "{label}: the three edits must show up");
        group.throughput(Throughput::Bytes(bytes(&before) as u64));
        group.bench_with_input(
            BenchmarkId::from_parameter(label),
            &(before, after),
            |b, (before, after)| b.iter(|| changed_paths(black_box(before), black_box(after))),
        );
    }
    group.finish();
}

criterion_group!(benches, bench_changed_paths);
criterion_main!(benches);
