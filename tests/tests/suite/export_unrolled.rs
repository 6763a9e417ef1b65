//! Recursion unrolled to a bounded depth (`schema::export_unrolled`,
//! `Contract::json_schema_for_unrolled`): the export of a recursive
//! contract for a target without recursion accepts exactly the documents
//! the decoder accepts that nest at most `depth` levels of the recursive
//! definitions, checked with `jsonschema` on generated documents of every
//! depth up to two past the bound.
use crate::schema_support;

use std::cell::Cell;

use contract_runtime::Contract;
use contract_runtime::schema::{Export, ExportError, Provider, export_unrolled};
use jsonschema::Validator;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use schema_support::{Filter, Listing, Node, Org, Tree};
use serde_json::{Value, json};

/// A filter as the `decode_tree` fuzz target's: `not` holds a required,
/// non-nullable filter.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "op", rename_all = "snake_case", max_depth = 64)]
pub enum Expr {
    /// Every filter holds.
    All {
        /// One to eight filters.
        #[contract(min_len = 1, max_len = 8)]
        of: Vec<Expr>,
    },
    /// The filter does not hold.
    Not {
        /// The negated filter.
        filter: Box<Expr>,
    },
    /// One condition.
    Cond(When),
}

/// A condition, with an optional exception.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct When {
    /// The field compared.
    pub field: String,
    /// A filter under which the condition does not apply, or null.
    pub unless: Option<Box<Expr>>,
}

/// A model's turn: what it says, and the filter it builds.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Turn {
    /// What the model says.
    pub say: String,
    /// The filter.
    pub filter: Expr,
}

fn validator(schema: &Value) -> Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(schema)
        .unwrap()
}

/// A tape of choices, read from the front (0 when it runs out).
struct Tape<'t>(&'t [u32], usize);

impl Tape<'_> {
    fn pick(&mut self, n: u32) -> u32 {
        let v = self.0.get(self.1).copied().unwrap_or(0);
        self.1 += 1;
        v % n
    }
}

/// A document generator: a document no deeper than `max` levels, and its
/// levels of recursion.
type Generate = fn(&mut Tape<'_>, usize) -> (Value, usize);

fn tree(t: &mut Tape<'_>, max: usize) -> (Value, usize) {
    let n = if max > 1 { t.pick(3) } else { 0 };
    let children: Vec<(Value, usize)> = (0..n).map(|_| tree(t, max - 1)).collect();
    let levels = 1 + children.iter().map(|c| c.1).max().unwrap_or(0);
    let docs: Vec<Value> = children.into_iter().map(|c| c.0).collect();
    (json!({"name": "n", "children": docs}), levels)
}

fn node(t: &mut Tape<'_>, max: usize) -> (Value, usize) {
    let side = |t: &mut Tape<'_>| {
        if max > 1 && t.pick(3) > 0 {
            node(t, max - 1)
        } else {
            (Value::Null, 0)
        }
    };
    let (left, l) = side(t);
    let (right, r) = side(t);
    (
        json!({"value": 7, "left": left, "right": right}),
        1 + l.max(r),
    )
}

fn filter(t: &mut Tape<'_>, max: usize) -> (Value, usize) {
    match if max > 1 { t.pick(4) } else { 3 } {
        op @ (0 | 1) => {
            // An empty `of` now and then: refused by both.
            let n = t.pick(3);
            let of: Vec<(Value, usize)> = (0..n).map(|_| filter(t, max - 1)).collect();
            let levels = 1 + of.iter().map(|c| c.1).max().unwrap_or(0);
            let docs: Vec<Value> = of.into_iter().map(|c| c.0).collect();
            let op = if op == 0 { "all" } else { "any" };
            (json!({"op": op, "of": docs}), levels)
        }
        _ => {
            let (unless, levels) = if max > 1 && t.pick(2) == 0 {
                filter(t, max - 1)
            } else {
                (Value::Null, 0)
            };
            let doc = json!({"op": "cond", "field": "owner", "equals": "ana", "unless": unless});
            (doc, 1 + levels)
        }
    }
}

fn expr(t: &mut Tape<'_>, max: usize) -> (Value, usize) {
    match if max > 1 { t.pick(3) } else { 2 } {
        0 => {
            let n = t.pick(3);
            let of: Vec<(Value, usize)> = (0..n).map(|_| expr(t, max - 1)).collect();
            let levels = 1 + of.iter().map(|c| c.1).max().unwrap_or(0);
            let docs: Vec<Value> = of.into_iter().map(|c| c.0).collect();
            (json!({"op": "all", "of": docs}), levels)
        }
        1 => {
            let (filter, levels) = expr(t, max - 1);
            (json!({"op": "not", "filter": filter}), 1 + levels)
        }
        _ => {
            let (unless, levels) = if max > 1 && t.pick(2) == 0 {
                expr(t, max - 1)
            } else {
                (Value::Null, 0)
            };
            (
                json!({"op": "cond", "field": "owner", "unless": unless}),
                1 + levels,
            )
        }
    }
}

/// A turn holding a filter: the filter's levels (the turn is not one).
fn turn(t: &mut Tape<'_>, max: usize) -> (Value, usize) {
    let (filter, levels) = expr(t, max);
    (json!({"say": "here", "filter": filter}), levels)
}

/// An organisation and its teams: each org and each team is a level.
fn org(t: &mut Tape<'_>, max: usize) -> (Value, usize) {
    let n = if max > 1 { t.pick(3) } else { 0 };
    let mut levels = 1;
    let mut teams = Vec::new();
    for _ in 0..n {
        let mut team = json!({"lead": "ana"});
        let mut team_levels = 1;
        match t.pick(3) {
            0 if max > 2 => {
                let (sub, l) = org(t, max - 2);
                team["runs"] = sub;
                team_levels += l;
            }
            1 => team["runs"] = Value::Null,
            _ => {}
        }
        levels = levels.max(1 + team_levels);
        teams.push(team);
    }
    (json!({"name": "o", "teams": teams}), levels)
}

/// `export` accepts a generated document exactly when `decodes` does and
/// the document nests at most `depth` levels.
fn agrees(
    name: &str,
    export: &Export,
    depth: usize,
    generate: Generate,
    decodes: fn(&str) -> bool,
) {
    let exported = validator(&export.schema);
    let (within, beyond) = (Cell::new(0), Cell::new(0));
    let config = Config {
        cases: 600,
        rng_seed: RngSeed::Fixed(0x0dd ^ depth as u64 ^ name.len() as u64),
        failure_persistence: None,
        ..Config::default()
    };
    let result = TestRunner::new(config).run(
        &(1..=depth + 2, proptest::collection::vec(any::<u32>(), 64)),
        |(max, tape)| {
            let (doc, levels) = generate(&mut Tape(&tape, 0), max);
            let decoder = decodes(&doc.to_string()) && levels <= depth;
            if levels <= depth {
                within.set(within.get() + 1);
            } else {
                beyond.set(beyond.get() + 1);
            }
            prop_assert_eq!(
                exported.is_valid(&doc),
                decoder,
                "{} {:?} depth {}: {} ({} levels)",
                name,
                export.provider,
                depth,
                doc,
                levels
            );
            Ok(())
        },
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(
        within.get() > 20 && beyond.get() > 20,
        "{name}: {} within, {} beyond",
        within.get(),
        beyond.get()
    );
}

#[test]
fn an_unrolled_export_accepts_exactly_the_documents_within_its_depth() {
    type Case = (
        &'static str,
        Generate,
        fn(&str) -> bool,
        fn(Provider, usize) -> Result<Export, ExportError>,
    );
    let cases: [Case; 6] = [
        (
            "tree",
            tree,
            |s| Tree::from_json(s).is_ok(),
            export_unrolled::<Tree>,
        ),
        (
            "node",
            node,
            |s| Node::from_json(s).is_ok(),
            export_unrolled::<Node>,
        ),
        (
            "filter",
            filter,
            |s| Filter::from_json(s).is_ok(),
            export_unrolled::<Filter>,
        ),
        (
            "org",
            org,
            |s| Org::from_json(s).is_ok(),
            export_unrolled::<Org>,
        ),
        (
            "expr",
            expr,
            |s| Expr::from_json(s).is_ok(),
            export_unrolled::<Expr>,
        ),
        (
            "turn",
            turn,
            |s| Turn::from_json(s).is_ok(),
            export_unrolled::<Turn>,
        ),
    ];
    for (name, generate, decodes, unrolled) in cases {
        for provider in [Provider::Gemini, Provider::Anthropic, Provider::Local] {
            for depth in [1, 2, 4] {
                match unrolled(provider, depth) {
                    Ok(export) => agrees(name, &export, depth, generate, decodes),
                    // An empty array past the bound: Anthropic has no `maxItems`.
                    Err(ExportError::Unsupported { .. })
                        if provider == Provider::Anthropic && matches!(name, "tree" | "org") => {}
                    Err(e) => panic!("{name} {provider} {depth}: {e}"),
                }
            }
        }
    }
}

#[test]
fn a_filter_tree_exports_for_anthropic_and_gemini_once_unrolled() {
    for provider in [Provider::Anthropic, Provider::Gemini] {
        assert!(matches!(
            Filter::json_schema_for(provider),
            Err(ExportError::Recursive { .. })
        ));
        let e = Filter::json_schema_for_unrolled(provider, 3).unwrap();
        let defs = e.schema["$defs"].as_object().unwrap();
        let names: Vec<&str> = defs.keys().map(String::as_str).collect();
        assert_eq!(names, ["Filter-depth-2", "Filter-depth-3"], "{provider}");
        // The last level: a condition whose exception is null.
        let last = &defs["Filter-depth-3"]["anyOf"];
        assert_eq!(last.as_array().map(Vec::len), Some(1), "{provider}");
        assert_eq!(
            last[0]["properties"]["unless"]["anyOf"],
            json!([{"type": "null"}])
        );
    }
}

#[test]
fn an_unrolled_export_reports_each_cut_reference() {
    let e = export_unrolled::<Filter>(Provider::Anthropic, 3).unwrap();
    let full = Filter::json_schema();
    let cut: Vec<&str> = e
        .dropped
        .iter()
        .filter(|d| d.keyword == "$ref")
        .map(|d| d.pointer.as_str())
        .collect();
    assert_eq!(
        cut,
        [
            "/oneOf/0/properties/of/items/$ref",
            "/oneOf/1/properties/of/items/$ref",
            "/oneOf/2/properties/unless/anyOf/0/$ref",
        ]
    );
    for pointer in cut {
        assert_eq!(full.pointer(pointer), Some(&json!("#")), "{pointer}");
    }
    assert!(e.dropped.iter().any(|d| d.enforced_by.contains("3 levels")));
}

#[test]
fn an_unrolled_tree_ends_in_empty_arrays_where_the_target_states_them() {
    let e = export_unrolled::<Tree>(Provider::Gemini, 2).unwrap();
    let last = &e.schema["$defs"]["Tree-depth-2"]["properties"]["children"];
    assert_eq!(last["maxItems"], 0);
    assert!(last.get("items").is_none());
    assert!(matches!(
        export_unrolled::<Tree>(Provider::Anthropic, 2),
        Err(ExportError::Unsupported { pointer, .. }) if pointer.is_empty()
    ));
}

#[test]
fn a_definition_that_always_nests_itself_cannot_be_unrolled() {
    // Every filter's `of` must hold a filter: no finite document.
    let schema = json!({
        "type": "object",
        "properties": {"of": {"type": "array", "items": {"$ref": "#"}, "minItems": 1}},
        "required": ["of"],
        "additionalProperties": false,
    });
    for provider in Provider::ALL {
        assert!(
            matches!(
                contract_runtime::schema::export_schema_unrolled(&schema, provider, 3),
                Err(ExportError::Unsupported { ref pointer, .. }) if pointer.is_empty()
            ),
            "{provider}"
        );
    }
}

#[test]
fn unrolling_a_contract_without_recursion_changes_nothing() {
    use schema_support::VacationRequest;
    for provider in Provider::ALL {
        assert_eq!(
            export_unrolled::<VacationRequest>(provider, 3),
            VacationRequest::json_schema_for(provider)
        );
    }
}

#[test]
fn a_recursive_definition_below_the_root_unrolls_from_its_own_first_level() {
    // A listing holds a tree: the tree's own definition is level 1.
    let e = export_unrolled::<Listing>(Provider::Anthropic, 2);
    let e = match e {
        Ok(e) => e,
        Err(ExportError::Unsupported { pointer, .. }) => {
            assert_eq!(pointer, "/$defs/Tree");
            export_unrolled::<Listing>(Provider::Gemini, 2).unwrap()
        }
        Err(e) => panic!("{e}"),
    };
    let defs = e.schema["$defs"].as_object().unwrap();
    assert!(defs.contains_key("Tree") && defs.contains_key("Tree-depth-2"));
    assert_eq!(
        defs["Tree"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/Tree-depth-2"
    );
}

#[test]
fn a_turn_with_a_filter_tree_inside_exports_for_anthropic_once_unrolled() {
    assert!(matches!(
        Turn::json_schema_for(Provider::Anthropic),
        Err(ExportError::Recursive { .. })
    ));
    let e = Turn::json_schema_for_unrolled(Provider::Anthropic, 3).unwrap();
    let defs = e.schema["$defs"].as_object().unwrap();
    let names: Vec<&str> = defs.keys().map(String::as_str).collect();
    assert_eq!(names, ["Expr", "Expr-depth-2", "Expr-depth-3"]);
    // At the last level `not` is gone (its filter is required) and only a
    // condition without an exception is left.
    let last = defs["Expr-depth-3"]["anyOf"].as_array().unwrap();
    assert_eq!(last.len(), 1);
    assert_eq!(last[0]["properties"]["op"]["const"], "cond");
}

#[test]
fn mutual_recursion_counts_each_definition_as_a_level() {
    // Org (level 1) holds teams (2), which run orgs (3): nothing else.
    let e = export_unrolled::<Org>(Provider::Gemini, 3).unwrap();
    let defs = e.schema["$defs"].as_object().unwrap();
    let names: Vec<&str> = defs.keys().map(String::as_str).collect();
    assert_eq!(names, ["Team-depth-2", "Org-depth-3"]);
    assert_eq!(
        e.schema["properties"]["teams"]["items"]["$ref"],
        "#/$defs/Team-depth-2"
    );
    // The last org has no teams.
    assert_eq!(defs["Org-depth-3"]["properties"]["teams"]["maxItems"], 0);
}

#[test]
fn an_unrolling_depth_is_at_least_one_and_at_most_the_nesting_limit() {
    assert_eq!(
        export_unrolled::<Node>(Provider::Anthropic, 0),
        export_unrolled::<Node>(Provider::Anthropic, 1)
    );
    // A depth no document can reach is the deepest one can.
    let huge = export_unrolled::<Node>(Provider::Local, usize::MAX).unwrap();
    let defs = huge.schema["$defs"].as_object().unwrap();
    assert!(defs.contains_key("Node-depth-1024") && !defs.contains_key("Node-depth-1025"));
}
