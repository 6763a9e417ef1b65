//! A generic tagged union, instantiated twice in one document.
use contract_runtime::Contract;

use super::recursive::{Page, Person, Ticket};

/// A reply about any contract type.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "kind", rename_all = "snake_case")]
pub enum Reply<T> {
    /// One value, with a remark.
    Answer {
        /// The value.
        value: T,
        /// A remark, or null.
        #[contract(min_len = 1, max_len = 40)]
        remark: Option<String>,
    },
    /// A page of values, its members beside the tag.
    Page(Page<T>),
    /// Nothing to reply.
    #[contract(decline)]
    Nothing,
}

/// Replies about tickets and about people, side by side.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Replies {
    /// About tickets.
    pub tickets: Reply<Ticket>,
    /// About people, or null.
    pub people: Option<Reply<Person>>,
    /// Earlier replies about tickets.
    #[contract(max_len = 3)]
    pub earlier: Vec<Reply<Ticket>>,
}
