use contract_runtime::Contract;

#[derive(Contract)]
#[contract(max_depth = 100000)]
pub struct Tree {
    pub children: Vec<Tree>,
}

fn main() {}
