//! Model feedback never carries the rejected values or the trusted context,
//! and says what to write: the declared bound, the other field, the condition.
use contract_runtime::{Contract, Violation};
use proptest::prelude::*;

struct Tenant {
    name: String,
}

fn owned_by_tenant(t: &Ticket, ctx: &Tenant) -> Result<(), Violation> {
    if t.owner == ctx.name {
        Ok(())
    } else {
        // A careless message that quotes both the value and the context:
        // feedback must not carry it.
        Err(Violation::business(
            "/owner",
            "wrong_tenant",
            format!("owner {} is not tenant {}", t.owner, ctx.name),
        ))
    }
}

#[derive(Contract, Debug)]
#[contract(context = Tenant, check = owned_by_tenant)]
struct Ticket {
    #[contract(min_len = 1, max_len = 12)]
    owner: String,
    #[contract(one_of = ["open", "closed"])]
    state: String,
    #[contract(min = 1, max = 9)]
    priority: u8,
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn feedback_never_contains_input_values_or_context(
        secret in "[A-Za-z0-9]{16,24}",
        tenant in "[A-Za-z0-9]{16,24}",
        shape in 0usize..6,
    ) {
        let raw = match shape {
            0 => format!(r#"{{"owner":"{secret}","state":"open","priority":3}}"#),
            1 => format!(r#"{{"owner":"x","state":"{secret}","priority":3}}"#),
            2 => format!(r#"{{"owner":"x","state":"open","priority":"{secret}"}}"#),
            3 => format!(r#"{{"owner":"x","state":"open","priority":3,"note":"{secret}"}}"#),
            4 => format!(r#"{{"owner":"{secret}"#),
            _ => format!(r#"{{"owner":"ab","state":"open","priority":3}} "{secret}""#),
        };
        let outcome = Ticket::check_with(&raw, &Tenant { name: tenant.clone() });
        let rejection = outcome.rejection().expect("every shape is rejected");
        let text = rejection.feedback().to_string();
        let json = serde_json::to_string(&rejection.feedback()).unwrap();
        for rendered in [&text, &json] {
            prop_assert!(!rendered.contains(&secret), "{}", rendered);
            prop_assert!(!rendered.contains(&tenant), "{}", rendered);
        }
        prop_assert!(!rejection.feedback().items.is_empty());
    }
}

#[test]
fn feedback_lists_pointer_code_and_expectation() {
    let r = Ticket::from_json(r#"{"owner":"","state":"gone","priority":0}"#).unwrap_err();
    let f = r.feedback();
    let got: Vec<_> = f
        .items
        .iter()
        .map(|i| (i.pointer.as_str(), i.code))
        .collect();
    assert_eq!(
        got,
        [
            ("/owner", "too_short"),
            ("/state", "not_one_of"),
            ("/priority", "below_minimum")
        ]
    );
    assert!(f.items.iter().all(|i| !i.expected.is_empty()));
    let text = f.to_string();
    assert!(
        text.contains(
            "- at /state: not_one_of (schema stage); expected one of: \"open\", \"closed\""
        )
    );
}

// A rejection from `from_json_first` says that reading stopped, in the text
// and in the serialized form; one from `from_json` (every error) does not.
#[test]
fn feedback_says_when_checking_stopped_early() {
    let raw = r#"{"owner":"","state":"gone","priority":0}"#;
    let first = Ticket::from_json_first(raw, 1).unwrap_err();
    assert!(first.truncated);
    let f = first.feedback();
    assert!(f.truncated);
    assert_eq!(f.items.len(), 1);
    let text = f.to_string();
    assert!(
        text.contains("the rest of the output was not checked"),
        "{text}"
    );
    let json = serde_json::to_value(&f).unwrap();
    assert_eq!(json["truncated"], true);

    let all = Ticket::from_json(raw).unwrap_err();
    let f = all.feedback();
    assert!(!f.truncated);
    assert!(!f.to_string().contains("not checked"));
    assert!(serde_json::to_value(&f).unwrap().get("truncated").is_none());
}

// The words of the errors: each names the declared bound, the other field or
// the condition, so that a model told only the expectation can fix it.

#[derive(Contract, Debug)]
struct Bounded {
    #[contract(min = 1, max = 50)]
    count: u32,
    #[contract(min = 0, max = 1)]
    share: Option<f64>,
    plain: u32,
}

// The message and the expectation of the one error at `pointer`.
fn texts(r: &contract_runtime::Rejection, pointer: &str) -> (String, String) {
    let e = r
        .errors
        .iter()
        .find(|e| e.pointer == pointer)
        .unwrap_or_else(|| panic!("no error at {pointer}: {r}"));
    (e.message.to_string(), e.expected.to_string())
}

#[test]
fn a_declared_range_says_what_the_runtime_says_for_every_type_found() {
    // The derive writes a declared range's messages out itself; they are
    // the runtime's, word for word, whatever was found.
    let runtime = contract_runtime::__private::type_messages!("an integer from 1 to 50");
    let found = [
        ("{}", 0),
        ("[]", 1),
        (r#""7""#, 2),
        ("true", 4),
        ("null", 5),
        ("-1", 6),
        ("7.5", 7),
    ];
    for (count, i) in found {
        let raw = format!(r#"{{"count":{count},"share":null,"plain":1}}"#);
        let r = Bounded::from_json(&raw).unwrap_err();
        assert_eq!(texts(&r, "/count").0, runtime.found[i], "{raw}");
    }
    // An `f64` range, where a number is never the wrong type.
    let runtime = contract_runtime::__private::type_messages!("a number from 0 to 1");
    let r = Bounded::from_json(r#"{"count":1,"share":"half","plain":1}"#).unwrap_err();
    assert_eq!(texts(&r, "/share").0, runtime.found[2]);
}

#[test]
fn a_bounded_number_of_the_wrong_type_or_beyond_its_type_is_told_the_declared_range() {
    let cases = [
        (
            r#""7""#,
            "invalid_type",
            "expected an integer from 1 to 50, found string",
        ),
        (
            "7.5",
            "invalid_type",
            "expected an integer from 1 to 50, found a number written with a fraction or exponent",
        ),
        (
            "-1",
            "out_of_range",
            "expected an integer from 1 to 50, found a number outside that range",
        ),
        (
            "5000000000",
            "out_of_range",
            "expected an integer from 1 to 50, found a number outside that range",
        ),
    ];
    for (count, code, message) in cases {
        let raw = format!(r#"{{"count":{count},"share":null,"plain":1}}"#);
        let r = Bounded::from_json(&raw).unwrap_err();
        assert_eq!(r.errors[0].code, code, "{raw}");
        assert_eq!(
            texts(&r, "/count"),
            (message.into(), "an integer from 1 to 50".into())
        );
    }
    let r = Bounded::from_json(r#"{"count":1,"share":"half","plain":-1}"#).unwrap_err();
    assert_eq!(texts(&r, "/share").1, "a number from 0 to 1");
    // Without declared bounds, the type's own range.
    assert_eq!(texts(&r, "/plain").1, "an integer from 0 to 4294967295");
}

#[derive(Contract, Debug)]
#[contract(
    order(start_date <= end_date),
    order(min_price <= max_price),
    order(low < high)
)]
struct Ranges {
    start_date: contract_runtime::Date,
    end_date: contract_runtime::Date,
    min_price: f64,
    max_price: f64,
    low: i32,
    high: i32,
}

#[test]
fn an_order_error_names_the_other_field_in_words_that_fit_its_type() {
    let r = Ranges::from_json(
        r#"{"start_date":"2027-06-02","end_date":"2027-06-01","min_price":5,"max_price":4.5,"low":3,"high":3}"#,
    )
    .unwrap_err();
    assert_eq!(
        texts(&r, "/end_date"),
        (
            "must not be before `start_date`".into(),
            "a value that is not before `start_date`".into()
        )
    );
    assert_eq!(
        texts(&r, "/max_price"),
        (
            "must be at least `min_price`".into(),
            "a number at least `min_price`".into()
        )
    );
    assert_eq!(
        texts(&r, "/high"),
        (
            "must be greater than `low`".into(),
            "a number greater than `low`".into()
        )
    );
}

#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
enum Status {
    Complete,
    NotARequest,
}

#[derive(Contract, Debug)]
#[contract(
    when(status = Status::Complete, require(start_date)),
    when(status = Status::NotARequest, forbid(start_date))
)]
struct Request {
    status: Status,
    start_date: Option<contract_runtime::Date>,
}

#[test]
fn a_when_error_names_its_condition() {
    let r =
        Request::from_json(r#"{"status":"not_a_request","start_date":"2027-06-01"}"#).unwrap_err();
    assert_eq!(
        texts(&r, "/start_date"),
        (
            "must be null when `status` is `not_a_request`".into(),
            "null when `status` is `not_a_request`".into()
        )
    );
    let r = Request::from_json(r#"{"status":"complete","start_date":null}"#).unwrap_err();
    assert_eq!(
        texts(&r, "/start_date"),
        (
            "must not be null when `status` is `complete`".into(),
            "a non-null value when `status` is `complete`".into()
        )
    );
    let text = r.feedback().to_string();
    assert!(
        text.contains("expected a non-null value when `status` is `complete`"),
        "{text}"
    );
}

#[derive(Contract, Debug)]
#[contract(tag = "action", rename_all = "snake_case")]
enum Step {
    Close { ticket_id: u64 },
    Wait,
}

#[test]
fn missing_key_mentions_null_only_for_a_nullable_field_and_names_a_missing_tag() {
    let r = Request::from_json(r#"{"status":"complete"}"#).unwrap_err();
    let (message, expected) = texts(&r, "/start_date");
    assert!(message.contains("nullable"), "{message}");
    assert!(expected.contains("null"), "{expected}");
    let r = Bounded::from_json(r#"{"share":null,"plain":1}"#).unwrap_err();
    assert_eq!(
        texts(&r, "/count"),
        ("missing required key".into(), "the key present".into())
    );
    let r = Step::from_json(r#"{"ticket_id":7}"#).unwrap_err();
    let (message, expected) = texts(&r, "/action");
    assert!(
        message.starts_with("the tag `action` is required"),
        "{message}"
    );
    assert!(!message.contains("nullable"), "{message}");
    assert_eq!(expected, r#"one of: "close", "wait""#);
}

#[derive(Contract, Debug)]
struct Lengths {
    #[contract(min_len = 1)]
    one: String,
    #[contract(min_len = 2)]
    two: String,
    #[contract(max_len = 1)]
    items: Vec<u8>,
}

#[test]
fn lengths_are_counted_in_the_singular_for_one() {
    let r = Lengths::from_json(r#"{"one":"","two":"x","items":[1,2]}"#).unwrap_err();
    assert_eq!(
        texts(&r, "/one"),
        (
            "shorter than the minimum of 1 character".into(),
            "at least 1 character".into()
        )
    );
    assert_eq!(texts(&r, "/two").1, "at least 2 characters");
    assert_eq!(
        texts(&r, "/items"),
        (
            "longer than the maximum of 1 item".into(),
            "at most 1 item".into()
        )
    );
}

// A stream's early rejection carries the message and the expectation that
// `check` gives for the same error on the whole document.
#[test]
fn a_streamed_early_rejection_words_its_error_as_check_does() {
    use contract_runtime::stream::Progress;

    fn early<T: contract_runtime::Contract + std::fmt::Debug>(
        doc: &str,
    ) -> contract_runtime::Error {
        let mut stream = T::stream();
        for (i, c) in doc.char_indices() {
            if let Progress::Rejected(r) = stream.push(&doc[i..i + c.len_utf8()]) {
                return r.errors[0].clone();
            }
        }
        panic!("not rejected early: {doc}");
    }
    fn same<T: contract_runtime::Contract + std::fmt::Debug>(doc: &str) {
        let streamed = early::<T>(doc);
        let checked = T::from_json(doc).unwrap_err();
        let e = checked
            .errors
            .iter()
            .find(|e| e.pointer == streamed.pointer && e.code == streamed.code)
            .unwrap_or_else(|| panic!("{doc}: check has no {streamed:?}: {checked}"));
        assert_eq!(
            (&streamed.message, &streamed.expected),
            (&e.message, &e.expected),
            "{doc}"
        );
    }
    same::<Bounded>(r#"{"count":"7","share":null,"plain":1}"#);
    same::<Bounded>(r#"{"count":70,"share":null,"plain":1}"#);
    same::<Bounded>(r#"{"share":null,"plain":1}"#);
    same::<Request>(r#"{"status":"complete"}"#);
    same::<Request>(r#"{"status":"not_a_request","start_date":"2027-06-01"}"#);
    // A date cut short where it breaks: the same reason as the whole date
    // (a month of one digit is a wrong shape, not a wrong month).
    for date in [
        "2027-13-01",
        "2027-02-30",
        "2027-6-1",
        "2027/06/01",
        "2027-00-10",
    ] {
        same::<Request>(&format!(r#"{{"status":"complete","start_date":"{date}"}}"#));
    }
    same::<Ranges>(
        r#"{"start_date":"2027-06-02","end_date":"2027-06-01","min_price":1,"max_price":2,"low":1,"high":2}"#,
    );
    same::<Ranges>(
        r#"{"start_date":"2027-06-01","end_date":"2027-06-01","min_price":1,"max_price":2,"low":2,"high":2}"#,
    );
    same::<Lengths>(r#"{"one":"","two":"xx","items":[]}"#);
    same::<Step>(r#"{"ticket_id":7}"#);
    same::<Step>(r#"{"action":"close","ticket_id":true}"#);
    same::<Ticket>(r#"{"owner":"abcdefghijklmnop","state":"open","priority":3}"#);
    same::<Ticket>(r#"{"owner":"a","state":"shut","priority":3}"#);
}
