//! `#[derive(Contract)]`: use it through `contract_runtime`, which re-exports it.
//!
//! The pipeline, one module per step: `attr` (read attributes) → `model`
//! (the raw model: the input as the derive sees it) → `check` (every
//! inconsistency, with spans) → `checked` (the checked model: names
//! resolved, each member's constraints typed) → `expand` (one generator per
//! output: decode, encode, schema, shape, rules, business, edit, reading
//! only the checked model). `expand::derive` runs it.
//!
//! `regex-syntax` (without its Unicode tables) parses `pattern` literals, so
//! a pattern our matcher and JSON Schema's ECMA-262 matchers would read
//! differently is a compile error (`pattern.rs`).
use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

mod attr;
mod case;
mod check;
mod checked;
mod ctxt;
mod expand;
mod model;
mod pattern;
mod pointer;
mod suggest;
mod symbol;
mod ty;

#[proc_macro_derive(Contract, attributes(contract))]
pub fn derive_contract(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
