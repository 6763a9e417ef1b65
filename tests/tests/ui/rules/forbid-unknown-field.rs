use contract_runtime::Contract;

#[derive(Contract)]
#[contract(when(status = Status::Complete, forbid(question)))]
pub struct Request {
    pub status: Status,
    pub clarification_question: Option<String>,
}

#[derive(Contract, Clone, Copy)]
#[contract(rename_all = "snake_case")]
pub enum Status {
    Complete,
    #[contract(clarify)]
    NeedsClarification,
}

fn main() {}
