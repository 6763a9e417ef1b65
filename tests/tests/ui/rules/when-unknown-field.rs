use contract_runtime::{Contract, Date};

#[derive(Contract)]
#[contract(when(state = Status::Complete, require(start_date)))]
pub struct Request {
    pub status: Status,
    pub start_date: Option<Date>,
}

#[derive(Contract, Clone, Copy)]
#[contract(rename_all = "snake_case")]
pub enum Status {
    Complete,
    #[contract(clarify)]
    NeedsClarification,
}

fn main() {}
