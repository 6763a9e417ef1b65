use contract_runtime::Contract;

#[derive(Contract)]
pub struct Contact {
    #[contract(equals = "ops@example.com", format = "email")]
    pub address: String,
}

fn main() {}
