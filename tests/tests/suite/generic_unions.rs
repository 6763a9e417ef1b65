//! Generic tagged unions: `Reply<T>` (`schema_support/generic_union.rs`)
//! decodes, checks, encodes, streams and describes itself per
//! instantiation, as a generic struct does; `Replies` holds two
//! instantiations in one schema.
use crate::schema_support;

use contract_runtime::{Contract, OutcomeKind, Rejection, Violation};
use schema_support::{Page, Person, Replies, Reply, Ticket, stream};
use serde_json::Value;

fn ticket(id: u64, title: &str) -> Ticket {
    Ticket {
        id,
        title: title.into(),
    }
}

fn errors(r: &Rejection) -> Vec<(&str, &str)> {
    r.errors
        .iter()
        .map(|e| (e.pointer.as_str(), e.code))
        .collect()
}

fn replies() -> Replies {
    Replies {
        tickets: Reply::Answer {
            value: ticket(7, "printer"),
            remark: None,
        },
        people: Some(Reply::Page(Page {
            items: vec![Person { name: "Ada".into() }],
            next_cursor: Some("p2".into()),
        })),
        earlier: vec![
            Reply::Nothing,
            Reply::Page(Page {
                items: vec![ticket(1, "a"), ticket(2, "b")],
                next_cursor: None,
            }),
        ],
    }
}

#[test]
fn each_variant_of_a_generic_union_decodes() {
    let answer = r#"{"remark":"ok","kind":"answer","value":{"id":7,"title":"printer"}}"#;
    assert_eq!(
        Reply::<Ticket>::from_json(answer).unwrap(),
        Reply::Answer {
            value: ticket(7, "printer"),
            remark: Some("ok".into())
        }
    );
    let page = r#"{"kind":"page","items":[{"name":"Ada"}],"next_cursor":null}"#;
    assert_eq!(
        Reply::<Person>::from_json(page).unwrap(),
        Reply::Page(Page {
            items: vec![Person { name: "Ada".into() }],
            next_cursor: None
        })
    );
    assert_eq!(
        Reply::<Ticket>::from_json(r#"{"kind":"nothing"}"#).unwrap(),
        Reply::Nothing
    );
}

#[test]
fn a_generic_union_round_trips_through_to_json() {
    let value = replies();
    let json = value.to_json();
    assert_eq!(json["tickets"]["kind"], "answer");
    assert_eq!(json["people"]["items"][0]["name"], "Ada");
    assert_eq!(Replies::from_json(&json.to_string()).unwrap(), value);
}

#[test]
fn each_instantiation_checks_its_own_argument_at_its_pointer() {
    let raw = r#"{"tickets":{"kind":"answer","value":{"id":0,"title":"x"},"remark":null},
        "people":{"kind":"page","items":[{"name":""}],"next_cursor":null},
        "earlier":[{"kind":"page","items":[{"id":1,"title":""}],"next_cursor":null}]}"#;
    let r = Replies::from_json(raw).unwrap_err();
    assert_eq!(
        errors(&r),
        [
            ("/tickets/value/id", "below_minimum"),
            ("/people/items/0/name", "too_short"),
            ("/earlier/0/items/0/title", "too_short"),
        ]
    );
}

#[test]
fn a_generic_unions_tag_errors_are_a_unions() {
    let missing = Reply::<Ticket>::from_json(r#"{"value":{"id":1,"title":"x"}}"#).unwrap_err();
    assert_eq!(errors(&missing), [("/kind", "missing_key")]);
    let unknown = Reply::<Ticket>::from_json(r#"{"kind":"answr"}"#).unwrap_err();
    assert_eq!(errors(&unknown), [("/kind", "unknown_variant")]);
    // A member of a sibling variant: the page's `items` beside an answer.
    let sibling = Reply::<Ticket>::from_json(
        r#"{"kind":"answer","value":{"id":1,"title":"x"},"remark":null,"items":[]}"#,
    )
    .unwrap_err();
    assert_eq!(errors(&sibling), [("/items", "unknown_key")]);
}

#[test]
fn a_generic_unions_outcome_is_its_variants() {
    assert_eq!(
        Reply::<Ticket>::check(r#"{"kind":"nothing"}"#).kind(),
        OutcomeKind::Decline
    );
    assert_eq!(
        Reply::<Person>::check(r#"{"kind":"answer","value":{"name":"Ada"},"remark":null}"#).kind(),
        OutcomeKind::Accept
    );
}

#[test]
fn each_instantiation_has_its_own_defs_key() {
    assert_eq!(Reply::<Ticket>::schema_name(), "Reply-1-Ticket");
    assert_eq!(
        Reply::<Page<Person>>::schema_name(),
        "Reply-1-Page-1-Person"
    );
    let schema = Replies::json_schema();
    let defs = schema["$defs"].as_object().unwrap();
    let keys: Vec<&str> = defs.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["Person", "Reply-1-Person", "Reply-1-Ticket", "Ticket"]
    );
    assert!(keys.iter().all(|k| {
        k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b))
    }));
    assert_eq!(
        schema["properties"]["tickets"]["$ref"],
        "#/$defs/Reply-1-Ticket"
    );
    let answer = &defs["Reply-1-Person"]["oneOf"][0]["properties"]["value"];
    assert_eq!(answer["$ref"], "#/$defs/Person");
    let page = &defs["Reply-1-Ticket"]["oneOf"][1]["properties"]["items"]["items"];
    assert_eq!(page["$ref"], "#/$defs/Ticket");
}

#[test]
fn two_instantiations_in_one_schema_agree_with_the_decoder() {
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&Replies::json_schema())
        .unwrap();
    let ok_people = r#"{"kind":"answer","value":{"name":"Ada"},"remark":null}"#;
    let ok_ticket = r#"{"kind":"answer","value":{"id":1,"title":"x"},"remark":null}"#;
    let doc = |tickets: &str, people: &str| {
        format!(r#"{{"tickets":{tickets},"people":{people},"earlier":[]}}"#)
    };
    let accepted = [
        doc(ok_ticket, ok_people),
        doc(ok_ticket, "null"),
        doc(
            r#"{"kind":"nothing"}"#,
            r#"{"kind":"page","items":[],"next_cursor":"n"}"#,
        ),
        replies().to_json().to_string(),
    ];
    let rejected = [
        // Each instantiation's argument in the other's place.
        doc(ok_people, ok_people),
        doc(ok_ticket, ok_ticket),
        doc(
            r#"{"kind":"page","items":[{"name":"Ada"}],"next_cursor":null}"#,
            "null",
        ),
        // The argument's own check, through each instantiation.
        doc(
            r#"{"kind":"answer","value":{"id":0,"title":"x"},"remark":null}"#,
            "null",
        ),
        doc(
            ok_ticket,
            r#"{"kind":"answer","value":{"name":""},"remark":null}"#,
        ),
        // A union's own rules: tag, sibling member, a member's check.
        doc(r#"{"kind":"answr"}"#, "null"),
        doc(r#"{"kind":"nothing","remark":null}"#, "null"),
        doc(
            r#"{"kind":"answer","value":{"id":1,"title":"x"},"remark":""}"#,
            "null",
        ),
    ];
    for raw in &accepted {
        let value: Value = serde_json::from_str(raw).unwrap();
        assert!(validator.is_valid(&value), "schema rejects {raw}");
        assert!(Replies::from_json(raw).is_ok(), "decoder rejects {raw}");
    }
    for raw in &rejected {
        let value: Value = serde_json::from_str(raw).unwrap();
        assert!(!validator.is_valid(&value), "schema accepts {raw}");
        assert!(Replies::from_json(raw).is_err(), "decoder accepts {raw}");
    }
}

#[test]
fn a_generic_union_streams_as_it_checks() {
    let whole = replies().to_json().to_string();
    let pieces: Vec<&str> = {
        let (a, b) = whole.split_at(whole.len() / 3);
        let (b, c) = b.split_at(b.len() / 2);
        vec![a, b, c]
    };
    let streamed = stream::<Replies>(&pieces);
    assert!(streamed.rejected.is_none(), "{:?}", streamed.rejected);
    assert_eq!(streamed.finish, streamed.check);
    assert_eq!(streamed.finish.kind, OutcomeKind::Accept);

    let bad = whole.replace(r#""name":"Ada""#, r#""name":"""#);
    let streamed = stream::<Replies>(&[&bad]);
    let (_, r) = streamed.rejected.expect("rejected while streaming");
    assert_eq!(errors(&r), [("/people/items/0/name", "too_short")]);
    assert_eq!(streamed.finish, streamed.check);
}

// ---------------------------------------------------------------- with a context

pub struct Desk {
    pub open: Vec<u64>,
}

fn open_ticket(t: &OpenTicket, desk: &Desk) -> Result<(), Violation> {
    if desk.open.contains(&t.id) {
        Ok(())
    } else {
        Err(Violation::business(
            "/id",
            "unknown_ticket",
            "no such open ticket",
        ))
    }
}

#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk, check = open_ticket)]
pub struct OpenTicket {
    pub id: u64,
}

// The union's own check sees any instantiation.
fn not_closing_an_empty_desk<T>(step: &Step<T>, desk: &Desk) -> Result<(), Violation> {
    match step {
        Step::Close { .. } if desk.open.is_empty() => {
            Err(Violation::business("", "nothing_open", "no ticket is open"))
        }
        _ => Ok(()),
    }
}

#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "action", rename_all = "snake_case", context = Desk, check = not_closing_an_empty_desk)]
pub enum Step<T> {
    Close { ticket: T },
    Wait,
}

#[test]
fn a_generic_union_with_a_context_runs_its_arguments_checks_and_its_own() {
    let desk = Desk { open: vec![7] };
    let ok = r#"{"action":"close","ticket":{"id":7}}"#;
    assert_eq!(
        Step::<OpenTicket>::check_with(ok, &desk).kind(),
        OutcomeKind::Accept
    );
    let unknown = Step::<OpenTicket>::check_with(r#"{"action":"close","ticket":{"id":8}}"#, &desk);
    let r = unknown.rejection().unwrap();
    assert_eq!(errors(r), [("/ticket/id", "unknown_ticket")]);
    let empty = Desk { open: vec![] };
    let r = Step::<OpenTicket>::check_with(ok, &empty);
    let codes: Vec<_> = r
        .rejection()
        .unwrap()
        .errors
        .iter()
        .map(|e| e.code)
        .collect();
    assert_eq!(codes, ["unknown_ticket", "nothing_open"]);
}
