use contract_runtime::Contract;

#[derive(Contract)]
#[contract(tag = "kind")]
pub enum Window {
    #[contract(order(start <= end))]
    Start { start: u32 },
    End { end: u32 },
}

fn main() {}
