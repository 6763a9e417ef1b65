use contract_runtime::Contract;

#[derive(Contract)]
pub struct Note<'a: 'static> {
    pub text: &'a str,
}

fn main() {}
