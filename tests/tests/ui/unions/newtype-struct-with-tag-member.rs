use contract_runtime::Contract;

#[derive(Contract)]
pub struct Refund {
    pub action: String,
    pub order_id: u64,
}

#[derive(Contract)]
#[contract(tag = "action")]
pub enum Step {
    Refund(Refund),
}

fn main() {}
