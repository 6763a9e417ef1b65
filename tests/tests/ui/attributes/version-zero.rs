use contract_runtime::Contract;

#[derive(Contract)]
#[contract(version = 0)]
pub struct Request {
    pub id: u64,
}

fn main() {}
