use contract_runtime::Contract;

#[derive(Contract)]
#[contract(version = 2)]
pub enum Status {
    Open,
    Closed,
}

fn main() {}
