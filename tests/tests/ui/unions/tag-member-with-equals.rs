use contract_runtime::Contract;

// `equals` and `one_of` are fine on members, but the tag is not a member
// to declare: the variant's name is its value.
#[derive(Contract)]
#[contract(tag = "action")]
pub enum Step {
    Close {
        #[contract(equals = "Close")]
        action: String,
        #[contract(one_of = ["done", "duplicate"])]
        reason: String,
    },
}

fn main() {}
