use contract_runtime::Contract;

#[derive(Contract)]
pub struct Parcel {
    #[contract(pattern = "^[0-9]+$")]
    pub weight: u32,
}

fn main() {}
