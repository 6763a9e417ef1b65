use contract_runtime::Contract;

#[derive(Contract)]
pub struct Org {
    pub lead: Team,
}

#[derive(Contract)]
pub struct Team {
    pub runs: Option<Org>,
}

fn main() {}
