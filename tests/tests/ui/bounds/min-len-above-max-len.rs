use contract_runtime::Contract;

#[derive(Contract)]
pub struct Order {
    #[contract(min_len = 50, max_len = 5)]
    pub note: String,
}

fn main() {}
