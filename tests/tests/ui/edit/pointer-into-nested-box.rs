use contract_runtime::Contract;

#[derive(Contract)]
#[contract(edit(relabel = ["/root/left/value"]))]
pub struct Doc {
    pub root: Node,
}

#[derive(Contract)]
pub struct Node {
    pub value: u8,
    pub left: Option<Box<Node>>,
}

fn main() {}
