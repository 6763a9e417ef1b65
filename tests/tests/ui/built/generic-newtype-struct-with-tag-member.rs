use contract_runtime::Contract;

#[derive(Contract)]
pub struct Refund<T> {
    pub action: String,
    pub order: T,
}

#[derive(Contract)]
pub struct Order {
    pub id: u64,
}

#[derive(Contract)]
#[contract(tag = "action")]
pub enum Step<T> {
    Refund(Refund<T>),
}

fn main() {
    // A generic union's check runs for each instantiation that is decoded.
    let _ = Step::<Order>::from_json("{}");
}
