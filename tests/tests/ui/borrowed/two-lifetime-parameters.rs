use contract_runtime::Contract;

// A contract borrows from one text: one lifetime.
#[derive(Contract)]
pub struct Note<'a, 'b> {
    pub text: &'a str,
    pub title: &'b str,
}

fn main() {}
