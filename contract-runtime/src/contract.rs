//! The [`Contract`] trait that `#[derive(Contract)]` implements, and the
//! document-level pipeline: parse → schema → rule → business.
use serde_json::Value;

use crate::decode::{Cx, Field};
use crate::edit::EditPolicy;
use crate::error::{Error, Rejection, Stage};
use crate::json::{self, Limits, Path, Reader};
use crate::outcome::{Outcome, OutcomeKind, Violation};

/// A type whose JSON form is declared with `#[derive(Contract)]`.
///
/// The derive implements the required items; use the provided methods.
/// `from_json(to_json(x)) == x` for every value the contract accepts.
///
/// ```
/// use contract_runtime::Contract;
///
/// /// A ticket to close.
/// #[derive(Contract, Debug, PartialEq)]
/// #[contract(max_bytes = 4096)]
/// struct CloseTicket {
///     #[contract(equals = "close_ticket")]
///     action: String,
///     #[contract(min = 1)]
///     ticket_id: u64,
///     #[contract(min_len = 1, max_len = 200)]
///     reason: String,
/// }
///
/// let ok = CloseTicket::from_json(r#"{"action":"close_ticket","ticket_id":7,"reason":"done"}"#);
/// assert_eq!(ok.unwrap().ticket_id, 7);
///
/// let err = CloseTicket::from_json(r#"{"action":"close_ticket","ticket_id":"7","reason":""}"#)
///     .unwrap_err();
/// assert_eq!(err.pointers(), ["/ticket_id", "/reason"]);
/// assert_eq!(err.errors[0].code, "invalid_type");
/// assert_eq!(err.errors[1].code, "too_short");
/// ```
pub trait Contract: Field + 'static {
    /// The type's name (its `$defs` key in schemas).
    const NAME: &'static str;
    /// `max_bytes` and `max_depth`.
    const LIMITS: Limits;
    /// The contract's version (`#[contract(version = N)]`; 1 when not declared).
    const VERSION: u32 = 1;
    /// The trusted context `check_with` takes (`()` when none is declared).
    type Context: ?Sized;
    #[doc(hidden)]
    const __POLICIES: &'static [EditPolicy<Self>] = &[];

    #[doc(hidden)]
    fn __schema_body(defs: &mut crate::schema::SchemaGen) -> Value;

    #[doc(hidden)]
    fn __outcome(&self) -> OutcomeKind {
        OutcomeKind::Accept
    }

    #[doc(hidden)]
    fn __business(&mut self, _ctx: &Self::Context, _cx: &mut Cx) {}

    /// The JSON Schema (draft 2020-12) to send to a model provider.
    fn json_schema() -> Value {
        crate::schema::document::<Self>()
    }

    /// This contract's schema prepared for `provider`'s structured-output
    /// mode, with what it had to drop (see [`crate::schema::export`]).
    fn json_schema_for(
        provider: crate::schema::Provider,
    ) -> Result<crate::schema::Export, crate::schema::ExportError> {
        crate::schema::export::<Self>(provider)
    }

    /// Parses and checks `raw` (parse, schema and rule stages).
    fn from_json(raw: &str) -> Result<Self, Rejection> {
        decode_document::<Self>(raw).map(|(value, _reviews)| value)
    }

    /// The value as JSON.
    fn to_json(&self) -> Value {
        self.encode()
    }

    /// Parse, schema and rule stages, as an [`Outcome`].
    fn check(raw: &str) -> Outcome<Self> {
        match decode_document::<Self>(raw) {
            Ok((value, reviews)) => decide(value, reviews),
            Err(rejection) => Outcome::Reject(rejection),
        }
    }

    /// Every stage, business included, against trusted `ctx`.
    fn check_with(raw: &str, ctx: &Self::Context) -> Outcome<Self> {
        let (mut value, reviews) = match decode_document::<Self>(raw) {
            Ok(decoded) => decoded,
            Err(rejection) => return Outcome::Reject(rejection),
        };
        let mut cx = Cx::new();
        for reason in reviews {
            cx.review(reason);
        }
        value.__business(ctx, &mut cx);
        let (errors, omitted, reviews) = cx.finish();
        if !errors.is_empty() || omitted > 0 {
            let mut rejection = Rejection::from_errors(errors);
            rejection.omitted += omitted;
            return Outcome::Reject(rejection);
        }
        decide(value, reviews)
    }

    /// The edit policy named `name`, if the contract declares one.
    fn edit_policy(name: &str) -> Option<EditPolicy<Self>> {
        Self::__POLICIES.iter().find(|p| p.name() == name).copied()
    }

    /// The key that names the action this accepted value stands for:
    /// contract name, version, an optional `scope` (user, tenant) and the
    /// canonical document. Record it before acting; refuse a repeat.
    ///
    /// ```
    /// use contract_runtime::Contract;
    ///
    /// #[derive(Contract, Debug)]
    /// struct Refund { order: u64, cents: u32 }
    ///
    /// let a = Refund::from_json(r#"{"order": 7, "cents": 500}"#).unwrap();
    /// let b = Refund::from_json(r#"{ "cents": 500, "order": 7 }"#).unwrap();
    /// assert_eq!(a.idempotency_key(Some("tenant-a")), b.idempotency_key(Some("tenant-a")));
    /// assert_ne!(a.idempotency_key(Some("tenant-a")), a.idempotency_key(Some("tenant-b")));
    /// ```
    fn idempotency_key(&self, scope: Option<&str>) -> crate::fingerprint::IdempotencyKey {
        crate::fingerprint::IdempotencyKey::new(Self::NAME, Self::VERSION, scope, &self.to_json())
    }

    /// Every edit policy the contract declares.
    fn edit_policies() -> &'static [EditPolicy<Self>] {
        Self::__POLICIES
    }
}

fn decide<T: Contract>(value: T, mut reasons: Vec<Violation>) -> Outcome<T> {
    // One reason per pointer: the first found, from the earliest check, is
    // the one that explains it (a date dropped for being invalid is not also
    // "missing").
    let mut seen = std::collections::BTreeSet::new();
    reasons.retain(|r| seen.insert(r.pointer.clone()));
    if !reasons.is_empty() {
        return Outcome::Review { value, reasons };
    }
    match value.__outcome() {
        OutcomeKind::Clarify => Outcome::Clarify(value),
        OutcomeKind::Decline => Outcome::Decline(value),
        _ => Outcome::Accept(value),
    }
}

/// Parse, schema and rule stages for one document: the value and the review
/// reasons of quarantined fields, or every error found.
pub fn decode_document<T: Contract>(raw: &str) -> Result<(T, Vec<Violation>), Rejection> {
    json::check_size(raw.len(), &T::LIMITS)?;
    json::check_bom(raw)?;
    let mut reader = Reader::new(raw, T::LIMITS.max_depth);
    let mut cx = Cx::new();
    let decoded = T::decode(&mut reader, &Path::Root, &mut cx).and_then(|v| {
        reader.finish()?;
        Ok(v)
    });
    let value = match decoded {
        Ok(value) => value,
        Err(e) => return Err(Rejection::single(e.into_error(raw.as_bytes()))),
    };
    // Rules run only on a value that passed the schema stage everywhere.
    if let (Some(value), true) = (&value, cx.is_clean()) {
        value.rules(&Path::Root, &mut cx);
    }
    let (errors, omitted, reviews) = cx.finish();
    match value {
        Some(value) if errors.is_empty() && omitted == 0 => Ok((value, reviews)),
        _ => Err(rejection(errors, omitted)),
    }
}

fn rejection(errors: Vec<Error>, omitted: usize) -> Rejection {
    let mut rejection = Rejection::from_errors(errors);
    rejection.omitted += omitted;
    if rejection.errors.is_empty() {
        // Unreachable by construction (a failed field records an error);
        // never return an empty rejection all the same.
        rejection.errors.push(Error::new(
            Stage::Schema,
            "",
            "invalid_type",
            "the document was not accepted",
        ));
    }
    rejection
}

/// Implemented by contract enums; `outcome = FIELD` requires it of the field's type.
#[diagnostic::on_unimplemented(
    message = "`outcome` needs a field whose type is a contract enum, and `{Self}` is not one",
    label = "not a `#[derive(Contract)]` enum",
    note = "derive `Contract` for an enum of unit variants, and mark variants with `#[contract(clarify)]` or `#[contract(decline)]`"
)]
pub trait OutcomeEnum {
    /// The decision this variant stands for.
    fn outcome_kind(&self) -> OutcomeKind;
}

impl<T: OutcomeEnum> OutcomeEnum for Option<T> {
    fn outcome_kind(&self) -> OutcomeKind {
        match self {
            Some(v) => v.outcome_kind(),
            None => OutcomeKind::Accept,
        }
    }
}
