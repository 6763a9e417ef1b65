use contract_runtime::Contract;

#[derive(Contract)]
pub struct Ticket {
    pub title: Box<String>,
}

fn main() {}
