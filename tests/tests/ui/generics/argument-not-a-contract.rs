use contract_runtime::Contract;

#[derive(Contract)]
pub struct Page<T> {
    pub items: Vec<T>,
}

#[derive(Contract)]
pub struct Inbox {
    pub numbers: Page<u64>,
}

fn main() {}
