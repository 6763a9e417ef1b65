use contract_runtime::Contract;

#[derive(Contract)]
pub struct Ticket {
    pub assignee: Option<Option<String>>,
}

fn main() {}
