use contract_runtime::Contract;

#[derive(Contract)]
#[contract(edit(retitle = ["/title"]))]
pub struct Ticket<'a> {
    pub title: &'a str,
}

fn main() {}
