use contract_runtime::Contract;

/// A page of any contract; the user's bounds and `where` clause are kept.
#[derive(Contract, Debug, Clone)]
pub struct Page<T: std::fmt::Debug>
where
    T: Clone,
{
    pub items: Vec<T>,
    pub next_cursor: Option<String>,
}

/// Two type parameters, one nested in the other's instantiation.
#[derive(Contract, Debug, Clone)]
pub struct Pair<A, B> {
    pub first: A,
    pub second: Option<B>,
}

#[derive(Contract, Debug, Clone)]
pub struct Ticket {
    pub id: u64,
}

#[derive(Contract, Debug, Clone)]
#[contract(edit(retitle = ["/page", "/pair"]))]
pub struct Inbox {
    pub page: Page<Ticket>,
    pub pair: Pair<Page<Ticket>, Ticket>,
}

fn main() {
    assert_eq!(<Pair<Page<Ticket>, Ticket>>::schema_name(), "Pair-2-Page-1-Ticket-Ticket");
    let _ = Inbox::json_schema();
}
