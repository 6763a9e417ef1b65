use contract_runtime::Contract;

pub struct Desk;
pub struct Tenant;

#[derive(Contract)]
#[contract(context = Tenant)]
pub struct Refund {
    pub order_id: u64,
}

#[derive(Contract)]
#[contract(tag = "action", context = Desk)]
pub enum Step {
    Refund(Refund),
}

fn main() {}
