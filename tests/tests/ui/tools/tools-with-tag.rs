use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tools, tag = "action")]
pub enum Tool {
    Close { reason: String },
}

fn main() {}
