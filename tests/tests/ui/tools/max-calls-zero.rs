use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tools, max_calls = 0)]
pub enum Tool {
    #[contract(max_calls = 0)]
    Close { reason: String },
}

fn main() {}
