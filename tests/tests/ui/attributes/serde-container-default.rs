use contract_runtime::Contract;

#[derive(Contract, serde::Deserialize, Default)]
#[serde(default)]
pub struct Settings {
    pub retry_limit: u32,
}

fn main() {}
