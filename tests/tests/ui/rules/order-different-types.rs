use contract_runtime::{Contract, Date};

#[derive(Contract)]
#[contract(order(start_date <= nights))]
pub struct Booking {
    pub start_date: Date,
    pub nights: u32,
}

fn main() {}
