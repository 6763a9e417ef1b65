use contract_runtime::Contract;

pub struct Desk {
    pub flags: Vec<bool>,
}

#[derive(Contract)]
#[contract(context = Desk)]
pub struct Settings {
    #[contract(one_of = ctx.flags)]
    pub on: bool,
}

fn main() {}
