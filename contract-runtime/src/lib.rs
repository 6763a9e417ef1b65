//! Declare what JSON from a language model must look like, and what it may
//! change, as a Rust type; the derive checks the declaration at compile time.
#![deny(missing_docs)]

extern crate self as contract_runtime;

pub mod date;
pub mod diff;
pub mod error;
pub mod json;
pub mod pointer;

pub use error::{Error, Rejection, Stage};
