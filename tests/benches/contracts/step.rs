//! The union group: `contract_examples::step::Step`, one document per
//! variant, with the tag first and with the tag last, against serde_json's
//! derive on an equivalent internally tagged enum (`serde_a::Step`).

/// One document per variant, the tag first (as models usually write it).
pub const TAG_FIRST: [&str; 4] = [
    r#"{"action":"close_ticket","ticket_id":7,"reason":"resolved by the customer"}"#,
    r#"{"action":"refund","order_id":4411,"refund_cents":1500,"order_total_cents":4999}"#,
    r#"{"action":"ask_customer","question":"Which order do you mean?"}"#,
    r#"{"action":"no_action"}"#,
];

/// The same documents with the tag last (a unit variant's object holds the
/// tag alone, so its document is the same).
pub const TAG_LAST: [&str; 4] = [
    r#"{"ticket_id":7,"reason":"resolved by the customer","action":"close_ticket"}"#,
    r#"{"order_id":4411,"refund_cents":1500,"order_total_cents":4999,"action":"refund"}"#,
    r#"{"question":"Which order do you mean?","action":"ask_customer"}"#,
    r#"{"action":"no_action"}"#,
];

/// What a user would write with serde alone: the same tag, names and
/// closed objects; no bounds, no `order` rule, no outcome.
pub mod serde_a {
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
    pub enum Step {
        CloseTicket { ticket_id: u64, reason: String },
        Refund(Refund),
        AskCustomer { question: String },
        NoAction,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Refund {
        pub order_id: u64,
        pub refund_cents: u32,
        pub order_total_cents: u32,
    }
}
