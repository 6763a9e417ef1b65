use contract_runtime::Contract;

pub struct Ctx;

#[derive(Contract)]
#[contract(tag = "action", context = Ctx)]
pub enum Step {
    Close { reason: String },
}

fn main() {}
