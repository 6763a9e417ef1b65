use contract_runtime::Contract;

#[derive(Contract)]
#[contract(decline)]
pub struct Request {
    pub question: Option<String>,
}

fn main() {}
