use contract_runtime::Contract;

#[derive(Contract)]
pub struct Contact {
    #[contract(format = "uuid")]
    pub id: u64,
}

fn main() {}
