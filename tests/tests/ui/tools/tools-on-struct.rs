use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tools)]
pub struct Close {
    reason: String,
}

fn main() {}
