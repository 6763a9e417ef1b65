use std::collections::BTreeMap;

use contract_runtime::{Contract, Date};

/// Every supported field type, with the naming and presence attributes.
#[derive(Contract, Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[contract(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Everything {
    pub flag: bool,
    #[contract(min = 1, max = 200)]
    pub small: u8,
    pub word: u16,
    pub unsigned: u32,
    pub long: u64,
    pub size: usize,
    #[contract(min = -100)]
    pub tiny: i8,
    pub short: i16,
    pub int: i32,
    pub signed: i64,
    pub isize_value: isize,
    #[contract(min = 0.0, max = 1)]
    pub ratio: f32,
    pub precise: f64,
    #[contract(min_len = 1, max_len = 80)]
    pub title: String,
    pub due: Date,
    pub note: Option<String>,
    #[contract(max_len = 10)]
    pub tags: Vec<String>,
    pub scores: BTreeMap<String, u32>,
    pub nested: Nested,
    pub kind: Kind,
    pub maybe_kind: Option<Kind>,
    #[contract(rename = "ID")]
    #[serde(rename = "ID")]
    pub id: u64,
    #[contract(optional)]
    pub comment: Option<String>,
    #[contract(optional, default)]
    #[serde(default)]
    pub retries: u8,
    #[contract(equals = "v1")]
    pub version: String,
    #[contract(one_of = [1, 2, 3])]
    pub level: u8,
}

#[derive(Contract, Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Nested {
    pub list: Vec<Nested2>,
}

#[derive(Contract, Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Nested2 {
    pub on: bool,
}

#[derive(Contract, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[contract(rename_all = "kebab-case")]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Bug,
    FeatureRequest,
    #[contract(rename = "q")]
    #[serde(rename = "q")]
    Question,
}

fn main() {
    let schema = Everything::json_schema();
    assert!(schema.is_object());
}
