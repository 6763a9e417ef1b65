use contract_runtime::Contract;

#[derive(Contract)]
pub struct Order {
    #[contract(max = 9.5)]
    pub quantity: u32,
}

fn main() {}
