//! A contract bound to the request for the bound-export benchmark
//! (`bound.rs`): an order whose customer (an integer) and product (a
//! string) must be among the catalog's, `one_of = ctx.FIELD`.
#![allow(dead_code)]

use contract_runtime::Contract;

/// The trusted context: the customers and products of this request.
pub struct Catalog {
    pub customer_ids: Vec<u64>,
    pub skus: Vec<String>,
}

impl Catalog {
    /// `n` customers and `n` products (`sku-0000000`, 11 characters).
    pub fn of(n: usize) -> Catalog {
        Catalog {
            customer_ids: (1..=n as u64).map(|i| i * 7).collect(),
            skus: (0..n).map(|i| format!("sku-{i:07}")).collect(),
        }
    }
}

/// One order line taken from a customer's e-mail.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Catalog)]
pub struct Order {
    /// The customer who orders.
    #[contract(min = 1, one_of = ctx.customer_ids)]
    pub customer_id: u64,
    /// The product ordered.
    #[contract(min_len = 1, max_len = 32, one_of = ctx.skus)]
    pub sku: String,
    /// How many.
    #[contract(min = 1, max = 100)]
    pub quantity: u32,
    /// Anything the customer added.
    #[contract(max_len = 200)]
    pub note: Option<String>,
}
