use contract_runtime::Contract;

pub struct Desk;
pub struct Tenant;

#[derive(Contract)]
#[contract(tag = "action", context = Desk)]
pub enum Step {
    Close { reason: String },
}

#[derive(Contract)]
#[contract(context = Tenant)]
pub struct Plan {
    pub next: Option<Step>,
}

fn main() {}
