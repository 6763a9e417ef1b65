use contract_runtime::Contract;

#[derive(Contract)]
pub struct Parcel {
    #[contract(format = "email")]
    pub recipients: Vec<String>,
}

fn main() {}
