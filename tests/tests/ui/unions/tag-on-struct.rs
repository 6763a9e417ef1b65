use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tag = "action")]
pub struct Close {
    pub reason: String,
}

fn main() {}
