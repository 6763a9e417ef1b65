use contract_runtime::Contract;

#[derive(Contract)]
pub enum Status {
    Open,
    Closed { reason: String },
}

fn main() {}
