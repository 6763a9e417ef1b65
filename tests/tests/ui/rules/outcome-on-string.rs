use contract_runtime::Contract;

#[derive(Contract)]
#[contract(outcome = status)]
pub struct Request {
    pub status: String,
}

fn main() {}
