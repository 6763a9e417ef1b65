use std::collections::BTreeMap;

use contract_runtime::Contract;

// A map owns its values: `BTreeMap<String, String>`.
#[derive(Contract)]
pub struct Labels<'a> {
    pub name: &'a str,
    pub labels: BTreeMap<String, &'a str>,
}

fn main() {}
