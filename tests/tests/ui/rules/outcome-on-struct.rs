use contract_runtime::Contract;

#[derive(Contract)]
#[contract(outcome = details)]
pub struct Request {
    pub details: Details,
}

#[derive(Contract)]
pub struct Details {
    pub note: String,
}

fn main() {}
