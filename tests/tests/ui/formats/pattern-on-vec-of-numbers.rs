use contract_runtime::Contract;

#[derive(Contract)]
pub struct Parcel {
    #[contract(pattern = "^[0-9]{2}$")]
    pub weights: Vec<u32>,
}

fn main() {}
