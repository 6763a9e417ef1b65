use contract_runtime::Contract;

#[derive(Contract)]
pub struct Envelope {
    #[contract(equals = 1)]
    pub kind: String,
}

fn main() {}
