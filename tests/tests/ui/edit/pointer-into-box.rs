use contract_runtime::Contract;

#[derive(Contract)]
#[contract(edit(relabel = ["/left/value"]))]
pub struct Node {
    pub value: u8,
    pub left: Option<Box<Node>>,
}

fn main() {}
