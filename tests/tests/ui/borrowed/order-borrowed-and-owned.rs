use contract_runtime::Contract;

#[derive(Contract)]
#[contract(order(first <= last))]
pub struct Range<'a> {
    pub first: &'a str,
    pub last: String,
}

fn main() {}
