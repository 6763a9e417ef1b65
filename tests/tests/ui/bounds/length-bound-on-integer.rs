use contract_runtime::Contract;

#[derive(Contract)]
pub struct Order {
    #[contract(max_len = 3)]
    pub quantity: u32,
}

fn main() {}
