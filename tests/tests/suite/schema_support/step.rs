//! The tagged union example of the README (`contract_examples::step`): the
//! union tests, the schema snapshot and the schema agreement test share it.
pub use contract_examples::step::{Refund, Step};
