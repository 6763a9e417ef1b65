use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tools)]
pub enum Tools<'a> {
    Close { reason: &'a str },
}

fn main() {}
