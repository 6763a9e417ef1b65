use contract_runtime::Contract;

#[derive(Contract)]
#[contract(edit(fix_reason = ["/step/reasn"]))]
pub struct Plan {
    pub step: Step,
}

#[derive(Contract)]
#[contract(tag = "action")]
pub enum Step {
    Close { reason: String },
    Wait { minutes: u32 },
}

fn main() {}
