use contract_runtime::{Contract, Violation};

fn known(_: &Step, _: &()) -> Result<(), Violation> {
    Ok(())
}

#[derive(Contract)]
#[contract(tag = "action", check = known)]
pub enum Step {
    Close { reason: String },
}

fn main() {}
