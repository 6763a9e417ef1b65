use contract_runtime::Contract;

#[derive(Contract)]
pub struct Nothing;

fn main() {}
