//! Model feedback never carries the rejected values or the trusted context.
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
    assert!(text.contains(
        "- at /state: not_one_of (schema stage); expected must be one of: \"open\", \"closed\""
    ));
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
