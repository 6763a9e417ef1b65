use contract_runtime::Contract;

#[derive(Contract)]
pub struct Parcel {
    #[contract(pattern = "^[A-Z]{2}$")]
    pub countries: Vec<String>,
}

fn main() {}
