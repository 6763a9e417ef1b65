//! How a tagged union's object is read, wherever its tag is: the tag first,
//! a member of the variant first (the variant is guessed from it, and the
//! guess is taken back when the tag names another), a key no variant
//! declares first. Whatever the path, a document gets what the rule says:
//! the first duplicate key (a parse error), else the first tag's error,
//! else exactly the errors of the named variant's members, as a struct
//! holding them would report on the object without its tag.
use crate::schema_support;

use contract_runtime::{Contract, OutcomeKind, Rejection};
use proptest::prelude::*;
use schema_support::{Filter, Refund, Step};

/// `Step::CloseTicket`'s members, as a struct.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct CloseTicketMembers {
    #[contract(min = 1)]
    pub ticket_id: u64,
    #[contract(min_len = 1, max_len = 200)]
    pub reason: String,
}

/// `Step::AskCustomer`'s members, as a struct.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct AskCustomerMembers {
    #[contract(min_len = 1, max_len = 300)]
    pub question: String,
}

/// `Step::NoAction`'s members: none.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct NoActionMembers {}

type Triples = Vec<(String, String, &'static str)>;

fn triples(r: &Rejection) -> Triples {
    r.errors
        .iter()
        .map(|e| (e.stage.as_str().to_owned(), e.pointer.to_string(), e.code))
        .collect()
}

fn errors_of<T: Contract>(raw: &str) -> Triples {
    T::from_json(raw)
        .err()
        .map(|r| triples(&r))
        .unwrap_or_default()
}

fn expect(list: &[(&str, &str, &'static str)]) -> Triples {
    list.iter()
        .map(|(s, p, c)| (s.to_string(), p.to_string(), *c))
        .collect()
}

const KEYS: [&str; 8] = [
    "action",
    "ticket_id",
    "reason",
    "order_id",
    "refund_cents",
    "order_total_cents",
    "question",
    "bogus",
];

// Values as written, with what a string value says once unescaped.
const VALUES: [(&str, Option<&str>); 17] = [
    (r#""close_ticket""#, Some("close_ticket")),
    (r#""refund""#, Some("refund")),
    (r#""ask_customer""#, Some("ask_customer")),
    (r#""no_action""#, Some("no_action")),
    (r#""clo\u0073e_ticket""#, Some("close_ticket")),
    (r#""nope""#, Some("nope")),
    (r#""r""#, Some("r")),
    (r#""""#, Some("")),
    ("0", None),
    ("7", None),
    ("4999", None),
    ("-1", None),
    ("1.5", None),
    ("true", None),
    ("null", None),
    (r#"{"a":1}"#, None),
    ("[1,2]", None),
];

// One member: a key (its first character escaped or not) and a value.
type Member = (usize, bool, usize);

fn member_text((key, escaped, value): Member) -> String {
    let name = KEYS[key];
    let key = if escaped {
        format!("\\u{:04x}{}", name.as_bytes()[0], &name[1..])
    } else {
        name.to_owned()
    };
    format!(r#""{key}":{}"#, VALUES[value].0)
}

fn object(members: &[Member]) -> String {
    let inner: Vec<String> = members.iter().map(|m| member_text(*m)).collect();
    format!("{{{}}}", inner.join(","))
}

// What `Step::from_json` must report on the object of `members`, worked out
// from the rule above, not from the decoder.
fn expected(members: &[Member]) -> Triples {
    for (j, (key, _, _)) in members.iter().enumerate() {
        if members[..j].iter().any(|(k, _, _)| k == key) {
            return expect(&[("parse", &format!("/{}", KEYS[*key]), "duplicate_key")]);
        }
    }
    let Some((_, _, value)) = members.iter().find(|(k, _, _)| *k == 0) else {
        return expect(&[("schema", "/action", "missing_key")]);
    };
    let rest: Vec<Member> = members
        .iter()
        .copied()
        .filter(|(k, _, _)| *k != 0)
        .collect();
    let rest = object(&rest);
    match VALUES[*value].1 {
        Some("close_ticket") => errors_of::<CloseTicketMembers>(&rest),
        Some("refund") => errors_of::<Refund>(&rest),
        Some("ask_customer") => errors_of::<AskCustomerMembers>(&rest),
        Some("no_action") => errors_of::<NoActionMembers>(&rest),
        Some(_) => expect(&[("schema", "/action", "unknown_variant")]),
        None => expect(&[("schema", "/action", "invalid_type")]),
    }
}

fn members() -> impl Strategy<Value = Vec<Member>> {
    let member = (
        0..KEYS.len(),
        proptest::bool::weighted(0.15),
        0..VALUES.len(),
    );
    proptest::collection::vec(member, 0..7)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn any_member_order_gets_the_errors_the_rule_says(members in members()) {
        let raw = object(&members);
        prop_assert_eq!(errors_of::<Step>(&raw), expected(&members), "{}", raw);
    }

    #[test]
    fn a_valid_document_decodes_whatever_member_comes_first(value in step(), at in 0usize..4) {
        let serde_json::Value::Object(map) = value.to_json() else { unreachable!() };
        let mut members: Vec<_> = map.into_iter().collect();
        let tag = members.remove(0);
        members.insert(at.min(members.len()), tag);
        let raw = serde_json::to_string(&members.into_iter().collect::<serde_json::Map<_, _>>()).unwrap();
        prop_assert_eq!(Step::from_json(&raw).unwrap(), value);
    }
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (1u64.., "[a-z ]{1,20}")
            .prop_map(|(ticket_id, reason)| Step::CloseTicket { ticket_id, reason }),
        (any::<u64>(), any::<u32>(), any::<u32>()).prop_map(|(order_id, a, b)| Step::Refund(
            Refund {
                order_id,
                refund_cents: a.min(b),
                order_total_cents: a.max(b),
            }
        )),
        "[a-z?]{1,20}".prop_map(|question| Step::AskCustomer { question }),
        Just(Step::NoAction),
    ]
}

#[test]
fn the_rule_is_checked_on_each_path() {
    // The property above meets these paths at random; here each is named.
    for (raw, want) in [
        // The tag first, its value written with an escape.
        (r#"{"action":"ask_cu\u0073tomer","question":"?"}"#, vec![]),
        // A member first, the guess right.
        (
            r#"{"ticket_id":0,"reason":"","action":"close_ticket"}"#,
            vec![
                ("schema", "/ticket_id", "below_minimum"),
                ("schema", "/reason", "too_short"),
            ],
        ),
        // The guess wrong: its errors are taken back.
        (
            r#"{"ticket_id":0,"reason":"","action":"ask_customer"}"#,
            vec![
                ("schema", "/ticket_id", "unknown_key"),
                ("schema", "/reason", "unknown_key"),
                ("schema", "/question", "missing_key"),
            ],
        ),
        // The guess met no tag, or one naming nothing.
        (
            r#"{"ticket_id":0,"reason":""}"#,
            vec![("schema", "/action", "missing_key")],
        ),
        (
            r#"{"ticket_id":0,"action":5,"reason":""}"#,
            vec![("schema", "/action", "invalid_type")],
        ),
        // A duplicate before the tag, after it, and of the tag.
        (
            r#"{"ticket_id":1,"ticket_id":2,"reason":"r","action":"close_ticket"}"#,
            vec![("parse", "/ticket_id", "duplicate_key")],
        ),
        (
            r#"{"bogus":1,"action":"close_ticket","bogus":2}"#,
            vec![("parse", "/bogus", "duplicate_key")],
        ),
        (
            r#"{"question":"?","action":"refund","\u0061ction":"ask_customer"}"#,
            vec![("parse", "/action", "duplicate_key")],
        ),
        // A key no variant declares first: the look-ahead.
        (
            r#"{"bogus":1,"question":"?","action":"ask_customer"}"#,
            vec![("schema", "/bogus", "unknown_key")],
        ),
        // The tag first written with escapes.
        (r#"{"\u0061ction":"no_action"}"#, vec![]),
    ] {
        assert_eq!(errors_of::<Step>(raw), expect(&want), "{raw}");
    }
}

/// A union whose variants share a member, one of them quarantined.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "kind", rename_all = "snake_case")]
pub enum Note {
    Short {
        #[contract(quarantine, max_len = 3)]
        text: Option<String>,
    },
    Long {
        #[contract(max_len = 10)]
        text: String,
    },
}

#[test]
fn a_review_reason_of_a_wrong_guess_is_taken_back() {
    // `text` first: `short` is guessed, and its quarantine drops the value
    // for review; the tag names `long`, where the value is fine.
    let outcome = Note::check(r#"{"text":"abcdef","kind":"long"}"#);
    assert_eq!(outcome.kind(), OutcomeKind::Accept, "{outcome:?}");
    let outcome = Note::check(r#"{"text":"abcdef","kind":"short"}"#);
    assert_eq!(outcome.kind(), OutcomeKind::Review, "{outcome:?}");
    let r = Note::from_json(r#"{"text":"abcdefghijkl","kind":"long"}"#).unwrap_err();
    assert_eq!(triples(&r), expect(&[("schema", "/text", "too_long")]));
}

/// Steps as items: a wrong guess in one item and guesses in the next.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Steps {
    pub steps: Vec<Step>,
}

#[test]
fn unions_as_items_report_at_their_pointers_after_a_wrong_guess() {
    let raw = r#"{"steps":[
        {"ticket_id":1,"question":"x","action":"ask_customer"},
        {"ticket_id":0,"reason":"r","action":"close_ticket"},
        {"question":"","action":"ask_customer"},
        {"order_id":1,"refund_cents":5,"order_total_cents":4,"action":"refund"}
    ]}"#;
    assert_eq!(
        errors_of::<Steps>(raw),
        expect(&[
            ("schema", "/steps/0/ticket_id", "unknown_key"),
            ("schema", "/steps/1/ticket_id", "below_minimum"),
            ("schema", "/steps/2/question", "too_short"),
        ])
    );
    // A schema-valid list: the rule stage runs, below the wrong guess too.
    let raw = r#"{"steps":[
        {"question":"x","action":"ask_customer"},
        {"order_id":1,"refund_cents":5,"order_total_cents":4,"action":"refund"}
    ]}"#;
    assert_eq!(
        errors_of::<Steps>(raw),
        expect(&[("rule", "/steps/1/order_total_cents", "order")])
    );
}

// `any` and `all` share their member `of`, so with the tag last `all` is
// guessed at every level and is wrong at every level. A guess inside a
// guess, or after a wrong one, is not made: each object is read a bounded
// number of times, where nested guesses would read the innermost 2^31 times.
#[test]
fn a_wrong_guess_at_every_level_stays_linear_in_the_depth() {
    let mut raw = r#"{"field":"status","equals":"open","unless":null,"op":"cond"}"#.to_owned();
    for _ in 0..31 {
        raw = format!(r#"{{"of":[{raw}],"op":"any"}}"#);
    }
    let mut filter = Filter::from_json(&raw).unwrap();
    let mut levels = 0;
    while let Filter::Any { of } = filter {
        filter = of.into_iter().next().unwrap();
        levels += 1;
    }
    assert_eq!(levels, 31);
    // The same with an error at the bottom: one, at its pointer.
    let bad = raw.replace(r#""status""#, r#""colour""#);
    let r = Filter::from_json(&bad).unwrap_err();
    let pointer = format!("{}/field", "/of/0".repeat(31));
    assert_eq!(triples(&r), expect(&[("schema", &pointer, "not_one_of")]));
}
