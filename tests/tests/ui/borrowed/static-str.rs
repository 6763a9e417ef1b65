use contract_runtime::Contract;

#[derive(Contract)]
pub struct Note<'a> {
    pub text: &'a str,
    pub title: &'static str,
}

fn main() {}
