use contract_runtime::Contract;

// A tool's arguments are checked as a struct's members.
#[derive(Contract)]
#[contract(tools)]
#[contract(rename_all = "snake_case")]
pub enum Tool {
    #[contract(order(start <= missing))]
    Book {
        #[contract(min = 5, max = 1)]
        start: u32,
        #[contract(min_len = 1)]
        nights: u8,
    },
}

fn main() {}
