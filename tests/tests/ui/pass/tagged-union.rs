use contract_runtime::Contract;

// A tagged union with every kind of variant, renamed members, variant rules,
// a serde tag that agrees, and an edit policy through a union-typed field.
#[derive(Contract, serde::Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
#[contract(tag = "action", rename_all = "snake_case")]
pub enum Step {
    #[contract(order(min_minutes <= max_minutes))]
    Wait {
        #[contract(min = 1)]
        min_minutes: u32,
        max_minutes: u32,
    },
    Refund(Refund),
    #[contract(decline)]
    #[serde(rename = "none")]
    Nothing,
}

#[derive(Contract, serde::Deserialize)]
pub struct Refund {
    pub order_id: u64,
}

#[derive(Contract)]
#[contract(outcome = step, edit(reschedule = ["/step/max_minutes", "/step/action", "/step/order_id"]))]
pub struct Plan {
    pub step: Step,
}

fn main() {}
