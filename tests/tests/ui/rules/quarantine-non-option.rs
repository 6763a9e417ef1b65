use contract_runtime::Contract;

#[derive(Contract)]
pub struct Extraction {
    #[contract(quarantine, max_len = 200)]
    pub summary: String,
}

fn main() {}
