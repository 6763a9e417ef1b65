use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tag = "kind")]
pub enum Either<T> {
    One { value: T },
    None,
}

fn main() {}
