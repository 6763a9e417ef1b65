//! The downstream crate: integration, property and trybuild tests of the
//! public API (`contract-runtime`, `#[derive(Contract)]` and the
//! `contract-examples` crate) as a user's crate sees it. It depends on them
//! as a user would; its library only runs the repository README's Rust
//! examples as doctests; everything else is under `tests/`.
//!
//! - `tests/*.rs`: one integration test per area (`strict_decoding`,
//!   `edit_business`, `schema_golden`, …); the property tests use
//!   `proptest` inside them (`roundtrip`, `hostile`, `schema_agreement`, …).
//! - `tests/ui/`: the trybuild cases of `tests/ui.rs`. Each compile-fail
//!   case is one mistake, `tests/ui/<area>/<mistake>.rs` with its expected
//!   `.stderr`; `tests/ui/pass/` holds declarations that must compile.
//! - `tests/snapshots/`: golden schemas and provider exports of the seed
//!   contracts.
//! - `src/downstream.rs` and `src/bin/refund-check.rs`: a contract of this
//!   crate's own and the `contract-check` it gets through
//!   `contract_runtime::cli`; `tests/suite/cli_downstream.rs` runs it in-process
//!   and as a process.
//! - Dev-dependency `serde_json_canonicalizer`: an independent RFC 8785
//!   implementation that `tests/suite/canonical_json.rs` agrees with.
//!
//! Run one file, or the tests of one file whose names contain a word:
//!
//! ```sh
//! cargo test -p contract-tests --test suite strict_decoding::
//! cargo test -p contract-tests --test suite duplicate
//! cargo test -p contract-tests --test ui        # trybuild, about 2 minutes
//! ```
//!
//! Re-bless after a deliberate change, then read the diff:
//!
//! ```sh
//! TRYBUILD=overwrite cargo test -p contract-tests --test ui             # tests/ui/**/*.stderr
//! UPDATE_SNAPSHOTS=1 cargo test -p contract-tests --test suite schema_golden::  # tests/snapshots/
//! BLESS=1 cargo test -p contract-tests --test suite examples_data::      # examples/data/*.expected.jsonl
//! ```

// The repository README's Rust examples run as doctests (`rust,ignore` ones
// excepted) here, in a crate that is not published: `contract-runtime`
// runs its own crate README instead.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct RepositoryReadme;

pub mod downstream;
