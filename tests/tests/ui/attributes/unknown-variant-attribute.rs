use contract_runtime::Contract;

#[derive(Contract)]
pub enum Status {
    Open,
    #[contract(reject)]
    Spam,
}

fn main() {}
