use contract_runtime::Contract;

// A unit enum is a string it matches, not keeps.
#[derive(Contract)]
pub enum Status<'a> {
    Open,
    Closed,
}

fn main() {}
