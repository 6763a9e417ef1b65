use contract_runtime::Contract;

#[derive(Contract)]
pub struct Order {
    #[contract(one_of = ["small", 2])]
    pub size: String,
}

fn main() {}
