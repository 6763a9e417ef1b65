use contract_runtime::{Contract, Violation};

#[derive(Contract)]
#[contract(check = known_ticket)]
pub struct Close {
    pub ticket_id: u64,
}

fn known_ticket(_: &Close, _: &()) -> Result<(), Violation> {
    Ok(())
}

fn main() {}
