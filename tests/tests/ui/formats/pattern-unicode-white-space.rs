use contract_runtime::Contract;

#[derive(Contract)]
pub struct Parcel {
    #[contract(pattern = r"^[A-Z]+\s[0-9]+$")]
    pub code: Option<String>,
}

fn main() {}
