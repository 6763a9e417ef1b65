use contract_runtime::{Contract, Date, DateTime};

#[derive(Contract)]
#[contract(order(due_on <= delivered_at))]
pub struct Delivery {
    pub due_on: Date,
    pub delivered_at: Option<DateTime>,
}

fn main() {}
