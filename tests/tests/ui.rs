//! Compile-time diagnostics of `#[derive(Contract)]`: each compile-fail case
//! is one mistake, named after it, with its expected `.stderr`. Regenerate
//! snapshots with `TRYBUILD=overwrite cargo test -p contract-tests --test
//! ui -- --include-ignored`, then read them. `pass/` holds declarations that
//! must compile: the suite compiles and runs them (`suite/ui_pass.rs`), so
//! that trybuild here only checks: one `cargo check` of every case at once,
//! no build of the dependencies' code (a `pass` case would make it build,
//! and build each case on its own).
//!
//! The two cases whose errors only a build reports (a generic's error at
//! monomorphization, the layout cycle's full list) are `ui_built`, ignored
//! by a plain `cargo test`: a building trybuild run builds every
//! dev-dependency in full, twice (trybuild prepares the dependencies with
//! other `rustflags` than it builds the cases with), about 1.1 GB of
//! `target/` and most of the ui test's CPU time. `.ci/run` runs it
//! (`cargo test -p contract-tests --test ui -- --ignored`).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/attributes/*.rs");
    t.compile_fail("tests/ui/bounds/*.rs");
    t.compile_fail("tests/ui/fields/*.rs");
    t.compile_fail("tests/ui/rules/*.rs");
    t.compile_fail("tests/ui/edit/*.rs");
    t.compile_fail("tests/ui/unions/*.rs");
    t.compile_fail("tests/ui/recursion/*.rs");
    t.compile_fail("tests/ui/generics/*.rs");
    t.compile_fail("tests/ui/formats/*.rs");
    t.compile_fail("tests/ui/tools/*.rs");
    t.compile_fail("tests/ui/borrowed/*.rs");
}

#[test]
#[ignore = "builds every dev-dependency twice (about 1.1 GB of target/): .ci/run runs it with --ignored"]
fn ui_built() {
    let built = trybuild::TestCases::new();
    built.pass("tests/ui/pass/generic-struct.rs");
    built.compile_fail("tests/ui/built/*.rs");
}
