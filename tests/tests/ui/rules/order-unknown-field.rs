use contract_runtime::{Contract, Date};

#[derive(Contract)]
#[contract(order(start_date <= end))]
pub struct Booking {
    pub start_date: Date,
    pub end_date: Date,
}

fn main() {}
