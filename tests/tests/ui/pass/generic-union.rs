use contract_runtime::Contract;

/// A generic tagged union: a struct-like variant holding `T`, a newtype
/// variant over a generic struct, a unit variant; the user's bounds and
/// `where` clause are kept.
#[derive(Contract, Debug, Clone)]
#[contract(tag = "kind", rename_all = "snake_case")]
pub enum Reply<T: std::fmt::Debug>
where
    T: Clone,
{
    Answer { value: T, also: Vec<T> },
    Wrapped(Inner<T>),
    #[contract(decline)]
    Nothing,
}

#[derive(Contract, Debug, Clone)]
pub struct Inner<T> {
    pub items: Vec<T>,
}

#[derive(Contract, Debug, Clone)]
pub struct Ticket {
    pub id: u64,
}

fn main() {
    assert_eq!(<Reply<Ticket>>::schema_name(), "Reply-1-Ticket");
    assert_eq!(<Reply<Inner<Ticket>>>::schema_name(), "Reply-1-Inner-1-Ticket");
    let _ = <Reply<Ticket>>::json_schema();
}
