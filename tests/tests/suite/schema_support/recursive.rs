//! Recursive and generic contracts: a tree of itself, a binary tree through
//! `Option<Box<_>>`, two structs that refer to each other, a filter tree
//! through a tagged union, and a generic page instantiated twice.
use contract_runtime::Contract;

/// A category and its subcategories.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(max_depth = 64)]
pub struct Tree {
    /// The category's name.
    #[contract(min_len = 1, max_len = 40)]
    pub name: String,
    /// Subcategories, each a tree.
    pub children: Vec<Tree>,
}

/// A binary tree node.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Node {
    /// The node's value.
    #[contract(min = -100, max = 100)]
    pub value: i32,
    /// The left subtree, or null.
    pub left: Option<Box<Node>>,
    /// The right subtree, or null.
    pub right: Option<Box<Node>>,
}

/// An organisation: teams, each of which may run a sub-organisation.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Org {
    /// The organisation's name.
    #[contract(min_len = 1)]
    pub name: String,
    /// Its teams.
    #[contract(max_len = 4)]
    pub teams: Vec<Team>,
}

/// A team of an [`Org`].
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Team {
    /// Who leads the team.
    #[contract(min_len = 1)]
    pub lead: String,
    /// The organisation the team runs, if any; the key may be absent.
    #[contract(optional)]
    pub runs: Option<Box<Org>>,
}

/// A search filter: conditions combined with `all` and `any`.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "op", rename_all = "snake_case", max_depth = 64)]
pub enum Filter {
    /// Every filter holds.
    All {
        /// The filters.
        #[contract(min_len = 1, max_len = 8)]
        of: Vec<Filter>,
    },
    /// At least one filter holds.
    Any {
        /// The filters.
        #[contract(min_len = 1, max_len = 8)]
        of: Vec<Filter>,
    },
    /// One condition.
    Cond(Cond),
}

/// A condition on one field, with an optional exception.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Cond {
    /// The field compared.
    #[contract(one_of = ["status", "owner", "priority"])]
    pub field: String,
    /// The value it must equal.
    #[contract(max_len = 20)]
    pub equals: String,
    /// A filter under which the condition does not apply, or null.
    pub unless: Option<Box<Filter>>,
}

/// One page of results of any contract type.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Page<T> {
    /// The results on this page.
    #[contract(max_len = 5)]
    pub items: Vec<T>,
    /// Where the next page starts, or null on the last one.
    #[contract(min_len = 1)]
    pub next_cursor: Option<String>,
}

/// A support ticket.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Ticket {
    /// The ticket's number.
    #[contract(min = 1)]
    pub id: u64,
    /// Its title.
    #[contract(min_len = 1, max_len = 80)]
    pub title: String,
}

/// A person.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Person {
    /// The person's name.
    #[contract(min_len = 1)]
    pub name: String,
}

/// A struct whose Rust name is what a careless scheme would make of
/// `Page<Ticket>`.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct PageTicket {
    /// A note.
    pub note: String,
}

/// Search results: pages of two types (and of a recursive one), side by side.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Listing {
    /// Tickets found.
    pub tickets: Page<Ticket>,
    /// People found.
    pub people: Page<Person>,
    /// Categories found.
    pub categories: Page<Tree>,
    /// Not a page.
    pub other: PageTicket,
}
