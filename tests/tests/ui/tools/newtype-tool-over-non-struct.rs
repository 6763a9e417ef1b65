use contract_runtime::Contract;

#[derive(Contract)]
pub enum Color {
    Red,
    Blue,
}

#[derive(Contract)]
#[contract(tools)]
pub enum Tool {
    Paint(Color),
}

fn main() {}
