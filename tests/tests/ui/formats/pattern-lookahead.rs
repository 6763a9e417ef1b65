use contract_runtime::Contract;

#[derive(Contract)]
pub struct Parcel {
    #[contract(pattern = "^(?=[A-Z])[A-Z0-9]{6}$")]
    pub code: String,
}

fn main() {}
