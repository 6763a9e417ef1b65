use contract_runtime::Contract;

#[derive(Contract)]
pub struct Parcel {
    #[contract(pattern = "^a++$")]
    pub code: String,
}

fn main() {}
