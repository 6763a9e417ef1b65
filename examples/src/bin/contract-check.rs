//! `contract-check`: checks one model output per line against a built-in
//! contract (`contract_runtime::cli` over `contract_examples::registry`).
fn main() -> std::process::ExitCode {
    contract_examples::cli::command().main()
}
