use contract_runtime::Contract;

#[derive(Contract)]
pub struct Order {
    #[contract(min = 1)]
    pub note: String,
}

fn main() {}
