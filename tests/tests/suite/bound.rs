//! Members bound to the trusted context (`one_of = ctx.FIELD`): the
//! business stage's `not_in_context`, the per-request exports, their
//! provider limits, and the llguidance grammar with `evidence` substrings.
use std::collections::BTreeSet;

use contract_runtime::schema::{ExportError, Provider};
use contract_runtime::{Contract, EvidenceSource, Violation};
use proptest::prelude::*;
use serde_json::{Value, json};

pub struct Desk {
    ids: Vec<u64>,
    names: BTreeSet<String>,
    tags: Vec<&'static str>,
    levels: Vec<Level>,
    source: String,
}

impl EvidenceSource for Desk {
    fn source_text(&self) -> &str {
        &self.source
    }
}

#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
pub enum Level {
    Low,
    Mid,
    High,
}

#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk)]
pub struct Pick {
    #[contract(min = 1, one_of = ctx.ids)]
    id: u64,
    #[contract(one_of = ctx.names)]
    name: Option<String>,
    #[contract(one_of = ctx.tags, max_len = 3)]
    tags: Vec<String>,
    #[contract(one_of = ctx.levels)]
    level: Level,
    #[contract(one_of = ctx.levels)]
    fallback: Option<Level>,
    #[contract(evidence)]
    quote: String,
}

fn desk() -> Desk {
    Desk {
        ids: vec![7, 3, 7, 9],
        names: ["ana", "bo"].into_iter().map(String::from).collect(),
        tags: vec!["x", "y"],
        levels: vec![Level::High, Level::Low],
        source: "Line \"one\"\nand é\\".to_owned(),
    }
}

const GOOD: &str =
    r#"{"id":3,"name":"bo","tags":["y"],"level":"low","fallback":null,"quote":"one"}"#;

#[test]
fn values_of_the_context_pass_and_others_are_not_in_context() {
    let desk = desk();
    assert!(Pick::check_with(GOOD, &desk).is_accept());
    let bad =
        r#"{"id":4,"name":"cy","tags":["y","z"],"level":"mid","fallback":"mid","quote":"one"}"#;
    let rejection = Pick::check_with(bad, &desk).rejection().cloned().unwrap();
    let found: Vec<(&str, &str, &str)> = rejection
        .errors
        .iter()
        .map(|e| (e.stage.as_str(), e.pointer.as_str(), e.code))
        .collect();
    assert_eq!(
        found,
        [
            ("business", "/id", "not_in_context"),
            ("business", "/name", "not_in_context"),
            ("business", "/tags/1", "not_in_context"),
            ("business", "/level", "not_in_context"),
            ("business", "/fallback", "not_in_context"),
        ]
    );
    // Without the context, the binding is not checked.
    assert!(Pick::check(bad).is_accept());
}

pub struct Tickets {
    closable: Vec<u64>,
}

fn explain(x: &Closing, ctx: &Tickets) -> Result<(), Violation> {
    if x.id == 8 && !ctx.closable.contains(&8) {
        return Err(Violation::review("/id", "ticket_on_hold", "on hold"));
    }
    Ok(())
}

#[derive(Contract, Debug)]
#[contract(context = Tickets, check = explain)]
pub struct Closing {
    #[contract(one_of = ctx.closable)]
    id: u64,
}

#[test]
fn a_reason_of_the_check_function_stands_for_not_in_context() {
    let ctx = Tickets { closable: vec![7] };
    let held = Closing::check_with(r#"{"id":8}"#, &ctx);
    assert_eq!(held.kind().as_str(), "review");
    assert_eq!(held.reasons()[0].code, "ticket_on_hold");
    let other = Closing::check_with(r#"{"id":9}"#, &ctx);
    assert_eq!(other.rejection().unwrap().errors[0].code, "not_in_context");
}

/// What the assistant does next, one variant bound.
#[derive(Contract, Debug, PartialEq)]
#[contract(tag = "action", rename_all = "snake_case", context = Tickets)]
pub enum Next {
    Wait,
    Close {
        #[contract(one_of = ctx.closable)]
        ticket_id: u64,
    },
}

#[test]
fn a_union_variant_binds_its_members() {
    let ctx = Tickets { closable: vec![5] };
    assert!(Next::check_with(r#"{"action":"close","ticket_id":5}"#, &ctx).is_accept());
    let other = Next::check_with(r#"{"action":"close","ticket_id":6}"#, &ctx);
    assert_eq!(other.rejection().unwrap().errors[0].pointer, "/ticket_id");
    let full = Next::json_schema_with(&ctx).unwrap();
    assert_eq!(
        full["oneOf"][1]["properties"]["ticket_id"]["enum"],
        json!([5])
    );
    let local = Next::json_schema_for_with(Provider::Local, &ctx).unwrap();
    assert_eq!(local.bound, ["/oneOf/1/properties/ticket_id"]);
}

/// A ticket to reopen: the struct of a newtype variant, with the union's
/// context.
#[derive(Contract, Debug, PartialEq)]
#[contract(context = Tickets)]
pub struct Reopen {
    #[contract(one_of = ctx.closable)]
    ticket_id: u64,
}

/// A union whose bound member sits in a newtype variant's struct.
#[derive(Contract, Debug, PartialEq)]
#[contract(tag = "action", rename_all = "snake_case", context = Tickets)]
pub enum After {
    Wait,
    Reopen(Reopen),
}

#[test]
fn a_newtype_variant_binds_its_struct_s_members() {
    let ctx = Tickets {
        closable: vec![5, 9],
    };
    assert!(After::check_with(r#"{"action":"reopen","ticket_id":9}"#, &ctx).is_accept());
    let other = After::check_with(r#"{"action":"reopen","ticket_id":6}"#, &ctx);
    assert_eq!(other.rejection().unwrap().errors[0].code, "not_in_context");
    let full = After::json_schema_with(&ctx).unwrap();
    assert_eq!(
        full["oneOf"][1]["properties"]["ticket_id"]["enum"],
        json!([5, 9])
    );
    // (OpenAI takes no union at the root: its refusal is the unbound one's.)
    let local = After::json_schema_for_with(Provider::Local, &ctx).unwrap();
    assert_eq!(local.bound, ["/oneOf/1/properties/ticket_id"]);
    let empty = Tickets { closable: vec![] };
    assert!(matches!(
        After::json_schema_for_with(Provider::Local, &empty),
        Err(ExportError::EmptyBinding { .. })
    ));
}

#[test]
fn exports_carry_the_values_in_the_context_s_order() {
    let desk = desk();
    let full = Pick::json_schema_with(&desk).unwrap();
    assert_eq!(full["properties"]["id"]["enum"], json!([7, 3, 9]));
    assert_eq!(full["properties"]["id"]["minimum"], json!(1));
    assert_eq!(
        full["properties"]["name"]["enum"],
        json!(["ana", "bo", null])
    );
    assert_eq!(
        full["properties"]["tags"]["items"]["enum"],
        json!(["x", "y"])
    );
    assert_eq!(full["properties"]["level"]["enum"], json!(["high", "low"]));
    for provider in Provider::ALL {
        let export = Pick::json_schema_for_with(provider, &desk).unwrap();
        assert_eq!(
            export.bound,
            [
                "/properties/id",
                "/properties/name",
                "/properties/tags/items",
                "/properties/level",
                "/properties/fallback",
            ],
            "{provider}"
        );
        let text = export.schema.to_string();
        assert!(text.contains(r#"["high","low"]"#), "{provider}: {text}");
        // Nothing else of the context leaves the process.
        assert!(!text.contains("Line"), "{provider}");
    }
    let format = Pick::response_format_with(Provider::OpenAi, &desk).unwrap();
    assert_eq!(
        format["json_schema"]["schema"]["properties"]["id"]["enum"],
        json!([7, 3, 9])
    );
    // The unbound export is unchanged.
    assert!(
        Pick::json_schema()["properties"]["id"]
            .get("enum")
            .is_none()
    );
}

#[test]
fn an_empty_set_is_an_error_but_an_option_is_bound_to_null() {
    let mut desk = desk();
    desk.names.clear();
    let full = Pick::json_schema_with(&desk).unwrap();
    assert_eq!(full["properties"]["name"]["type"], json!("null"));
    desk.ids.clear();
    assert_eq!(
        Pick::json_schema_for_with(Provider::OpenAi, &desk).unwrap_err(),
        ExportError::EmptyBinding {
            pointer: "/properties/id".into()
        }
    );
}

#[test]
fn past_the_enum_limits_the_binding_stays_local() {
    let mut desk = desk();
    desk.ids = (1..=1001).collect();
    let openai = Pick::json_schema_for_with(Provider::OpenAi, &desk).unwrap();
    assert!(!openai.bound.contains(&"/properties/id".to_owned()));
    let dropped = openai
        .dropped
        .iter()
        .find(|d| d.pointer == "/properties/id/enum")
        .unwrap();
    assert!(dropped.enforced_by.contains("not_in_context"));
    assert!(openai.schema["properties"]["id"].get("enum").is_none());
    let local = Pick::json_schema_for_with(Provider::Local, &desk).unwrap();
    assert!(local.bound.contains(&"/properties/id".to_owned()));
    // 1,000 values in all: the other bindings count too.
    desk.ids = (1..=999).collect();
    let openai = Pick::json_schema_for_with(Provider::OpenAi, &desk).unwrap();
    assert!(!openai.bound.contains(&"/properties/id".to_owned()));
    assert_eq!(openai.bound.len(), 4);
}

#[test]
fn the_grammar_quotes_the_source_json_escaped() {
    let grammar = Pick::grammar_with(&desk()).unwrap();
    assert!(grammar.starts_with("start: \"{\" "), "{grammar}");
    assert!(grammar.contains(r#""\"quote\"" ":" QUOTE_0"#), "{grammar}");
    assert!(
        grammar.contains(
            r#"["L","i","n","e"," ","\\\"","o","n","e","\\\"","\\n","a","n","d"," ","é","\\\\"]"#
        ),
        "{grammar}"
    );
    // A bound member's values are in its `%json` schema.
    assert!(grammar.contains(r#""enum":[7,3,9]"#), "{grammar}");
    // Without evidence, the export itself.
    let plain = Closing::grammar_with(&Tickets { closable: vec![7] }).unwrap();
    assert!(plain.starts_with("start: %json {"), "{plain}");
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(schema)
        .unwrap()
}

// The bound full schema, and every provider's bound export, accept `doc`
// exactly when the unbound one does and the binding `allowed` it; returns
// whether the unbound full schema accepts it.
fn bound_exports_agree<T: Contract<Context = Desk>>(
    desk: &Desk,
    doc: &Value,
    allowed: bool,
) -> Result<bool, TestCaseError> {
    let unbound_ok = validator(&T::json_schema()).is_valid(doc);
    let bound_ok = validator(&T::json_schema_with(desk).unwrap()).is_valid(doc);
    prop_assert_eq!(bound_ok, unbound_ok && allowed);
    for provider in Provider::ALL {
        let unbound = T::json_schema_for(provider).unwrap();
        let bound = T::json_schema_for_with(provider, desk).unwrap();
        prop_assert_eq!(
            validator(&bound.schema).is_valid(doc),
            validator(&unbound.schema).is_valid(doc) && allowed,
            "{}",
            provider
        );
    }
    Ok(unbound_ok)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    // The bound schema accepts exactly what the unbound one accepts and
    // the binding allows, for every provider's export too.
    #[test]
    fn the_bound_export_is_the_unbound_one_and_the_binding(
        ids in proptest::collection::vec(0u64..6, 1..4),
        levels in proptest::collection::vec(0usize..3, 1..3),
        id_pick in 0usize..8,
        name in proptest::option::of(prop_oneof![Just("ana"), Just("cy")]),
        tags in proptest::collection::vec(prop_oneof![3 => Just("x"), 1 => Just("z")], 0..3),
        level in 0usize..3,
        fallback in proptest::option::of(0usize..3),
    ) {
        const LEVELS: [Level; 3] = [Level::Low, Level::Mid, Level::High];
        let names = ["low", "mid", "high"];
        // Often one of the context's ids, else any.
        let id = if id_pick < 4 { ids[id_pick % ids.len()] } else { id_pick as u64 - 3 };
        let desk = Desk {
            ids: ids.clone(),
            names: ["ana", "bo"].into_iter().map(String::from).collect(),
            tags: vec!["x", "y"],
            levels: levels.iter().map(|&i| LEVELS[i]).collect(),
            source: "one".into(),
        };
        let doc = json!({
            "id": id, "name": name, "tags": tags, "level": names[level],
            "fallback": fallback.map(|i| names[i]), "quote": "one",
        });
        let allowed = ids.contains(&id)
            && name.is_none_or(|n| n == "ana")
            && tags.iter().all(|t| *t == "x")
            && levels.contains(&level)
            && fallback.is_none_or(|f| levels.contains(&f));
        let unbound_ok = bound_exports_agree::<Pick>(&desk, &doc, allowed)?;
        // The business stage agrees with the binding.
        let checked = Pick::check_with(&doc.to_string(), &desk);
        prop_assert_eq!(checked.is_accept(), unbound_ok && allowed && id >= 1);
    }

    // A held contract's binding, in its shared definition: every
    // provider's bound export accepts exactly the documents whose every
    // `Pick` (the first, each of the rest) has an id of the context, as
    // the business stage does.
    #[test]
    fn a_held_contracts_binding_agrees_with_the_business_stage(
        ids in proptest::collection::vec(0u64..6, 1..4),
        first in 0u64..6,
        rest in proptest::collection::vec(0u64..6, 0..4),
    ) {
        let desk = Desk { ids: ids.clone(), ..desk() };
        let pick = |id: u64| json!({
            "id": id, "name": null, "tags": [], "level": "high", "fallback": null,
            "quote": "one",
        });
        let doc = json!({
            "first": pick(first),
            "rest": rest.iter().map(|&id| pick(id)).collect::<Vec<_>>(),
        });
        let allowed = std::iter::once(&first).chain(&rest).all(|id| ids.contains(id));
        let unbound_ok = bound_exports_agree::<Basket>(&desk, &doc, allowed)?;
        let checked = Basket::check_with(&doc.to_string(), &desk);
        prop_assert_eq!(checked.is_accept(), unbound_ok && allowed);
    }
}

fn cli(args: &[&str]) -> (i32, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = contract_examples::cli::main_with(args.iter().copied(), &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn the_seeds_bind_their_memberships() {
    use contract_examples::close_ticket::{CloseTicket, TicketContext};
    use contract_examples::ticket_extraction::{EmailContext, TicketExtraction};
    let ctx = TicketContext::demo("demo-a");
    let export = CloseTicket::json_schema_for_with(Provider::OpenAi, &ctx).unwrap();
    assert_eq!(export.schema["properties"]["ticket_id"]["enum"], json!([7]));
    let email = EmailContext {
        source: "It fails on eu-1.".into(),
        confirmed_clusters: vec!["eu-1".into()],
    };
    let export = TicketExtraction::json_schema_for_with(Provider::Anthropic, &email).unwrap();
    assert_eq!(export.bound, ["/properties/affected_cluster"]);
    // The seed's own codes still stand for the binding's.
    let other = CloseTicket::check_with(
        r#"{"action":"close_ticket","ticket_id":8,"reason":"done"}"#,
        &ctx,
    );
    assert_eq!(other.rejection().unwrap().errors.len(), 1);
    assert_eq!(other.rejection().unwrap().errors[0].code, "wrong_tenant");
}

#[test]
fn the_cli_prints_bound_exports_and_the_grammar() {
    let (code, out, err) = cli(&[
        "--schema",
        "close-ticket",
        "--provider",
        "openai",
        "--request",
        "--context",
        r#"{"tenant":"demo-a","closable_ticket_ids":[7,70]}"#,
    ]);
    assert_eq!(code, 0, "{err}");
    let fragment: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        fragment["json_schema"]["schema"]["properties"]["ticket_id"]["enum"],
        json!([7, 70])
    );
    assert!(err.contains("bound /properties/ticket_id"), "{err}");
    let (code, out, _) = cli(&[
        "--schema",
        "close-ticket",
        "--context",
        r#"{"tenant":"demo-b"}"#,
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("\"enum\": [\n        8\n      ]"), "{out}");
    let dir = std::env::temp_dir().join(format!("bound-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("mail.txt");
    std::fs::write(&source, "Down on \"eu-1\".").unwrap();
    let source = source.to_str().unwrap();
    let (code, out, err) = cli(&[
        "--grammar",
        "ticket-extraction",
        "--context",
        r#"{"confirmed_clusters":["eu-1"]}"#,
        "--source",
        source,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#""substring_chunks":["D","o","w","n"," ","o","n"," ","\\\"","e","u","-","1","\\\"","."]"#), "{out}");
    let (code, _, err) = cli(&[
        "--grammar",
        "ticket-extraction",
        "--context",
        "{\"confirmed_clusters\":[]}",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--source"), "{err}");
    let (code, _, err) = cli(&[
        "--schema",
        "close-ticket",
        "--provider",
        "openai",
        "--context",
        r#"{"tenant":"demo-a","closable_ticket_ids":[]}"#,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("holds no value"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A contract whose members hold a bound contract.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk)]
pub struct Basket {
    first: Pick,
    rest: Vec<Pick>,
}

// A nested contract's bound members are checked at their own pointers, and
// bound once, in its definition, which all its uses share.
#[test]
fn a_nested_contracts_bound_members_are_checked_and_bound_in_its_definition() {
    let good: Value = serde_json::from_str(GOOD).unwrap();
    let mut bad = good.clone();
    bad["id"] = json!(4);
    let text = json!({"first": good, "rest": [good, bad]}).to_string();
    let rejection = Basket::check_with(&text, &desk())
        .rejection()
        .cloned()
        .unwrap();
    let errors: Vec<(&str, &str)> = rejection
        .errors
        .iter()
        .map(|e| (e.pointer.as_str(), e.code))
        .collect();
    assert_eq!(errors, [("/rest/1/id", "not_in_context")]);
    let text = json!({"first": good, "rest": [good]}).to_string();
    assert!(Basket::check_with(&text, &desk()).is_accept());

    let pick = "/$defs/Pick/properties";
    let want: Vec<String> = ["id", "name", "tags/items", "level", "fallback"]
        .iter()
        .map(|m| format!("{pick}/{m}"))
        .collect();
    let export = Basket::json_schema_for_with(Provider::OpenAi, &desk()).unwrap();
    assert_eq!(export.bound, want);
    let full = Basket::json_schema_with(&desk()).unwrap();
    let def = &full["$defs"]["Pick"]["properties"];
    assert_eq!(def["id"]["enum"], json!([7, 3, 9]));
    assert_eq!(def["tags"]["items"]["enum"], json!(["x", "y"]));
    assert_eq!(def["level"]["enum"], json!(["high", "low"]));
    // Both uses refer to the one bound definition.
    assert_eq!(full["properties"]["first"]["$ref"], "#/$defs/Pick");
    assert_eq!(full["properties"]["rest"]["items"]["$ref"], "#/$defs/Pick");
    // The bound schema accepts the document the business stage accepts, and
    // refuses the one it refuses.
    let validator = validator(&full);
    assert!(validator.is_valid(&json!({"first": good, "rest": [good]})));
    assert!(!validator.is_valid(&json!({"first": good, "rest": [good, bad]})));
    // An empty context field is an error at the definition's member.
    let mut empty = desk();
    empty.ids.clear();
    assert_eq!(
        Basket::json_schema_with(&empty).unwrap_err(),
        ExportError::EmptyBinding {
            pointer: format!("{pick}/id")
        }
    );
    // `evidence` in a held contract is a substring of the source in the
    // grammar, as the contract's own is: its definition is a rule that both
    // uses name.
    let grammar = Basket::grammar_with(&desk()).unwrap();
    let own = Pick::grammar_with(&desk()).unwrap();
    assert!(own.contains("substring_chunks"), "{own}");
    assert!(
        grammar.starts_with(r#"start: "{" "\"first\"" ":" def_0 "," "\"rest\"" ":" "[" (def_0 ("," def_0)*)? "]" "}""#),
        "{grammar}"
    );
    assert!(
        grammar.contains(r#""\"quote\"" ":" QUOTE_0 "}""#),
        "{grammar}"
    );
    assert!(grammar.contains("substring_chunks"), "{grammar}");
    assert!(grammar.contains(r#""enum":[7,3,9]"#), "{grammar}");
}

/// A contract holding bound contracts in an `Option` and a map, and itself.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk)]
pub struct Shelf {
    #[contract(one_of = ctx.tags)]
    label: String,
    maybe: Option<Pick>,
    by_name: std::collections::BTreeMap<String, Pick>,
    more: Vec<Shelf>,
}

#[test]
fn bindings_reach_through_an_option_a_map_and_recursion() {
    let export = Shelf::json_schema_for_with(Provider::Local, &desk()).unwrap();
    let pick = ["id", "name", "tags/items", "level", "fallback"]
        .iter()
        .map(|m| format!("/$defs/Pick/properties/{m}"));
    let want: Vec<String> = std::iter::once("/properties/label".to_owned())
        .chain(pick)
        .collect();
    // Each place once: `Pick` is reached three ways, `Shelf` again through
    // `more` (its `$ref` is `#`, already bound).
    assert_eq!(export.bound, want);
    let full = Shelf::json_schema_with(&desk()).unwrap();
    assert_eq!(
        full["$defs"]["Pick"]["properties"]["id"]["enum"],
        json!([7, 3, 9])
    );
    assert_eq!(full["properties"]["label"]["enum"], json!(["x", "y"]));
    assert_eq!(full["properties"]["more"]["items"]["$ref"], "#");
}

/// A recursive contract with a context: its checks run at every level.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk, max_depth = 1024)]
pub struct Chain {
    #[contract(one_of = ctx.ids)]
    id: u64,
    next: Option<Box<Chain>>,
}

// A rejection's errors as `pointer code`, sorted; none for an outcome that
// is not a rejection.
fn sorted_errors<T>(outcome: &contract_runtime::Outcome<T>) -> Vec<String> {
    let mut errors: Vec<String> = outcome
        .rejection()
        .map(|r| {
            r.errors
                .iter()
                .map(|e| format!("{} {}", e.pointer, e.code))
                .collect()
        })
        .unwrap_or_default();
    errors.sort_unstable();
    errors
}

fn chain(ids: &[u64]) -> String {
    let mut text = String::from("null");
    for id in ids.iter().rev() {
        text = format!(r#"{{"id":{id},"next":{text}}}"#);
    }
    text
}

#[test]
fn a_recursive_contract_with_a_context_checks_every_level() {
    assert!(Chain::check_with(&chain(&[7, 3, 9]), &desk()).is_accept());
    // The nested contract's checks run before the holder's own.
    assert_eq!(
        sorted_errors(&Chain::check_with(&chain(&[7, 3, 4, 9, 5]), &desk())),
        [
            "/next/next/id not_in_context",
            "/next/next/next/next/id not_in_context"
        ]
    );
    // The root's own member is bound; its recursion is `$ref: "#"`.
    let export = Chain::json_schema_for_with(Provider::OpenAi, &desk()).unwrap();
    assert_eq!(export.bound, ["/properties/id"]);
    assert_eq!(export.schema["properties"]["id"]["enum"], json!([7, 3, 9]));
}

// Its business checks at the deepest document the limits let through, on a
// test's 2 MiB thread in a debug build.
#[test]
fn a_recursive_contract_with_a_context_is_checked_at_its_deepest() {
    let mut ids = vec![7; 1023];
    ids[1022] = 4;
    let text = chain(&ids);
    let rejection = Chain::check_with(&text, &desk())
        .rejection()
        .cloned()
        .unwrap();
    assert_eq!(rejection.errors.len(), 1);
    assert_eq!(rejection.errors[0].code, "not_in_context");
    assert_eq!(rejection.errors[0].pointer.matches("/next").count(), 1022);
}

/// A generic page of bound contracts.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk)]
pub struct Page<T> {
    #[contract(one_of = ctx.tags)]
    label: String,
    items: Vec<T>,
}

/// A union whose variants hold bound contracts.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "kind", rename_all = "snake_case", context = Desk)]
pub enum Held {
    One { pick: Pick },
    Many(Basket),
    Nothing,
}

// A generic contract's items, and a union's struct and newtype variants,
// reach the held contract's one definition too.
#[test]
fn a_generic_and_a_union_bind_the_contracts_they_hold() {
    let pick: Vec<String> = ["id", "name", "tags/items", "level", "fallback"]
        .iter()
        .map(|m| format!("/$defs/Pick/properties/{m}"))
        .collect();
    let page = Page::<Pick>::json_schema_for_with(Provider::OpenAi, &desk()).unwrap();
    let mut want = vec!["/properties/label".to_owned()];
    want.extend(pick.iter().cloned());
    assert_eq!(page.bound, want);
    let held = Held::json_schema_for_with(Provider::Anthropic, &desk()).unwrap();
    assert_eq!(held.bound, pick);
    let full = Held::json_schema_with(&desk()).unwrap();
    assert_eq!(
        full["oneOf"][0]["properties"]["pick"]["$ref"],
        "#/$defs/Pick"
    );
    assert_eq!(
        full["oneOf"][1]["properties"]["rest"]["items"]["$ref"],
        "#/$defs/Pick"
    );
    assert_eq!(
        full["$defs"]["Pick"]["properties"]["id"]["enum"],
        json!([7, 3, 9])
    );
}

/// A contract with a lifetime holding a bound contract.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk)]
pub struct Lent<'a> {
    #[contract(one_of = ctx.tags)]
    tag: &'a str,
    pick: Pick,
}

// A contract with a lifetime binds its own members and those it holds, as
// its `'static` form's exports do.
#[test]
fn a_contract_with_a_lifetime_binds_the_contracts_it_holds() {
    let export = Lent::json_schema_for_with(Provider::OpenAi, &desk()).unwrap();
    assert_eq!(
        export.bound[..2],
        ["/properties/tag", "/$defs/Pick/properties/id"]
    );
    let good: Value = serde_json::from_str(GOOD).unwrap();
    let mut bad = good.clone();
    bad["id"] = json!(4);
    let text = json!({"tag": "z", "pick": bad}).to_string();
    assert_eq!(
        sorted_errors(&Lent::check_with(&text, &desk())),
        ["/pick/id not_in_context", "/tag not_in_context"]
    );
}

/// A contract holding `evidence` only through the contracts it holds, in a
/// bounded array.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk)]
pub struct Picks {
    #[contract(min_len = 1, max_len = 2)]
    picks: Vec<Pick>,
}

/// A held `evidence` member below an `optional` one.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk)]
pub struct Loose {
    #[contract(optional)]
    note: Option<String>,
    pick: Pick,
}

// Every `evidence` string is a substring of the source, in a held contract
// too: its definition is one rule, which every use names (through an
// `Option`, a map, a bounded array, a union's variants), and recursion is a
// recursive rule.
#[test]
fn the_grammar_quotes_the_source_in_held_contracts_at_any_depth() {
    let quote = r#""\"quote\"" ":" QUOTE_0 "}""#;
    let shelf = Shelf::grammar_with(&desk()).unwrap();
    assert!(shelf.contains(r#"def_0: "{" "\"id\"""#), "{shelf}");
    assert!(shelf.contains(quote), "{shelf}");
    for part in [
        r#""\"maybe\"" ":" (def_0 | %json {"type":"null"})"#,
        r#""\"by_name\"" ":" "{" (%json {"type":"string"} ":" def_0 ("," %json {"type":"string"} ":" def_0)*)? "}""#,
        r#""\"more\"" ":" "[" (start ("," start)*)? "]""#,
        "substring_chunks",
    ] {
        assert!(shelf.contains(part), "{part} in {shelf}");
    }
    // The one definition, written once; no `$defs` copied into `%json`
    // values that refer to none.
    assert_eq!(shelf.matches("def_0:").count(), 1, "{shelf}");
    assert!(!shelf.contains("$defs"), "{shelf}");
    let picks = Picks::grammar_with(&desk()).unwrap();
    assert!(
        picks.contains(r#""\"picks\"" ":" "[" def_0 ("," def_0){0,1} "]""#),
        "{picks}"
    );
    let held = Held::grammar_with(&desk()).unwrap();
    assert!(held.starts_with(r#"start: ("{" "\"kind\"" ":" %json {"type":"string","const":"one"} "," "\"pick\"" ":" def_0 "}" | "#), "{held}");
    assert!(
        held.contains(r#""\"rest\"" ":" "[" (def_0 ("," def_0)*)? "]""#),
        "{held}"
    );
    // A bound member of the held contract keeps its values.
    assert!(held.contains(r#""enum":[7,3,9]"#), "{held}");
    // A contract whose members hold no `evidence` is its export.
    let chain = Chain::grammar_with(&desk()).unwrap();
    assert!(chain.starts_with("start: %json {"), "{chain}");
    // An `optional` key on the way to a held `evidence` member may be left
    // out; the ways to begin the object are written out.
    let loose = Loose::grammar_with(&desk()).unwrap();
    assert!(
        loose.starts_with("start: \"{\" (member_0 \",\" member_1 | member_1) \"}\"\n"),
        "{loose}"
    );
    assert!(
        loose.contains(r#"member_1: "\"pick\"" ":" def_0"#),
        "{loose}"
    );
}

/// A contract whose `when` rules the Local export lowers to one branch per
/// status, with a quote.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    context = Desk,
    outcome = level,
    when(level = Level::High, require(quote)),
    when(level = Level::Low, forbid(quote)),
)]
pub struct Ruled {
    level: Level,
    #[contract(evidence)]
    quote: Option<String>,
}

/// A held contract whose `when` rules are lowered in its definition.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Desk)]
pub struct RuledList {
    items: Vec<Ruled>,
}

// The branches a `when` rule is lowered to each hold the quote, at the root
// and in a held contract's definition.
#[test]
fn the_grammar_quotes_the_source_in_each_branch_of_a_lowered_rule() {
    let list = RuledList::grammar_with(&desk()).unwrap();
    assert!(
        list.starts_with(r#"start: "{" "\"items\"" ":" "[" (def_0 ("," def_0)*)? "]" "}""#),
        "{list}"
    );
    assert!(list.contains(r#"def_0: ("{" "\"level\"" ":" %json {"type":"string","const":"low"} "," "\"quote\"" ":" %json {"type":"null"} "}" | "#), "{list}");
    assert!(
        list.contains(r#""\"quote\"" ":" (QUOTE_0 | "null") "}""#),
        "{list}"
    );
    let local = Ruled::json_schema_for_with(Provider::Local, &desk()).unwrap();
    assert!(local.schema.get("anyOf").is_some(), "{}", local.schema);
    let grammar = Ruled::grammar_with(&desk()).unwrap();
    assert!(grammar.starts_with("start: (\"{\" "), "{grammar}");
    // `low`: `null` only; `mid`: a quote or `null`; `high`: a quote.
    for branch in [
        r#""{" "\"level\"" ":" %json {"type":"string","const":"low"} "," "\"quote\"" ":" %json {"type":"null"} "}""#,
        r#""{" "\"level\"" ":" %json {"type":"string","const":"mid"} "," "\"quote\"" ":" (QUOTE_0 | "null") "}""#,
        r#""{" "\"level\"" ":" %json {"type":"string","const":"high"} "," "\"quote\"" ":" QUOTE_1 "}""#,
    ] {
        assert!(grammar.contains(branch), "{branch} in {grammar}");
    }
    assert!(grammar.contains("substring_chunks"), "{grammar}");
}
