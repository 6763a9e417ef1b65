use contract_runtime::Contract;

#[derive(Contract)]
pub struct Ticket {
    pub title: std::rc::Rc<String>,
}

fn main() {}
