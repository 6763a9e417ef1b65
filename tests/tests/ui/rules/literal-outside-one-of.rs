use contract_runtime::Contract;

#[derive(Contract)]
#[contract(when(action = "close_tickt", require(resolution)))]
pub struct Command {
    #[contract(one_of = ["close_ticket", "reopen_ticket"])]
    pub action: String,
    pub resolution: Option<String>,
}

fn main() {}
