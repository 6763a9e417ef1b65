//! `refund-check`: `contract-check` over this crate's own contracts.
fn main() -> std::process::ExitCode {
    contract_runtime::cli::Cli::new(contract_tests::downstream::entries())
        .name("refund-check")
        .version(env!("CARGO_PKG_VERSION"))
        .main()
}
