use contract_runtime::Contract;

#[derive(Contract)]
#[contract(clarify)]
pub struct Request {
    pub question: Option<String>,
}

fn main() {}
