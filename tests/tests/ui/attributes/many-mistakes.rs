use contract_runtime::Contract;

#[derive(Contract)]
#[contract(
    max_size = 4096,
    when(priority = 1, require(ghost)),
    order(title <= priority),
    edit(retitle = ["title"]),
)]
pub struct Ticket {
    #[contract(min_len = 1, min = 0)]
    pub title: String,
    #[contract(min = 5, max = 1)]
    pub priority: u8,
    #[contract(optional)]
    pub assignee: String,
}

fn main() {}
