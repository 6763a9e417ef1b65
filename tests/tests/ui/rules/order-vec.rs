use contract_runtime::Contract;

#[derive(Contract)]
#[contract(order(before < after))]
pub struct Diff {
    pub before: Vec<String>,
    pub after: Vec<String>,
}

fn main() {}
