use contract_runtime::Contract;

#[derive(Contract)]
pub struct Node {
    pub value: u8,
    pub next: Option<Node>,
}

fn main() {}
