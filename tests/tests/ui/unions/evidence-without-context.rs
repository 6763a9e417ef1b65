use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tag = "action")]
pub enum Step {
    Close {
        #[contract(evidence)]
        reason: String,
    },
}

fn main() {}
