use contract_runtime::Contract;

/// Recursion through `Vec`, `Option<Box<_>>`, `Box` in a union variant, and
/// a struct and a union that hold each other.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Tree {
    pub name: String,
    pub children: Vec<Tree>,
    pub left: Option<Box<Tree>>,
}

#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "op", rename_all = "snake_case")]
pub enum Filter {
    All { of: Vec<Filter> },
    Not { filter: Box<Filter> },
    Cond(Cond),
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Cond {
    pub field: String,
    pub unless: Option<Box<Filter>>,
}

/// Edit pointers may name a recursive field, and go through a recursive
/// type held by value.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(edit(rename = ["/tree/name", "/tree/left", "/tree/children", "/filter"]))]
pub struct Doc {
    pub tree: Tree,
    pub filter: Filter,
}

fn main() {
    let _ = Doc::json_schema();
}
