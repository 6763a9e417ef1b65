//! The integration tests that need no process of their own, in one binary:
//! one link of the runtime instead of one per file. Each module is a former
//! `tests/tests/NAME.rs`, so `cargo test -p contract-tests NAME` still finds
//! its tests (`--test suite NAME::` runs just them). Separate binaries:
//! `allocations` (a counting global allocator) and `ui` (trybuild).

mod schema_support;

mod bound;
mod canonical_json;
mod checked;
mod cli_calls;
mod cli_downstream;
mod cli_jobs;
mod concurrency;
mod conformance;
mod edit_bound;
mod edit_business;
mod edit_exact_baseline;
mod edit_numbers;
mod edit_patch;
mod edit_patch_export;
mod edit_patch_rfc;
mod edit_pinned_export;
mod edit_whole_fields;
mod examples_approvals;
mod examples_data;
mod examples_executor;
mod examples_extraction;
mod examples_patches;
mod examples_registry;
mod examples_retry;
mod examples_seeds;
mod examples_sse;
mod examples_stream;
mod export_fixtures;
mod export_properties;
mod export_unrolled;
mod feedback;
mod first_errors;
mod formats;
mod generic_unions;
mod hostile;
mod pointer_escaping;
mod predicted_keys;
mod quarantine;
mod recursion;
mod roundtrip;
mod schema_agreement;
mod schema_compat;
mod schema_export;
mod schema_golden;
mod schema_literals;
mod stream;
mod strict_decoding;
mod tools;
mod tools_bound;
mod tools_business;
mod tools_call;
mod tools_stream;
mod ui_pass;
mod union_reading;
mod union_shared;
mod unions;
mod vacation;
