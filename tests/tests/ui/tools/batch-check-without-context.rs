use contract_runtime::{Contract, Violation};

fn one_close(_: &[Tool], _: &()) -> Result<(), Violation> {
    Ok(())
}

#[derive(Contract)]
#[contract(tools, batch_check = one_close)]
pub enum Tool {
    Close { reason: String },
}

fn main() {}
