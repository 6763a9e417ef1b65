use contract_runtime::Contract;

#[derive(Contract)]
#[contract(order(draft <= published))]
pub struct Post {
    pub draft: bool,
    pub published: bool,
}

fn main() {}
