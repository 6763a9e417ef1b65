use contract_runtime::Contract;

#[derive(Contract)]
pub struct Ticket {
    pub title: &'static str,
}

fn main() {}
