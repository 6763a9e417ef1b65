use contract_runtime::{Contract, Violation};

fn known(_: &Tool, _: &()) -> Result<(), Violation> {
    Ok(())
}

#[derive(Contract)]
#[contract(tools, check = known)]
pub enum Tool {
    Close { reason: String },
}

fn main() {}
