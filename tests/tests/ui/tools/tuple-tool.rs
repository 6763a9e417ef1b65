use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tools)]
pub enum Tool {
    Move(u64, u64),
}

fn main() {}
