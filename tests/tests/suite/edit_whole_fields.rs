//! A policy pointer naming a field covers the field as a whole, whatever it
//! holds: a change anywhere inside a map, a `Box`ed (recursive) value or a
//! nested contract is allowed, as a change to an array is; a sibling whose
//! name merely starts the same is not covered.
use std::collections::BTreeMap;

use contract_runtime::{Contract, Rejection, Stage};
use serde_json::{Value, json};

/// A nested contract held by value.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Inner {
    /// A flag.
    pub on: bool,
}

/// A recursive chain with a map at every link.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(edit(
    tags = ["/m"],
    tail = ["/next"],
    inner = ["/inner"],
))]
pub struct Chain {
    /// A small count.
    #[contract(max = 9)]
    pub v: u8,
    /// Named counts.
    pub m: BTreeMap<String, u8>,
    /// A field whose name starts as `m` does.
    pub mx: u8,
    /// A nested contract.
    pub inner: Inner,
    /// The next link, or null.
    pub next: Option<Box<Chain>>,
}

fn baseline() -> Value {
    json!({
        "v": 1, "m": {"a": 1, "b": 2}, "mx": 0, "inner": {"on": true},
        "next": {"v": 2, "m": {}, "mx": 0, "inner": {"on": false}, "next": null}
    })
}

fn with(pointer: &str, value: Value) -> String {
    let mut doc = baseline();
    *doc.pointer_mut(pointer).unwrap() = value;
    doc.to_string()
}

fn codes(rejection: &Rejection) -> Vec<(Stage, &str, &str)> {
    rejection
        .errors
        .iter()
        .map(|e| (e.stage, e.pointer.as_str(), e.code))
        .collect()
}

#[test]
fn a_policy_naming_a_map_field_allows_a_change_inside_it() {
    let edit = Chain::TAGS
        .check(&baseline(), &with("/m/a", json!(5)))
        .unwrap();
    assert_eq!(edit.changed, ["/m/a"]);
}

#[test]
fn a_policy_naming_a_map_field_allows_adding_and_removing_keys() {
    let edit = Chain::TAGS
        .check(&baseline(), &with("/m", json!({"a": 1, "c": 3})))
        .unwrap();
    assert_eq!(edit.changed, ["/m/b", "/m/c"]);
}

#[test]
fn a_policy_naming_a_boxed_field_allows_a_change_deep_inside_it() {
    let edit = Chain::TAIL
        .check(&baseline(), &with("/next/m", json!({"z": 9})))
        .unwrap();
    assert_eq!(edit.changed, ["/next/m/z"]);
    let edit = Chain::TAIL
        .check(&baseline(), &with("/next/v", json!(3)))
        .unwrap();
    assert_eq!(edit.changed, ["/next/v"]);
}

#[test]
fn a_policy_naming_a_nested_contract_field_allows_a_change_inside_it() {
    let edit = Chain::INNER
        .check(&baseline(), &with("/inner/on", json!(false)))
        .unwrap();
    assert_eq!(edit.changed, ["/inner/on"]);
}

#[test]
fn a_change_inside_a_covered_field_still_passes_the_contract() {
    let rejection = Chain::TAIL
        .check(&baseline(), &with("/next/v", json!(10)))
        .unwrap_err();
    assert_eq!(
        codes(&rejection),
        [(Stage::Schema, "/next/v", "above_maximum")]
    );
}

#[test]
fn a_listed_pointer_does_not_cover_a_sibling_that_starts_with_its_name() {
    let rejection = Chain::TAGS
        .check(&baseline(), &with("/mx", json!(1)))
        .unwrap_err();
    assert_eq!(
        codes(&rejection),
        [(Stage::Edit, "/mx", "change_not_allowed")]
    );
}

#[test]
fn a_listed_pointer_does_not_cover_its_parent_or_siblings() {
    let rejection = Chain::TAIL
        .check(&baseline(), &with("/v", json!(2)))
        .unwrap_err();
    assert_eq!(
        codes(&rejection),
        [(Stage::Edit, "/v", "change_not_allowed")]
    );
    assert!(!Chain::TAIL.allows(""));
}
