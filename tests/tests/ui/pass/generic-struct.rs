use contract_runtime::Contract;

#[derive(Contract)]
pub struct Page<T> {
    pub items: Vec<T>,
}

fn main() {}
