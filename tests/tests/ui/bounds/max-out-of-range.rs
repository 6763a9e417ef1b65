use contract_runtime::Contract;

#[derive(Contract)]
pub struct Order {
    #[contract(max = 300)]
    pub percent: u8,
}

fn main() {}
