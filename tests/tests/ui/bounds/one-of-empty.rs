use contract_runtime::Contract;

#[derive(Contract)]
pub struct Order {
    #[contract(one_of = [])]
    pub size: String,
}

fn main() {}
