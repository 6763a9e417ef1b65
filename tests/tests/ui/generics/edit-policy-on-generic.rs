use contract_runtime::Contract;

#[derive(Contract)]
#[contract(edit(retitle = ["/next_cursor"]))]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next_cursor: Option<String>,
}

fn main() {}
