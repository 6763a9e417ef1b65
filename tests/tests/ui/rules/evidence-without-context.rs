use contract_runtime::Contract;

#[derive(Contract)]
pub struct Extraction {
    #[contract(evidence)]
    pub quote: String,
}

fn main() {}
