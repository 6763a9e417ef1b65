//! `Fingerprint::of` (RFC 8785 form, then SHA-256) against what a user
//! would otherwise write: `serde_json_canonicalizer::to_string` and
//! RustCrypto's `sha2`. The value is the patch benchmark's `ServiceConfig`
//! baseline (5,405 bytes compact), the document an edit check fingerprints
//! on every call. Each side's digest is checked equal before timing.
//!
//! Run: `cargo bench -p contract-tests --bench fingerprint -- --warm-up-time 1 --measurement-time 3`
use std::hint::black_box;

use contract_runtime::fingerprint::{Fingerprint, canonical};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;
use sha2::{Digest, Sha256};

#[path = "contracts/service_config.rs"]
mod service_config;

fn rival(value: &Value) -> [u8; 32] {
    let text = serde_json_canonicalizer::to_string(value).expect("a value canonicalizes");
    Sha256::digest(text.as_bytes()).into()
}

fn benches(c: &mut Criterion) {
    let value = service_config::baseline();
    assert_eq!(Fingerprint::of(&value).as_bytes(), &rival(&value));
    let text = canonical(&value);
    assert_eq!(
        text,
        serde_json_canonicalizer::to_string(&value).expect("a value canonicalizes")
    );
    let mut g = c.benchmark_group("fingerprint/service_config");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("ours Fingerprint::of", |b| {
        b.iter(|| Fingerprint::of(black_box(&value)))
    });
    g.bench_function("serde_json_canonicalizer + sha2", |b| {
        b.iter(|| rival(black_box(&value)))
    });
    g.bench_function("ours canonical", |b| {
        b.iter(|| canonical(black_box(&value)))
    });
    g.bench_function("serde_json_canonicalizer", |b| {
        b.iter(|| serde_json_canonicalizer::to_string(black_box(&value)))
    });
    g.bench_function("ours SHA-256 of the form", |b| {
        b.iter(|| Fingerprint::of_parts(&[black_box(text.as_bytes())]))
    });
    g.bench_function("sha2 of the form", |b| {
        b.iter(|| <[u8; 32]>::from(Sha256::digest(black_box(text.as_bytes()))))
    });
    g.finish();
}

criterion_group!(fingerprint, benches);
criterion_main!(fingerprint);
