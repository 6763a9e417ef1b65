//! [`Checked<T>`]: a contract behind serde's `Deserialize`, so
//! `serde_json::from_str`, web extractors and queue consumers built on
//! serde_json run the whole contract, not a plain derive's looser reading.
//!
//! `Checked<T>` asks serde_json for the raw text of its value
//! ([`serde_json::value::RawValue`], serde_json's `raw_value` feature: the
//! one way to get the exact text of a value inside a larger document) and
//! runs [`Contract::from_json`] on it. Duplicate keys survive that capture:
//! the raw value borrows (or copies) the text as written.
//!
//! [`Checked`]'s docs say which layer reports what, and what other
//! deserializers get.
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::contract::Contract;
use crate::error::Rejection;

/// A `T` that passed its contract, deserialized through serde.
///
/// A plain `#[derive(serde::Deserialize)]` on the same struct reads
/// leniently: it ignores unknown keys, takes a missing `Option` as `None`
/// and knows no bounds. `Checked<T>` refuses what the contract refuses:
///
/// ```
/// use contract_runtime::{Checked, Contract};
///
/// #[derive(Contract, serde::Deserialize, Debug)]
/// struct Refund {
///     order: u64,
///     #[contract(max = 10_000)]
///     cents: u32,
///     note: Option<String>,
/// }
///
/// let lenient = r#"{"order": 7, "cents": 20000, "tip": 1}"#;
/// assert!(serde_json::from_str::<Refund>(lenient).is_ok());
/// assert!(serde_json::from_str::<Checked<Refund>>(lenient).is_err());
///
/// let refund = serde_json::from_str::<Checked<Refund>>(r#"{"order": 7, "cents": 500, "note": null}"#)
///     .unwrap();
/// assert_eq!(refund.order, 7); // derefs to `Refund`
/// let refund: Refund = refund.into_inner();
/// # let _ = refund;
///
/// // The serde error's message starts with the rejection as JSON.
/// let err = serde_json::from_str::<Checked<Refund>>(lenient).unwrap_err();
/// let rejection: serde_json::Value = serde_json::Deserializer::from_str(&err.to_string())
///     .into_iter()
///     .next()
///     .unwrap()
///     .unwrap();
/// let codes: Vec<_> = rejection["errors"].as_array().unwrap().iter().map(|e| e["code"].clone()).collect();
/// assert_eq!(codes, ["above_maximum", "unknown_key", "missing_key"]);
/// ```
///
/// # Warning: a co-derived `Deserialize` is not the contract
///
/// A crate that takes `P: DeserializeOwned + JsonSchema` (rmcp's tool
/// `Parameters<P>`, web frameworks, OpenAPI generators) tempts a
/// `#[derive(Contract, serde::Deserialize)]` on the type itself. **That
/// compiles, advertises the contract's schema (feature `schemars`) and
/// then reads with serde's derive, which checks none of it**: no pattern,
/// no bounds, no `when`/`order`, unknown keys ignored. A model that sends
/// `{"ticket_id":"nope","extra":true}` gets its call run:
///
/// ```
/// use contract_runtime::{Checked, Contract};
///
/// #[derive(Contract, serde::Deserialize, Debug)]
/// struct CloseTicket {
///     #[contract(pattern = "^T-[0-9]{1,8}$")]
///     ticket_id: String,
/// }
///
/// let wrong = r#"{"ticket_id":"nope","extra":true}"#;
/// assert!(serde_json::from_str::<CloseTicket>(wrong).is_ok()); // silently accepted
/// let err = serde_json::from_str::<Checked<CloseTicket>>(wrong).unwrap_err();
/// assert!(err.to_string().contains(r#""pointer":"/ticket_id""#)); // pattern_mismatch
/// assert!(err.to_string().contains(r#""pointer":"/extra""#)); // unknown_key
/// ```
///
/// Take `Checked<T>` where such a crate wants the type (`Parameters<Checked<T>>`):
/// it has `T`'s schema and runs `T`'s contract. The derive refuses the
/// `#[serde(..)]` attributes that would make serde's JSON differ from the
/// contract's (`flatten`, `untagged`, a container's `default`, a `default`
/// on a field that is not `optional`, `rename` that disagrees with the
/// contract's), but it cannot make serde's reading strict.
///
/// # Which layer reports what
///
/// serde_json scans the text first, to find where the value ends; what it
/// refuses never reaches the contract and comes back as serde_json's own
/// error (no rejection JSON):
///
/// - broken grammar (`{"a":1,}`, a missing quote, `NaN`, a comment), an
///   input that ends early, trailing data after the top-level value, a
///   leading byte-order mark, a bad `\` escape, an unescaped control
///   character in a string, invalid UTF-8 (`from_slice`). Around a
///   `Checked` field, serde_json's recursion limit (128) counts the levels
///   of the outer document; it scans the raw value itself without one.
///
/// Everything else is the contract's, reported as a [`Rejection`] whose JSON
/// form is the serde error's message (serde_json may append ` at line L
/// column C`):
///
/// - parse stage: `too_large` and `too_deep` (the contract's `max_bytes` and
///   `max_depth`, measured on the value's own text, so a `max_depth` above
///   128 is honoured), `duplicate_key` at any
///   depth, `lone_surrogate` (serde_json's scan lets `"\ud800"` through),
///   `number_overflow` (`1e400`);
/// - the schema and rule stages, as `from_json` runs them (no coercion, no
///   unknown keys, bounds, `when`, `order`). The business stage needs a
///   context and does not run.
///
/// # Other deserializers
///
/// - `serde_json::from_value` / `Value::deserialize`: the contract runs on
///   the value written back as compact text, and decides as
///   [`Contract::from_json`] on the original text, except where the `Value`
///   (serde_json without `arbitrary_precision`) has lost what was written:
///   - a duplicate key: the `Value` kept the last of them, so it is not
///     refused;
///   - `-0` for an integer field: the `Value` holds the float `-0.0`, so it
///     is refused (`invalid_type`) where the text is accepted as 0 (a float
///     field reads `-0` as `-0.0` from either);
///   - an integer beyond 64 bits for an integer field
///     (`18446744073709551616`): the `Value` holds the nearest float,
///     written back with an exponent, so `invalid_type` where the text
///     gives `out_of_range`;
///   - `max_bytes` and the line and column of a parse error are measured
///     on the written-back text (no whitespace, escapes decoded).
///
///   Everything else decides the same: `1.0` and `1e2` stay floats
///   (`invalid_type` for an integer field), an integer within 64 bits stays
///   exact, a float reads back to the same bits, and the errors come in the
///   text's order of keys (serde_json's `preserve_order`, which this
///   crate's default feature `preserve_order` turns on; without it a
///   `Value` sorts its keys).
/// - Any other format (YAML, a binary format, serde's `IntoDeserializer`
///   values) fails with an `invalid type` error that says `Checked<T>`
///   reads JSON text through serde_json.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Checked<T>(T);

impl<T> Checked<T> {
    /// The checked value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Checked<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> AsRef<T> for Checked<T> {
    fn as_ref(&self) -> &T {
        &self.0
    }
}

impl<T: Contract> Checked<T> {
    /// Checks `raw` as [`Contract::from_json`] does.
    pub fn from_json(raw: &str) -> Result<Self, Rejection> {
        T::from_json(raw).map(Checked)
    }
}

/// The contract's own schema (feature `schemars`): `Checked<T>` describes
/// itself exactly as `T` does (same name, same id, same body), so a crate
/// that takes `P: DeserializeOwned + JsonSchema` (rmcp's tool
/// `Parameters<P>`, an OpenAPI generator) advertises the schema of the
/// contract it then runs, and `Checked<T>` beside `T` in one generator
/// shares `T`'s definition.
///
/// ```
/// use contract_runtime::{Checked, Contract};
///
/// #[derive(Contract, Debug)]
/// struct CloseTicket {
///     #[contract(min = 1)]
///     ticket_id: u64,
/// }
///
/// let checked = schemars::schema_for!(Checked<CloseTicket>).to_value();
/// assert_eq!(checked, <CloseTicket as Contract>::json_schema());
/// ```
#[cfg(feature = "schemars")]
#[cfg_attr(docsrs, doc(cfg(feature = "schemars")))]
impl<T: Contract + ::schemars::JsonSchema> ::schemars::JsonSchema for Checked<T> {
    fn inline_schema() -> bool {
        <T as ::schemars::JsonSchema>::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        <T as ::schemars::JsonSchema>::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        <T as ::schemars::JsonSchema>::schema_id()
    }

    fn json_schema(generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
        <T as ::schemars::JsonSchema>::json_schema(generator)
    }
}

/// Written as [`Contract::to_json`] writes it, so a `Checked<T>` field
/// serializes to what it was read from (up to key order and whitespace).
impl<T: Contract> serde::Serialize for Checked<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.to_json().serialize(serializer)
    }
}

impl<'de, T: Contract> Deserialize<'de> for Checked<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(JsonTextOnly(deserializer))?;
        T::from_json(raw.get())
            .map(Checked)
            .map_err(|rejection| de::Error::custom(rejection_json(&rejection)))
    }
}

// A rejection serializes to JSON without fail (strings, numbers, lists); the
// fallback is its plain-text form should that ever change.
fn rejection_json(rejection: &Rejection) -> String {
    serde_json::to_string(rejection).unwrap_or_else(|_| rejection.to_string())
}

// Passes serde_json's raw-value request through and turns any other
// format's answer into an error that says what `Checked` needs.
struct JsonTextOnly<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for JsonTextOnly<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(RawTextVisitor(visitor, PhantomData))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_newtype_struct(name, RawTextVisitor(visitor, PhantomData))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct seq tuple tuple_struct map
        struct enum identifier ignored_any
    }
}

// serde_json answers the raw-value request with a one-entry map; that is
// forwarded, everything else is refused with `expecting`.
struct RawTextVisitor<'de, V>(V, PhantomData<&'de ()>);

impl<'de, V: Visitor<'de>> Visitor<'de> for RawTextVisitor<'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "JSON text read by serde_json (from_str, from_slice, from_reader or from_value): \
             `Checked<T>` runs the contract on the raw JSON of its value",
        )
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(map)
    }
}
