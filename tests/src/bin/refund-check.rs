//! `refund-check`: `contract-check` over this crate's own contracts, in
//! the short form: named after its file, with contract-runtime's version.
fn main() -> std::process::ExitCode {
    contract_runtime::cli::main(contract_tests::downstream::entries())
}
