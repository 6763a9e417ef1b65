use contract_runtime::Contract;

#[derive(Contract)]
pub struct Parcel {
    #[contract(pattern = "^(a{1000}){1000}$")]
    pub code: String,
}

fn main() {}
