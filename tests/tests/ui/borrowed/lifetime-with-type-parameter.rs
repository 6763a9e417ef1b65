use contract_runtime::Contract;

// Its `'static` form is the contract: a type parameter beside the lifetime
// would multiply its instantiations.
#[derive(Contract)]
pub struct Page<'a, T> {
    pub cursor: &'a str,
    pub items: Vec<T>,
}

fn main() {}
