use contract_runtime::Contract;

#[derive(Contract)]
pub struct Ticket {
    #[contract(max_len = 80, max_len = 120)]
    pub title: String,
}

fn main() {}
