//! Compile-time diagnostics of `#[derive(Contract)]`: each compile-fail case
//! is one mistake, named after it, with its expected `.stderr`. Regenerate
//! snapshots with `TRYBUILD=overwrite cargo test -p contract-tests --test
//! ui`, then read them. `pass/` holds declarations that must compile: the
//! suite compiles and runs them (`suite/ui_pass.rs`), so that trybuild here
//! only checks: one `cargo check` of every case at once, no build of the
//! dependencies' code (a `pass` case would make it build, and build each
//! case on its own). The two cases whose errors only a build reports (a
//! generic's error at monomorphization, the layout cycle's full list) run
//! in a second, building run from `built/`, which one pass case forces.

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
    drop(t);

    let built = trybuild::TestCases::new();
    built.pass("tests/ui/pass/generic-struct.rs");
    built.compile_fail("tests/ui/built/*.rs");
}
