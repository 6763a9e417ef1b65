use contract_runtime::Contract;

#[derive(Contract)]
pub struct Contact {
    #[contract(format = "emial")]
    pub address: String,
}

fn main() {}
