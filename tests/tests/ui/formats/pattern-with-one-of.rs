use contract_runtime::Contract;

#[derive(Contract)]
pub struct Parcel {
    #[contract(one_of = ["AB-1234", "CD-5678"], pattern = "^[A-Z]{2}-[0-9]{4}$")]
    pub code: String,
}

fn main() {}
