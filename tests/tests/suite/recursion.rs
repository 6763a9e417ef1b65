//! Recursive contracts: documents nested to the depth cap decode (or are
//! refused as `too_deep`) without overflowing a 2 MiB thread stack, in the
//! debug profile too; their values encode and drop on that stack; errors at
//! every level stay bounded; edit pointers through recursive types resolve
//! at compile time.
use crate::schema_support;
#[path = "recursion/wide.rs"]
mod wide;

use contract_runtime::json::Limits;
use contract_runtime::{Contract, Rejection, Stage};
use schema_support::{Cond, Filter, Node, Org, Page, Team, Ticket, Tree};

/// A chain through `Option<Box<_>>`: one nesting level, and one generated
/// decode frame, per link; as deep as a contract may be.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(max_depth = 1024, max_bytes = 2_000_000)]
pub struct Link {
    /// What this link says.
    #[contract(max_len = 2000)]
    pub label: String,
    /// A count with a bound, checked at every level.
    #[contract(max = 10)]
    pub weight: u8,
    /// The next link, or null at the end.
    pub next: Option<Box<Link>>,
}

/// A tree through `Vec<_>`: two nesting levels (object, array) per level.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(max_depth = 1024, max_bytes = 2_000_000)]
pub struct Branch {
    /// What this branch says.
    pub label: String,
    /// Its sub-branches.
    pub branches: Vec<Branch>,
}

/// A filter tree through a tagged union, as deep as allowed.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    tag = "op",
    rename_all = "snake_case",
    max_depth = 1024,
    max_bytes = 2_000_000
)]
pub enum Rule {
    /// Every rule holds.
    All { of: Vec<Rule> },
    /// The rule does not hold.
    Not { rule: Box<Rule> },
    /// A leaf.
    Field { name: String },
}

/// Edit policies that end at the recursive fields (a boxed or listed value
/// changes as a whole) and through a recursive type held by value.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(edit(rename = ["/root/name", "/root/children", "/link/next", "/link/label"]))]
pub struct Catalog {
    pub root: Tree,
    pub link: Link,
}

const STACK: usize = 2 << 20;

fn on_2_mib_stack<F: FnOnce() + Send + 'static>(f: F) {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

fn codes(rejection: &Rejection) -> Vec<(Stage, &str, &str)> {
    rejection
        .errors
        .iter()
        .map(|e| (e.stage, e.pointer.as_str(), e.code))
        .collect()
}

/// `depth` links (each one nesting level), each label `pad` characters.
fn link_document(depth: usize, pad: usize) -> String {
    let label = "x".repeat(pad);
    let mut raw = String::new();
    for _ in 0..depth - 1 {
        raw.push_str(&format!(r#"{{"label":"{label}","weight":1,"next":"#));
    }
    raw.push_str(&format!(r#"{{"label":"{label}","weight":1,"next":null}}"#));
    raw.push_str(&"}".repeat(depth - 1));
    raw
}

fn link_depth(link: &Link) -> usize {
    let mut depth = 1;
    let mut at = link;
    while let Some(next) = &at.next {
        depth += 1;
        at = next;
    }
    depth
}

#[test]
fn a_1_mib_document_nested_to_the_cap_decodes_on_a_2_mib_stack() {
    on_2_mib_stack(|| {
        let raw = link_document(Limits::MAX_DEPTH, 1000);
        assert!(raw.len() > 1 << 20, "{} bytes", raw.len());
        let link = Link::from_json(&raw).unwrap();
        assert_eq!(link_depth(&link), Limits::MAX_DEPTH);
        // Encoding and dropping it fit the same stack.
        let json = link.to_json();
        assert_eq!(json["next"]["next"]["weight"], 1);
        drop(json);
        drop(link);
    });
}

#[test]
fn a_1_mib_document_one_level_past_the_cap_is_too_deep_on_a_2_mib_stack() {
    on_2_mib_stack(|| {
        let raw = link_document(Limits::MAX_DEPTH + 1, 1000);
        let rejection = Link::from_json(&raw).unwrap_err();
        assert_eq!(codes(&rejection), [(Stage::Parse, "", "too_deep")]);
    });
}

#[test]
fn errors_at_every_level_of_a_document_nested_to_the_cap_are_capped() {
    on_2_mib_stack(|| {
        // Every link has a weight out of range and an unknown key.
        let raw = link_document(Limits::MAX_DEPTH, 1000)
            .replace(r#""weight":1"#, r#""weight":11,"extra":0"#);
        let rejection = Link::from_json(&raw).unwrap_err();
        let codes = codes(&rejection);
        assert_eq!(codes.len(), 64, "{codes:?}");
        assert_eq!(codes[0], (Stage::Schema, "/weight", "above_maximum"));
        assert_eq!(codes[1], (Stage::Schema, "/extra", "unknown_key"));
        assert_eq!(codes[2], (Stage::Schema, "/next/weight", "above_maximum"));
        assert_eq!(rejection.omitted, 2 * Limits::MAX_DEPTH - 64);
    });
}

#[test]
fn a_tree_nested_to_the_cap_through_vec_decodes_on_a_2_mib_stack() {
    on_2_mib_stack(|| {
        let levels = Limits::MAX_DEPTH / 2;
        let label = "y".repeat(2100);
        let mut raw = String::new();
        for _ in 0..levels {
            raw.push_str(&format!(r#"{{"label":"{label}","branches":["#));
        }
        raw.push_str(&"]}".repeat(levels));
        assert!(raw.len() > 1 << 20);
        let tree = Branch::from_json(&raw).unwrap();
        let json = tree.to_json();
        assert_eq!(json["branches"][0]["branches"][0]["label"], label.as_str());
        drop(json);
        drop(tree);
        let deeper = format!(r#"{{"label":"","branches":[{raw}]}}"#);
        let rejection = Branch::from_json(&deeper).unwrap_err();
        assert_eq!(codes(&rejection), [(Stage::Parse, "", "too_deep")]);
    });
}

#[test]
fn a_filter_nested_to_the_cap_through_a_union_decodes_on_a_2_mib_stack() {
    on_2_mib_stack(|| {
        let field = format!(r#"{{"op":"field","name":"{}"}}"#, "z".repeat(1 << 20));
        // `not` adds one level, `all` two.
        let mut raw = field;
        let mut depth = 1;
        while depth + 2 <= Limits::MAX_DEPTH {
            raw = if depth % 3 == 0 {
                format!(r#"{{"of":[{raw}],"op":"all"}}"#)
            } else {
                format!(r#"{{"op":"not","rule":{raw}}}"#)
            };
            depth += if raw.starts_with(r#"{"of""#) { 2 } else { 1 };
        }
        let rule = Rule::from_json(&raw).unwrap();
        drop(rule.to_json());
        drop(rule);
        let deeper = format!(r#"{{"op":"not","rule":{{"op":"not","rule":{raw}}}}}"#);
        let rejection = Rule::from_json(&deeper).unwrap_err();
        assert_eq!(codes(&rejection), [(Stage::Parse, "", "too_deep")]);
    });
}

#[test]
fn dropping_and_encoding_a_user_built_chain_as_deep_as_the_cap_fit_a_2_mib_stack() {
    on_2_mib_stack(|| {
        let mut link = Link {
            label: String::new(),
            weight: 0,
            next: None,
        };
        for _ in 1..Limits::MAX_DEPTH {
            link = Link {
                label: String::new(),
                weight: 0,
                next: Some(Box::new(link)),
            };
        }
        assert_eq!(link_depth(&link), Limits::MAX_DEPTH);
        drop(link.to_json());
        drop(link);
    });
}

#[test]
fn a_recursive_value_round_trips() {
    let raw = r#"{"value":1,"left":{"value":2,"left":null,"right":null},"right":{"value":3,"left":{"value":4,"left":null,"right":null},"right":null}}"#;
    let node = Node::from_json(raw).unwrap();
    assert_eq!(node.right.as_ref().unwrap().left.as_ref().unwrap().value, 4);
    assert_eq!(Node::from_json(&node.to_json().to_string()).unwrap(), node);
}

#[test]
fn errors_deep_in_a_recursive_value_have_their_pointers() {
    let raw = r#"{"value":1,"left":{"value":200,"left":null,"right":{"value":"3","left":null}},"right":null}"#;
    let rejection = Node::from_json(raw).unwrap_err();
    assert_eq!(
        codes(&rejection),
        [
            (Stage::Schema, "/left/value", "above_maximum"),
            (Stage::Schema, "/left/right/value", "invalid_type"),
            (Stage::Schema, "/left/right/right", "missing_key"),
        ]
    );
}

#[test]
fn mutual_recursion_decodes_and_reports_at_every_level() {
    let raw = r#"{"name":"a","teams":[{"lead":"b","runs":{"name":"c","teams":[{"lead":""}]}}]}"#;
    let rejection = Org::from_json(raw).unwrap_err();
    assert_eq!(
        codes(&rejection),
        [(Stage::Schema, "/teams/0/runs/teams/0/lead", "too_short")]
    );
    let ok = raw.replace(r#""lead":"""#, r#""lead":"d""#);
    let org = Org::from_json(&ok).unwrap();
    let Team {
        runs: Some(sub), ..
    } = &org.teams[0]
    else {
        panic!("no sub-organisation: {org:?}");
    };
    assert_eq!(sub.teams[0].lead, "d");
    assert_eq!(Org::from_json(&org.to_json().to_string()).unwrap(), org);
}

#[test]
fn a_filter_tree_through_a_union_and_a_newtype_variant_decodes() {
    let raw = r#"{"op":"all","of":[{"op":"cond","field":"status","equals":"open","unless":{"op":"any","of":[{"op":"cond","field":"owner","equals":"me","unless":null}]}}]}"#;
    let filter = Filter::from_json(raw).unwrap();
    let Filter::All { of } = &filter else {
        panic!("not all: {filter:?}");
    };
    let Filter::Cond(Cond {
        unless: Some(unless),
        ..
    }) = &of[0]
    else {
        panic!("not a condition with an exception: {:?}", of[0]);
    };
    assert!(matches!(**unless, Filter::Any { .. }));
    assert_eq!(
        Filter::from_json(&filter.to_json().to_string()).unwrap(),
        filter
    );
    let bad = raw.replace(r#""field":"owner""#, r#""field":"nobody""#);
    let rejection = Filter::from_json(&bad).unwrap_err();
    assert_eq!(
        codes(&rejection),
        [(Stage::Schema, "/of/0/unless/of/0/field", "not_one_of")]
    );
}

#[test]
fn a_recursive_contract_reads_its_own_depth_limit() {
    // `Tree` declares max_depth = 64: 32 levels of objects in arrays.
    let nest = |levels: usize| {
        format!(
            "{}{}",
            r#"{"name":"n","children":["#.repeat(levels),
            "]}".repeat(levels)
        )
    };
    assert!(Tree::from_json(&nest(32)).is_ok());
    let rejection = Tree::from_json(&nest(33)).unwrap_err();
    assert_eq!(codes(&rejection), [(Stage::Parse, "", "too_deep")]);
}

/// A recursive union with a small depth limit of its own.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "op", rename_all = "snake_case", max_depth = 8)]
pub enum Shallow {
    /// The negation of another.
    Not { inner: Box<Shallow> },
    /// A leaf.
    Leaf,
}

/// Holds a `Shallow` without a limit of its own (64).
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Holder {
    pub shallow: Shallow,
}

/// Holds a `Link` (1024) under a smaller limit.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(max_depth = 4)]
pub struct Short {
    pub link: Link,
}

/// `n` negations around a leaf: `n + 1` levels of objects.
fn shallow(n: usize) -> String {
    format!(
        "{}{}{}",
        r#"{"op":"not","inner":"#.repeat(n),
        r#"{"op":"leaf"}"#,
        "}".repeat(n)
    )
}

#[test]
fn a_nested_contract_is_bounded_by_the_roots_max_depth_not_its_own() {
    // On its own, `Shallow` takes 8 levels.
    assert!(Shallow::from_json(&shallow(7)).is_ok());
    let rejection = Shallow::from_json(&shallow(8)).unwrap_err();
    assert_eq!(codes(&rejection), [(Stage::Parse, "", "too_deep")]);
    // Inside `Holder` the root's 64 count, from the document's root.
    let held = |n: usize| format!(r#"{{"shallow":{}}}"#, shallow(n));
    assert!(Holder::from_json(&held(8)).is_ok());
    assert!(Holder::from_json(&held(62)).is_ok());
    let rejection = Holder::from_json(&held(63)).unwrap_err();
    assert_eq!(codes(&rejection), [(Stage::Parse, "", "too_deep")]);
    // Streamed, the same.
    let streamed = |raw: &str| {
        let mut stream = Holder::stream();
        let _ = stream.push(raw);
        stream.finish()
    };
    assert!(streamed(&held(62)).value().is_some());
    let outcome = streamed(&held(63));
    assert_eq!(
        codes(outcome.rejection().unwrap()),
        [(Stage::Parse, "", "too_deep")]
    );
}

#[test]
fn a_root_with_a_smaller_max_depth_bounds_a_nested_contract_with_a_larger_one() {
    // `Link` takes 1024 levels on its own; inside `Short`, 4 in all.
    let chain = |n: usize| link_document(n, 0);
    assert!(Link::from_json(&chain(10)).is_ok());
    assert!(Short::from_json(&format!(r#"{{"link":{}}}"#, chain(3))).is_ok());
    let rejection = Short::from_json(&format!(r#"{{"link":{}}}"#, chain(4))).unwrap_err();
    assert_eq!(codes(&rejection), [(Stage::Parse, "", "too_deep")]);
}

#[test]
fn edit_pointers_through_recursive_types_resolve_at_compile_time() {
    let policy = Catalog::RENAME;
    let baseline = serde_json::json!({
        "root": {"name": "a", "children": []},
        "link": {"label": "l", "weight": 1, "next": null}
    });
    let candidate = r#"{"root":{"name":"b","children":[{"name":"c","children":[]}]},"link":{"label":"l","weight":1,"next":{"label":"m","weight":2,"next":null}}}"#;
    let edit = policy.check(&baseline, candidate).unwrap();
    assert_eq!(edit.changed, ["/link/next", "/root/children", "/root/name"]);
}

#[test]
fn generic_pages_decode_each_instantiation() {
    let raw = r#"{"items":[{"id":1,"title":"t"},{"id":0,"title":""}],"next_cursor":null}"#;
    let rejection = Page::<Ticket>::from_json(raw).unwrap_err();
    assert_eq!(
        codes(&rejection),
        [
            (Stage::Schema, "/items/1/id", "below_minimum"),
            (Stage::Schema, "/items/1/title", "too_short"),
        ]
    );
    let raw = r#"{"items":[{"name":"a","children":[]}],"next_cursor":"c"}"#;
    let page = Page::<Tree>::from_json(raw).unwrap();
    assert_eq!(page.items[0].name, "a");
    assert_eq!(Page::<Tree>::schema_name(), "Page-1-Tree");
    assert_eq!(Page::<Page<Tree>>::schema_name(), "Page-1-Page-1-Tree");
    assert_eq!(Page::<Tree>::json_schema()["title"], "Page-1-Tree");
}

#[test]
fn provider_exports_keep_or_refuse_recursion() {
    use contract_runtime::schema::{ExportError, Provider};
    use schema_support::Listing;
    let recursive = |provider, pointer: &str| {
        Err(ExportError::Recursive {
            provider,
            pointer: pointer.to_owned(),
        })
    };
    // OpenAI takes recursion: the root as `#`, a definition by its `$ref`.
    let org = Org::json_schema_for(Provider::OpenAi).unwrap();
    assert_eq!(
        org.schema["$defs"]["Team"]["properties"]["runs"]["anyOf"][0]["$ref"],
        "#"
    );
    let listing = Listing::json_schema_for(Provider::OpenAi).unwrap();
    assert_eq!(
        listing.schema["$defs"]["Tree"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/Tree"
    );
    // Gemini only through a property that may be absent (`runs` is optional).
    assert!(Org::json_schema_for(Provider::Gemini).is_ok());
    assert_eq!(
        Node::json_schema_for(Provider::Gemini),
        recursive(Provider::Gemini, "")
    );
    assert_eq!(
        Listing::json_schema_for(Provider::Gemini),
        recursive(Provider::Gemini, "/$defs/Tree")
    );
    // Anthropic not at all, mutual recursion and a union's included.
    assert_eq!(
        Org::json_schema_for(Provider::Anthropic),
        recursive(Provider::Anthropic, "")
    );
    assert_eq!(
        Filter::json_schema_for(Provider::Anthropic),
        recursive(Provider::Anthropic, "")
    );
    assert_eq!(
        Listing::json_schema_for(Provider::Anthropic),
        recursive(Provider::Anthropic, "/$defs/Tree")
    );
}

#[test]
fn each_instantiation_of_a_generic_contract_has_its_own_definition() {
    use schema_support::Listing;
    let schema = Listing::json_schema();
    let defs = schema["$defs"].as_object().unwrap();
    let keys: Vec<&str> = defs.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "Page-1-Person",
            "Page-1-Ticket",
            "Page-1-Tree",
            "PageTicket",
            "Person",
            "Ticket",
            "Tree"
        ]
    );
    for key in keys {
        assert!(
            key.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.'),
            "{key}"
        );
    }
    assert_eq!(
        defs["Page-1-Ticket"]["properties"]["items"]["items"]["$ref"],
        "#/$defs/Ticket"
    );
    assert_eq!(
        defs["Page-1-Person"]["properties"]["items"]["items"]["$ref"],
        "#/$defs/Person"
    );
    assert_eq!(schema["properties"]["other"]["$ref"], "#/$defs/PageTicket");
}
