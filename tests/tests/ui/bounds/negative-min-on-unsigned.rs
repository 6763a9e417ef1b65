use contract_runtime::Contract;

#[derive(Contract)]
pub struct Order {
    #[contract(min = -1)]
    pub quantity: u32,
}

fn main() {}
