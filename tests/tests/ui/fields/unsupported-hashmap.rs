use std::collections::HashMap;

use contract_runtime::Contract;

#[derive(Contract)]
pub struct Ticket {
    pub labels: HashMap<String, String>,
}

fn main() {}
