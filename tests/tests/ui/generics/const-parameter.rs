use contract_runtime::Contract;

#[derive(Contract)]
pub struct Tags<const N: usize> {
    pub tags: Vec<String>,
}

fn main() {}
