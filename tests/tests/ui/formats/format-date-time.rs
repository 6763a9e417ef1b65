use contract_runtime::Contract;

#[derive(Contract)]
pub struct Contact {
    #[contract(format = "date-time")]
    pub since: String,
}

fn main() {}
