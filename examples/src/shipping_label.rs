//! A shipping label read from a photo of a parcel (`shipping-label`; not a
//! seed): codes whose shape a `pattern` fixes, on single strings and on
//! every item of a list.
//!
//! A model that reads a label makes small, plausible mistakes: a lowercase
//! letter, a postal code without its dash, a tariff code with a digit
//! missing. Each is a `pattern_mismatch` at the value's pointer (an item's
//! own, `/hs_codes/1`), and the schema sent to the provider carries the
//! same patterns (`items.pattern` for the list).
//!
//! ```
//! use contract_examples::shipping_label::ShippingLabel;
//! use contract_runtime::Contract;
//!
//! let ok = ShippingLabel::from_json(
//!     r#"{"tracking_code":"RA123456789BR","postal_code":"01310-100","country":"BR","hs_codes":["490110"],"recipient_email":null}"#,
//! );
//! assert_eq!(ok.unwrap().country, "BR");
//!
//! let bad = ShippingLabel::from_json(
//!     r#"{"tracking_code":"RA123456789BR","postal_code":"01310100","country":"BR","hs_codes":["490110","4901"],"recipient_email":null}"#,
//! )
//! .unwrap_err();
//! assert_eq!(bad.pointers(), ["/postal_code", "/hs_codes/1"]);
//! assert_eq!(bad.errors[1].code, "pattern_mismatch");
//! ```
use contract_runtime::Contract;

/// What a shipping label says, as printed.
#[derive(Contract, Debug, Clone, PartialEq, Eq)]
#[contract(max_bytes = 4096)]
pub struct ShippingLabel {
    /// The tracking code: two capital letters, nine digits, two capital
    /// letters (`RA123456789BR`).
    #[contract(pattern = "^[A-Z]{2}[0-9]{9}[A-Z]{2}$")]
    pub tracking_code: String,
    /// The destination's postal code, with its dash (`01310-100`).
    #[contract(pattern = "^[0-9]{5}-[0-9]{3}$")]
    pub postal_code: String,
    /// The destination country: two capital letters (`BR`).
    #[contract(pattern = "^[A-Z]{2}$")]
    pub country: String,
    /// The customs tariff codes of the contents, six digits each, at most
    /// five.
    #[contract(max_len = 5, pattern = "^[0-9]{6}$")]
    pub hs_codes: Vec<String>,
    /// The recipient's e-mail address, or null when none is printed.
    #[contract(format = "email")]
    pub recipient_email: Option<String>,
}
