//! Compile-time diagnostics of `#[derive(Contract)]`: each compile-fail case
//! is one mistake, named after it, with its expected `.stderr`; `pass/` holds
//! declarations that must compile. Regenerate snapshots with
//! `TRYBUILD=overwrite cargo test -p contract-tests --test ui`, then read them.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/attributes/*.rs");
    t.compile_fail("tests/ui/bounds/*.rs");
    t.compile_fail("tests/ui/fields/*.rs");
    t.compile_fail("tests/ui/rules/*.rs");
    t.compile_fail("tests/ui/edit/*.rs");
    t.compile_fail("tests/ui/unions/*.rs");
    t.compile_fail("tests/ui/recursion/*.rs");
    t.compile_fail("tests/ui/generics/*.rs");
    t.compile_fail("tests/ui/formats/*.rs");
}
