// The vacation contract of seed 004, as `examples/src/vacation.rs` declares
// it, written in a user's crate.
use contract_runtime::{Contract, Date};

/// A vacation request extracted from an employee's message.   // -> schema "description"
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    max_bytes = 4096,
    outcome = status,
    when(status = Status::Complete, require(start_date, end_date), forbid(clarification_question)),
    when(status = Status::NeedsClarification, require(clarification_question)),
    when(status = Status::NotARequest, forbid(start_date, end_date)),
    order(start_date <= end_date),
)]
pub struct VacationRequest {
    pub status: Status,
    pub start_date: Option<Date>,
    pub end_date: Option<Date>,
    #[contract(min_len = 1, max_len = 500)]
    pub clarification_question: Option<String>,
}

#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
pub enum Status {
    Complete,
    #[contract(clarify)] NeedsClarification,
    #[contract(decline)] NotARequest,
}

fn main() {
    let _ = VacationRequest::check("{}");
}
