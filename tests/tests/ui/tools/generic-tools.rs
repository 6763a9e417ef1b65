use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tools)]
pub enum Tool<T> {
    Store { value: T },
}

fn main() {}
