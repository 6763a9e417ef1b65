use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tag = "action", max_calls = 2)]
pub enum Step {
    #[contract(max_calls = 1)]
    Close { reason: String },
}

fn main() {}
