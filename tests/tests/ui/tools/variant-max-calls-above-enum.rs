use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tools, max_calls = 2)]
pub enum Tool {
    #[contract(max_calls = 3)]
    Close { reason: String },
    Open,
}

fn main() {}
