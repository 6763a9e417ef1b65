use contract_runtime::Contract;

#[derive(Contract)]
pub enum Level<T> {
    Low,
    High,
}

fn main() {}
