//! A contract of this crate's own and the `contract-check` it gets through
//! the public API of `contract_runtime::cli` (binary `refund-check`), as a
//! user's crate would write them.
use contract_runtime::cli::{Entry, entry};
use contract_runtime::{Contract, Violation};
use serde::Deserialize;

/// A refund the model proposes for one order of the shop.
#[derive(Contract, Debug)]
#[contract(context = Shop, check = within_the_shop_limit, order(refund_cents <= order_total_cents))]
pub struct Refund {
    /// The order.
    #[contract(min = 1)]
    pub order_id: u64,
    /// What to give back.
    pub refund_cents: u32,
    /// What the order cost.
    pub order_total_cents: u32,
}

/// Trusted values from `--context`: the shop's own limit on one refund.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shop {
    /// The largest refund the shop grants without a person.
    pub max_refund_cents: u32,
    /// Write a line to stderr for each refund over the limit, as a check
    /// that logs would (from whichever thread `--jobs` runs it on).
    #[serde(default)]
    pub log_refusals: bool,
}

fn within_the_shop_limit(refund: &Refund, shop: &Shop) -> Result<(), Violation> {
    if refund.refund_cents <= shop.max_refund_cents {
        Ok(())
    } else {
        if shop.log_refusals {
            eprintln!(
                "refund-check: order {} over the shop's limit",
                refund.order_id
            );
        }
        Err(Violation::business(
            "/refund_cents",
            "over_shop_limit",
            format!(
                "a refund above {} cents needs a person",
                shop.max_refund_cents
            ),
        ))
    }
}

/// A note the model writes; no context.
#[derive(Contract, Debug)]
pub struct Note {
    /// The note.
    #[contract(min_len = 1, max_len = 200)]
    pub text: String,
}

/// The entries of `refund-check`.
pub fn entries() -> Vec<Entry> {
    vec![
        entry::<Refund>("refund")
            .about("a refund for one order, within the shop's limit")
            .with_context::<Shop>(),
        entry::<Note>("note"),
    ]
}
