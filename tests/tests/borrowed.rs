//! Contracts with a lifetime: `&'a str` and `Cow<'a, str>` fields (also in
//! `Option`, `Vec`, nested contracts and tagged unions) borrowed from the
//! text `from_json`, `check` and `check_with` read; an escaped string owned
//! by a `Cow` and refused by a `&str`; schemas, exports and `to_json` the
//! same as the `String` twin's.
use std::borrow::Cow;

use contract_runtime::schema::Provider;
use contract_runtime::stream::Progress;
use contract_runtime::{BorrowedContract, Contract, EvidenceSource, OutcomeKind, Rejection};
use proptest::prelude::*;

/// One line of an invoice.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Line<'a> {
    #[contract(min_len = 1, max_len = 8)]
    pub sku: &'a str,
    #[contract(min = 1)]
    pub qty: u32,
}

#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
pub enum Status {
    Paid,
    #[contract(clarify)]
    Disputed,
}

/// What to do with the invoice.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "action", rename_all = "snake_case")]
pub enum Step<'a> {
    Close {
        #[contract(min_len = 1, max_len = 40)]
        reason: Cow<'a, str>,
    },
    Amend(Line<'a>),
    #[contract(decline)]
    Nothing,
}

/// An invoice as a model extracts it.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    max_bytes = 4096,
    outcome = status,
    when(status = Status::Disputed, require(note)),
    when(currency = "EUR", require(vat_id)),
    order(issued <= due),
)]
pub struct Invoice<'a> {
    #[contract(pattern = "^INV-[0-9]+$")]
    pub number: &'a str,
    pub status: Status,
    #[contract(one_of = ["EUR", "USD"])]
    pub currency: &'a str,
    pub vat_id: Option<&'a str>,
    #[contract(max_len = 60)]
    pub note: Option<Cow<'a, str>>,
    #[contract(format = "email")]
    pub contact: Cow<'a, str>,
    #[contract(max_len = 3, pattern = "^[a-z]+$")]
    pub tags: Vec<&'a str>,
    pub lines: Vec<Line<'a>>,
    pub step: Step<'a>,
    #[contract(equals = "v1")]
    pub version: &'a str,
    pub issued: &'a str,
    pub due: &'a str,
    pub total_cents: u64,
}

/// The same contracts with `String` fields.
mod owned {
    use contract_runtime::Contract;

    pub use super::Status;

    /// One line of an invoice.
    #[derive(Contract, Debug, Clone, PartialEq)]
    pub struct Line {
        #[contract(min_len = 1, max_len = 8)]
        pub sku: String,
        #[contract(min = 1)]
        pub qty: u32,
    }

    /// What to do with the invoice.
    #[derive(Contract, Debug, Clone, PartialEq)]
    #[contract(tag = "action", rename_all = "snake_case")]
    pub enum Step {
        Close {
            #[contract(min_len = 1, max_len = 40)]
            reason: String,
        },
        Amend(Line),
        #[contract(decline)]
        Nothing,
    }

    /// An invoice as a model extracts it.
    #[derive(Contract, Debug, Clone, PartialEq)]
    #[contract(
        max_bytes = 4096,
        outcome = status,
        when(status = Status::Disputed, require(note)),
        when(currency = "EUR", require(vat_id)),
        order(issued <= due),
    )]
    pub struct Invoice {
        #[contract(pattern = "^INV-[0-9]+$")]
        pub number: String,
        pub status: Status,
        #[contract(one_of = ["EUR", "USD"])]
        pub currency: String,
        pub vat_id: Option<String>,
        #[contract(max_len = 60)]
        pub note: Option<String>,
        #[contract(format = "email")]
        pub contact: String,
        #[contract(max_len = 3, pattern = "^[a-z]+$")]
        pub tags: Vec<String>,
        pub lines: Vec<Line>,
        pub step: Step,
        #[contract(equals = "v1")]
        pub version: String,
        pub issued: String,
        pub due: String,
        pub total_cents: u64,
    }
}

/// A contract whose borrowed fields are all `Cow`s: the same decisions as
/// its `String` twin on any document, and streamable.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(when(kind = "note", require(text)))]
pub struct Memo<'a> {
    #[contract(one_of = ["note", "todo"])]
    pub kind: Cow<'a, str>,
    #[contract(min_len = 2, max_len = 12)]
    pub text: Option<Cow<'a, str>>,
    #[contract(max_len = 2)]
    pub labels: Vec<Cow<'a, str>>,
}

mod owned_memo {
    use contract_runtime::Contract;

    /// A contract whose borrowed fields are all `Cow`s: the same decisions as
    /// its `String` twin on any document, and streamable.
    #[derive(Contract, Debug, Clone, PartialEq)]
    #[contract(when(kind = "note", require(text)))]
    pub struct Memo {
        #[contract(one_of = ["note", "todo"])]
        pub kind: String,
        #[contract(min_len = 2, max_len = 12)]
        pub text: Option<String>,
        #[contract(max_len = 2)]
        pub labels: Vec<String>,
    }
}

const INVOICE: &str = r#"{"number":"INV-7","status":"paid","currency":"EUR","vat_id":"DE1","note":null,"contact":"a@b.example","tags":["x","y"],"lines":[{"sku":"A-1","qty":2}],"step":{"action":"close","reason":"done"},"version":"v1","issued":"2027-01-01","due":"2027-02-01","total_cents":500}"#;

// The invoice with `key`'s value replaced by `value`, as written (its
// escapes kept).
fn with(key: &str, value: &str) -> String {
    let doc: serde_json::Map<String, serde_json::Value> = serde_json::from_str(INVOICE).unwrap();
    let members: Vec<String> = doc
        .iter()
        .map(|(k, v)| {
            let v = if k == key {
                value.to_owned()
            } else {
                v.to_string()
            };
            format!("{}:{v}", serde_json::Value::from(k.as_str()))
        })
        .collect();
    format!("{{{}}}", members.join(","))
}

// Each error as (stage, pointer, code).
fn errors(rejection: &Rejection) -> Vec<(String, String, &'static str)> {
    let json = serde_json::to_value(rejection).unwrap();
    json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&rejection.errors)
        .map(|(e, error)| {
            (
                e["stage"].as_str().unwrap().to_owned(),
                e["pointer"].as_str().unwrap().to_owned(),
                error.code,
            )
        })
        .collect()
}

fn within(raw: &str, s: &str) -> bool {
    let range = raw.as_bytes().as_ptr_range();
    range.contains(&s.as_ptr())
}

#[test]
fn strings_without_escapes_are_slices_of_the_text() {
    let raw = INVOICE.to_owned();
    let inv = Invoice::from_json(&raw).unwrap();
    assert_eq!(inv.number, "INV-7");
    assert!(within(&raw, inv.number));
    assert!(within(&raw, inv.vat_id.unwrap()));
    assert!(matches!(&inv.contact, Cow::Borrowed(s) if within(&raw, s)));
    assert!(inv.tags.iter().all(|t| within(&raw, t)));
    assert!(within(&raw, inv.lines[0].sku));
    assert!(matches!(&inv.step, Step::Close { reason: Cow::Borrowed(r) } if within(&raw, r)));
    // `equals` and `one_of` strings too, which are matched as raw bytes.
    assert!(within(&raw, inv.version));
    assert!(within(&raw, inv.currency));
}

#[test]
fn a_cow_owns_a_string_with_escapes() {
    let raw = with("note", r#""paid \u2713 \"late\"""#);
    let inv = Invoice::from_json(&raw).unwrap();
    assert!(matches!(&inv.note, Some(Cow::Owned(s)) if s == "paid \u{2713} \"late\""));
    let raw = with("step", r#"{"action":"close","reason":"a\nb"}"#);
    let inv = Invoice::from_json(&raw).unwrap();
    assert!(matches!(inv.step, Step::Close { reason: Cow::Owned(ref r) } if r == "a\nb"));
}

#[test]
fn a_str_field_refuses_a_string_with_escapes_at_its_pointer() {
    let cases = [
        ("number", r#""INV-\u0037""#, "/number"),
        ("vat_id", r#""DE\/1""#, "/vat_id"),
        ("tags", r#"["x","\u0079"]"#, "/tags/1"),
        ("lines", r#"[{"sku":"A\t","qty":1}]"#, "/lines/0/sku"),
        (
            "step",
            r#"{"action":"amend","sku":"\u0041","qty":1}"#,
            "/step/sku",
        ),
    ];
    for (key, value, pointer) in cases {
        let rejection = Invoice::from_json(&with(key, value)).unwrap_err();
        assert_eq!(
            errors(&rejection),
            [("schema".to_owned(), pointer.to_owned(), "borrowed_string")],
            "{key}"
        );
        let message = &rejection.errors[0].message;
        assert!(message.contains("borrowed string"), "{message}");
        assert!(message.contains("Cow<'a, str>"), "{message}");
    }
}

#[test]
fn a_str_field_refuses_an_escaped_string_that_also_fails_its_checks() {
    // The value is not read, so its checks do not run: one error, not two.
    let rejection = Invoice::from_json(&with("number", r#""X\u0037""#)).unwrap_err();
    assert_eq!(rejection.errors.len(), 1);
    assert_eq!(rejection.errors[0].code, "borrowed_string");
}

#[test]
fn borrowed_fields_report_every_error_as_string_fields_do() {
    let cases: [(&str, &str, &str, &str); 9] = [
        ("number", "7", "/number", "invalid_type"),
        ("number", r#""INV-x""#, "/number", "pattern_mismatch"),
        ("currency", r#""GBP""#, "/currency", "not_one_of"),
        ("contact", r#""nobody""#, "/contact", "invalid_email"),
        ("tags", r#"["a","b","c","d"]"#, "/tags", "too_long"),
        ("tags", r#"["a","B"]"#, "/tags/1", "pattern_mismatch"),
        ("version", r#""v2""#, "/version", "not_equal"),
        (
            "lines",
            r#"[{"sku":"","qty":1}]"#,
            "/lines/0/sku",
            "too_short",
        ),
        (
            "step",
            r#"{"action":"close","reason":""}"#,
            "/step/reason",
            "too_short",
        ),
    ];
    for (key, value, pointer, code) in cases {
        let raw = with(key, value);
        let borrowed = Invoice::from_json(&raw).unwrap_err();
        assert_eq!(
            errors(&borrowed),
            [("schema".to_owned(), pointer.to_owned(), code)],
            "{key} = {value}"
        );
        let twin = owned::Invoice::from_json(&raw).unwrap_err();
        assert_eq!(borrowed, twin, "{key} = {value}");
    }
}

#[test]
fn structure_and_parse_errors_are_the_owned_contracts() {
    let missing = INVOICE.replace(r#""number":"INV-7","#, "");
    let unknown = INVOICE.replace(r#""number":"INV-7","#, r#""number":"INV-7","extra":1,"#);
    let duplicate = INVOICE.replace(
        r#""number":"INV-7","#,
        r#""number":"INV-7","number":"INV-8","#,
    );
    let tag = with("step", r#"{"action":"wait"}"#);
    let cases = [
        (missing.as_str(), "schema", "/number", "missing_key"),
        (unknown.as_str(), "schema", "/extra", "unknown_key"),
        (duplicate.as_str(), "parse", "/number", "duplicate_key"),
        (tag.as_str(), "schema", "/step/action", "unknown_variant"),
        (r#"{"number":"INV-7""#, "parse", "", "unexpected_end"),
        ("[]", "schema", "", "invalid_type"),
    ];
    for (raw, stage, pointer, code) in cases {
        let borrowed = Invoice::from_json(raw).unwrap_err();
        assert_eq!(
            errors(&borrowed),
            [(stage.to_owned(), pointer.to_owned(), code)],
            "{raw}"
        );
        assert_eq!(borrowed, owned::Invoice::from_json(raw).unwrap_err());
    }
}

#[test]
fn rules_run_on_borrowed_fields() {
    // `when(currency = "EUR", require(vat_id))`: a condition on a `&str`.
    let no_vat = with("vat_id", "null");
    let rejection = Invoice::from_json(&no_vat).unwrap_err();
    assert_eq!(
        errors(&rejection),
        [("rule".to_owned(), "/vat_id".to_owned(), "required")]
    );
    // `order(issued <= due)` on two `&str` fields.
    let late = with("issued", r#""2027-03-01""#);
    let rejection = Invoice::from_json(&late).unwrap_err();
    assert_eq!(
        errors(&rejection),
        [("rule".to_owned(), "/due".to_owned(), "order")]
    );
    // Status-dependent nullability of an `Option<Cow<str>>`.
    let disputed = with("status", r#""disputed""#);
    let rejection = Invoice::check(&disputed).rejection().cloned().unwrap();
    assert_eq!(
        errors(&rejection),
        [("rule".to_owned(), "/note".to_owned(), "required")]
    );
}

#[test]
fn check_decides_from_the_outcome_field_and_the_union() {
    assert_eq!(Invoice::check(INVOICE).kind(), OutcomeKind::Accept);
    let raw = with("status", r#""disputed""#).replace(r#""note":null"#, r#""note":"why""#);
    let outcome = Invoice::check(&raw);
    assert_eq!(outcome.kind(), OutcomeKind::Clarify);
    assert_eq!(outcome.value().unwrap().note.as_deref(), Some("why"));
    assert_eq!(
        Step::check(r#"{"action":"nothing"}"#).kind(),
        OutcomeKind::Decline
    );
    let step = Step::from_json(r#"{"sku":"B","action":"amend","qty":3}"#).unwrap();
    assert_eq!(step, Step::Amend(Line { sku: "B", qty: 3 }));
}

pub struct Source {
    pub text: String,
}

impl EvidenceSource for Source {
    fn source_text(&self) -> &str {
        &self.text
    }
}

/// A quote borrowed from the model's reply, checked against the source.
#[derive(Contract, Debug)]
#[contract(context = Source)]
pub struct Quote<'a> {
    #[contract(evidence, min_len = 1)]
    pub quote: &'a str,
    #[contract(evidence)]
    pub context: Option<Cow<'a, str>>,
}

#[test]
fn evidence_is_checked_on_borrowed_strings() {
    let source = Source {
        text: "The parcel arrived on Monday, damaged.".to_owned(),
    };
    let ok = Quote::check_with(r#"{"quote":"arrived on Monday","context":null}"#, &source);
    assert_eq!(ok.kind(), OutcomeKind::Accept);
    let bad = Quote::check_with(
        r#"{"quote":"arrived Tuesday","context":"damaged"}"#,
        &source,
    );
    let rejection = bad.rejection().unwrap();
    assert_eq!(
        errors(rejection),
        [(
            "business".to_owned(),
            "/quote".to_owned(),
            "evidence_not_found"
        )]
    );
    // Without a context, no business stage.
    assert_eq!(
        Quote::check(r#"{"quote":"arrived Tuesday","context":null}"#).kind(),
        OutcomeKind::Accept
    );
}

#[test]
fn the_schema_is_the_string_twins_byte_for_byte() {
    let text = |v: serde_json::Value| serde_json::to_string(&v).unwrap();
    assert_eq!(
        text(Invoice::json_schema()),
        text(owned::Invoice::json_schema())
    );
    assert_eq!(text(Step::json_schema()), text(owned::Step::json_schema()));
    assert_eq!(text(Line::json_schema()), text(owned::Line::json_schema()));
    assert_eq!(
        text(Memo::json_schema()),
        text(owned_memo::Memo::json_schema())
    );
    for provider in [
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::Local,
    ] {
        let borrowed = Invoice::json_schema_for(provider).unwrap();
        let twin = owned::Invoice::json_schema_for(provider).unwrap();
        assert_eq!(text(borrowed.schema), text(twin.schema), "{provider:?}");
        assert_eq!(borrowed.dropped, twin.dropped, "{provider:?}");
        assert_eq!(
            Invoice::response_format(provider).unwrap(),
            owned::Invoice::response_format(provider).unwrap()
        );
    }
}

#[test]
fn to_json_is_the_string_twins_and_round_trips() {
    let raw = with("note", r#""x\ty""#);
    let borrowed = Invoice::from_json(&raw).unwrap();
    let twin = owned::Invoice::from_json(&raw).unwrap();
    assert_eq!(borrowed.to_json(), twin.to_json());
    let again = borrowed.to_json().to_string();
    assert_eq!(Invoice::from_json(&again).unwrap(), borrowed);
}

// Generic code over borrowed contracts names the trait.
fn first_error<'a, T: BorrowedContract<'a>>(raw: &'a str) -> Option<&'static str> {
    T::from_json(raw).err().map(|r| r.errors[0].code)
}

#[test]
fn the_trait_serves_generic_code_and_its_owned_form_is_the_contract() {
    assert_eq!(first_error::<Invoice<'_>>(INVOICE), None);
    assert_eq!(
        first_error::<Line<'_>>(r#"{"sku":"","qty":1}"#),
        Some("too_short")
    );
    // The `'static` form is the `Contract`: a `Cow` it reads is owned.
    let memo =
        <Memo<'static> as Contract>::from_json(r#"{"kind":"todo","text":null,"labels":["a"]}"#)
            .unwrap();
    assert!(matches!(memo.labels[0], Cow::Owned(_)));
    assert_eq!(<Invoice<'static> as Contract>::NAME, "Invoice");
}

#[test]
fn a_stream_owns_its_text_so_its_cows_are_owned() {
    let mut stream = Memo::stream();
    assert_eq!(stream.push(r#"{"kind":"note","#), Progress::Pending);
    stream.push(r#""text":"hello","labels":[]}"#);
    let outcome = stream.finish();
    let memo = outcome.value().unwrap();
    assert!(matches!(&memo.text, Some(Cow::Owned(s)) if s == "hello"));
    // An early decision is the same as for the `String` twin.
    let mut stream = Memo::stream();
    let Progress::Rejected(early) = stream.push(r#"{"kind":7"#) else {
        panic!("decided at the number");
    };
    assert_eq!(early.errors[0].pointer, "/kind");
}

#[test]
fn a_stream_decides_nothing_early_about_a_str_field() {
    // `finish` refuses the string as `borrowed_string`: no early
    // `too_long` may stand for it.
    let mut stream = Line::stream();
    assert_eq!(stream.push(r#"{"sku":"ABCDEFGHIJKL","#), Progress::Pending);
    assert_eq!(stream.push(r#""qty":1}"#), Progress::Pending);
    let rejection = stream.finish().rejection().cloned().unwrap();
    assert_eq!(
        errors(&rejection),
        [("schema".to_owned(), "/sku".to_owned(), "borrowed_string")]
    );
}

#[test]
fn a_stream_of_a_contract_with_a_str_field_refuses_its_strings() {
    let mut stream = Line::stream();
    stream.push(r#"{"sku":"A","qty":1}"#);
    let rejection = stream.finish().rejection().cloned().unwrap();
    assert_eq!(
        errors(&rejection),
        [("schema".to_owned(), "/sku".to_owned(), "borrowed_string")]
    );
    assert!(rejection.errors[0].message.contains("Cow<'a, str>"));
}

// Arbitrary strings, some with escapes (`\n`, `\"`, `\u00e9`, a surrogate
// pair), some plain.
fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z]{0,14}".prop_map(|s| format!("\"{s}\"")),
        "[a-z]{0,6}".prop_map(|s| format!("\"{s}\\n\"")),
        "[a-z]{0,6}".prop_map(|s| format!("\"\\u00e9{s}\\\"\"")),
        Just("\"\\ud83d\\ude00\"".to_owned()),
        Just("\"note\"".to_owned()),
        Just("\"todo\"".to_owned()),
    ]
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => string(),
        1 => Just("null".to_owned()),
        1 => Just("7".to_owned()),
        1 => Just("true".to_owned()),
        2 => prop::collection::vec(string(), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
        1 => prop::collection::vec(value_leaf(), 0..3).prop_map(|v| format!("[{}]", v.join(","))),
    ]
}

fn value_leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        string(),
        Just("null".to_owned()),
        Just("{}".to_owned()),
        Just("1.5".to_owned())
    ]
}

// A document of `Memo`'s keys (each maybe missing, repeated or unknown),
// with arbitrary values.
fn memo_document() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("kind"),
        Just("text"),
        Just("labels"),
        Just("other"),
        Just("k\\u0069nd"),
    ];
    prop::collection::vec((key, value()), 0..5).prop_map(|members| {
        let members: Vec<String> = members
            .iter()
            .map(|(k, v)| format!("\"{k}\":{v}"))
            .collect();
        format!("{{{}}}", members.join(","))
    })
}

fn invoice_document() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("number"),
        Just("currency"),
        Just("vat_id"),
        Just("note"),
        Just("contact"),
        Just("tags"),
        Just("version"),
        Just("issued"),
        Just("due"),
    ];
    prop::collection::vec((key, value()), 0..4).prop_map(|changes| {
        let mut doc: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(INVOICE).unwrap();
        let mut text = String::from("{");
        for (k, v) in &changes {
            doc.remove(*k);
            text.push_str(&format!("\"{k}\":{v},"));
        }
        for (k, v) in doc {
            text.push_str(&format!("{}:{v},", serde_json::Value::from(k)));
        }
        text.pop();
        text.push('}');
        text
    })
}

proptest! {
    // A contract whose borrowed fields are `Cow`s decides every document as
    // its `String` twin: the same value, or the same errors.
    #[test]
    fn cow_and_string_twins_decide_alike(doc in memo_document()) {
        let borrowed = Memo::check(&doc);
        let twin = owned_memo::Memo::check(&doc);
        prop_assert_eq!(borrowed.kind(), twin.kind());
        prop_assert_eq!(borrowed.rejection(), twin.rejection());
        if let (Some(b), Some(t)) = (borrowed.value(), twin.value()) {
            prop_assert_eq!(b.to_json(), t.to_json());
        }
    }

    // With `&str` fields, a document decides alike unless a `&str` field's
    // string has escapes: then that is the one difference, a
    // `borrowed_string` error at the value.
    #[test]
    fn str_and_string_twins_decide_alike_but_for_escapes(doc in invoice_document()) {
        let borrowed = Invoice::from_json(&doc);
        let twin = owned::Invoice::from_json(&doc);
        let refused_borrow = borrowed
            .as_ref()
            .err()
            .is_some_and(|r| r.errors.iter().any(|e| e.code == "borrowed_string"));
        if refused_borrow {
            // Its other errors are the twin's.
            let r = borrowed.as_ref().unwrap_err();
            let t = twin.as_ref().err();
            for e in r.errors.iter().filter(|e| e.code != "borrowed_string") {
                prop_assert!(t.is_some_and(|t| t.errors.contains(e)), "{:?} in {}", e, doc);
            }
        } else {
            match (&borrowed, &twin) {
                (Ok(b), Ok(t)) => prop_assert_eq!(b.to_json(), t.to_json()),
                (Err(b), Err(t)) => prop_assert_eq!(b, t),
                _ => prop_assert!(false, "decided apart: {}", doc),
            }
        }
    }
}

/// The other forms a borrowed field takes.
#[derive(Contract, Debug, PartialEq)]
pub struct Forms<'a> {
    #[contract(quarantine, max_len = 5)]
    pub nick: Option<&'a str>,
    #[contract(pattern = "^[a-z]+$")]
    pub codes: Option<Vec<&'a str>>,
    pub boxed: Option<Box<Line<'a>>>,
    #[contract(optional)]
    pub extra: Option<Cow<'a, str>>,
}

#[test]
fn quarantine_option_vec_and_box_borrow_too() {
    let raw = r#"{"nick":"bob","codes":["ab","cd"],"boxed":{"sku":"Z","qty":1}}"#;
    let forms = Forms::from_json(raw).unwrap();
    assert_eq!(forms.codes.as_deref(), Some(&["ab", "cd"][..]));
    assert_eq!(forms.boxed.as_deref(), Some(&Line { sku: "Z", qty: 1 }));
    assert_eq!(forms.extra, None);
    // A quarantined `&str` that cannot borrow is dropped for review, as a
    // value failure.
    let escaped = r#"{"nick":"b\u006fb","codes":null,"boxed":null}"#;
    let outcome = Forms::check(escaped);
    assert_eq!(outcome.kind(), OutcomeKind::Review);
    assert_eq!(outcome.value().unwrap().nick, None);
    // Each item of an `Option<Vec<&str>>` at its pointer.
    let bad =
        Forms::from_json(r#"{"nick":null,"codes":["ab","C","\u0061"],"boxed":null}"#).unwrap_err();
    assert_eq!(
        errors(&bad),
        [
            (
                "schema".to_owned(),
                "/codes/1".to_owned(),
                "pattern_mismatch"
            ),
            (
                "schema".to_owned(),
                "/codes/2".to_owned(),
                "borrowed_string"
            ),
        ]
    );
}

/// The trusted context of [`Assign`].
pub struct Team {
    pub members: Vec<&'static str>,
}

/// A borrowed member bound to the context's values.
#[derive(Contract, Debug)]
#[contract(context = Team)]
pub struct Assign<'a> {
    #[contract(one_of = ctx.members)]
    pub to: &'a str,
}

#[test]
fn a_borrowed_field_binds_to_the_context() {
    let team = Team {
        members: vec!["ana", "bo"],
    };
    assert_eq!(
        Assign::check_with(r#"{"to":"bo"}"#, &team).kind(),
        OutcomeKind::Accept
    );
    let other = Assign::check_with(r#"{"to":"cy"}"#, &team);
    assert_eq!(
        errors(other.rejection().unwrap()),
        [("business".to_owned(), "/to".to_owned(), "not_in_context")]
    );
    let export = Assign::json_schema_for_with(Provider::OpenAi, &team).unwrap();
    assert_eq!(
        export.schema["properties"]["to"]["enum"],
        serde_json::json!(["ana", "bo"])
    );
}
