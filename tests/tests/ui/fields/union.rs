use contract_runtime::Contract;

#[derive(Contract)]
pub union Number {
    pub int: u64,
    pub float: f64,
}

fn main() {}
