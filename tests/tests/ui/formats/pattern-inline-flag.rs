use contract_runtime::Contract;

#[derive(Contract)]
pub struct Parcel {
    #[contract(pattern = "(?i)^[a-z]{2}-[0-9]{4}$")]
    pub code: String,
}

fn main() {}
