use contract_runtime::Contract;

#[derive(Contract)]
#[contract(outcome = state)]
pub struct Request {
    pub status: Status,
}

#[derive(Contract, Clone, Copy)]
#[contract(rename_all = "snake_case")]
pub enum Status {
    Complete,
    #[contract(clarify)]
    NeedsClarification,
}

fn main() {}
