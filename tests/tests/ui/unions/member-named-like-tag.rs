use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tag = "action")]
pub enum Step {
    Close {
        #[contract(rename = "action")]
        kind: String,
    },
}

fn main() {}
