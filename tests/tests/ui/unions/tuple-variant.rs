use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tag = "action")]
pub enum Step {
    Move(u32, u32),
}

fn main() {}
