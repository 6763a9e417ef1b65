use contract_runtime::Contract;

// Every mistake of one tools enum in one compile.
#[derive(Contract)]
#[contract(tools, tag = "t", max_calls = 0, when(a = 1, require(b)))]
pub enum Tool {
    #[contract(rename = "bad name")]
    Close { reason: String },
    Move(u64, u64),
}

fn main() {}
