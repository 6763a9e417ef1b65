use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tag = "action")]
pub enum Step {
    Say(String),
}

fn main() {}
