//! An edit policy's exports bound to the request (`json_schema_for_with`,
//! `patch_schema_for_with`, `merge_patch_schema_for_with`): the members
//! declared `one_of = ctx.FIELD` that the policy lets the model write carry
//! the context's values, the pinned ones stay pinned, the provider's enum
//! limits are reported in `dropped`, and each bound export accepts exactly
//! what the unbound one accepts and the binding allows (`jsonschema`, over
//! generated patches and documents).
use contract_runtime::Contract;
use contract_runtime::schema::{ExportError, Provider};
use proptest::prelude::*;
use serde_json::{Value, json};

pub struct Roster {
    owners: Vec<String>,
    projects: Vec<u64>,
    grades: Vec<Grade>,
}

#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
pub enum Grade {
    Low,
    Mid,
    High,
}

/// A task whose owner, watchers, grade and backup a reassignment may
/// change, each bound to the roster; its project is bound too, but pinned
/// by `reassign`.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(
    context = Roster,
    edit(
        reassign = ["/owner", "/watchers", "/grade", "/backup"],
        move_project = ["/project"],
    )
)]
pub struct Task {
    #[contract(one_of = ctx.owners)]
    pub owner: String,
    #[contract(one_of = ctx.owners, max_len = 3)]
    pub watchers: Vec<String>,
    #[contract(one_of = ctx.grades)]
    pub grade: Grade,
    #[contract(optional, one_of = ctx.owners)]
    pub backup: Option<String>,
    #[contract(min = 1, one_of = ctx.projects)]
    pub project: u64,
    #[contract(max_len = 40)]
    pub title: String,
}

fn roster() -> Roster {
    Roster {
        owners: vec!["ana".into(), "bo".into(), "ana".into()],
        projects: vec![7, 9],
        grades: vec![Grade::High, Grade::Low],
    }
}

fn baseline() -> Value {
    json!({"owner": "ana", "watchers": ["bo"], "grade": "low", "backup": "bo",
           "project": 7, "title": "Disk full"})
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(schema)
        .unwrap()
}

#[test]
fn the_patch_export_binds_each_allowed_member() {
    let (b, ctx) = (baseline(), roster());
    for provider in Provider::ALL {
        let export = Task::REASSIGN
            .patch_schema_for_with(&b, provider, &ctx)
            .unwrap();
        assert_eq!(
            export.bound,
            [
                "/properties/owner",
                "/properties/watchers/items",
                "/properties/grade",
                "/properties/backup",
            ],
            "{provider}"
        );
        let text = export.schema.to_string();
        assert!(text.contains(r#"["ana","bo"]"#), "{provider}: {text}");
        assert!(text.contains(r#"["high","low"]"#), "{provider}: {text}");
        // The pinned member's values do not leave the process.
        assert!(!text.contains("[7,9]"), "{provider}: {text}");
    }
    let export = Task::REASSIGN
        .patch_schema_for_with(&b, Provider::Local, &ctx)
        .unwrap();
    let ops = &export.schema["properties"]["patch"]["items"]["anyOf"];
    assert_eq!(ops[0]["properties"]["path"]["const"], "/owner");
    assert_eq!(ops[0]["properties"]["value"]["enum"], json!(["ana", "bo"]));
    assert_eq!(
        ops[1]["properties"]["value"]["items"]["enum"],
        json!(["ana", "bo"])
    );
    assert_eq!(
        ops[2]["properties"]["value"],
        json!({"type": "string", "enum": ["high", "low"]})
    );
    // `backup` is optional: `replace` and `add` both take its values, and
    // `null`.
    for op in [&ops[3], &ops[4]] {
        let value = validator(&op["properties"]["value"]);
        assert!(value.is_valid(&json!("bo")) && value.is_valid(&Value::Null));
        assert!(!value.is_valid(&json!("cy")));
    }
    assert_eq!(ops[5]["properties"]["op"]["const"], "remove");
    // The unbound export is unchanged.
    let unbound = Task::REASSIGN
        .patch_schema_for(&b, Provider::Local)
        .unwrap();
    assert!(unbound.bound.is_empty());
    assert!(!unbound.schema.to_string().contains(r#"["ana","bo"]"#));
}

#[test]
fn the_pinned_and_merge_exports_bind_what_the_model_writes() {
    let (b, ctx) = (baseline(), roster());
    let pinned = Task::REASSIGN
        .json_schema_for_with(&b, Provider::OpenAi, &ctx)
        .unwrap();
    let properties = &pinned.schema["properties"];
    assert_eq!(properties["owner"]["enum"], json!(["ana", "bo"]));
    assert_eq!(properties["project"]["const"], json!(7));
    assert!(properties["project"].get("enum").is_none());
    assert!(!pinned.bound.contains(&"/properties/project".to_owned()));
    let merge = Task::REASSIGN
        .merge_patch_schema_for_with(&b, Provider::Gemini, &ctx)
        .unwrap();
    let properties = &merge.schema["properties"];
    assert_eq!(properties["owner"]["enum"], json!(["ana", "bo"]));
    let backup = validator(&properties["backup"]);
    assert!(backup.is_valid(&json!("bo")) && backup.is_valid(&Value::Null));
    assert!(!backup.is_valid(&json!("cy")));
    assert!(properties.get("project").is_none());
    assert_eq!(merge.bound.len(), 4);
    // A policy that allows the bound member binds it.
    let moved = Task::MOVE_PROJECT
        .patch_schema_for_with(&b, Provider::Anthropic, &ctx)
        .unwrap();
    assert_eq!(moved.bound, ["/properties/project"]);
    let value = &moved.schema["properties"]["patch"]["items"]["anyOf"][0]["properties"]["value"];
    assert_eq!(value["enum"], json!([7, 9]));
}

#[test]
fn an_empty_set_refuses_only_where_the_model_writes() {
    let b = baseline();
    let mut ctx = roster();
    ctx.projects.clear();
    // `project` is pinned by `reassign`: nothing is bound there.
    assert!(
        Task::REASSIGN
            .patch_schema_for_with(&b, Provider::OpenAi, &ctx)
            .is_ok()
    );
    assert!(
        Task::REASSIGN
            .json_schema_for_with(&b, Provider::OpenAi, &ctx)
            .is_ok()
    );
    let empty = ExportError::EmptyBinding {
        pointer: "/properties/project".into(),
    };
    assert_eq!(
        Task::MOVE_PROJECT
            .patch_schema_for_with(&b, Provider::OpenAi, &ctx)
            .unwrap_err(),
        empty
    );
    assert_eq!(
        Task::MOVE_PROJECT
            .merge_patch_schema_for_with(&b, Provider::Local, &ctx)
            .unwrap_err(),
        empty
    );
    assert_eq!(
        Task::MOVE_PROJECT
            .json_schema_for_with(&b, Provider::Gemini, &ctx)
            .unwrap_err(),
        empty
    );
}

#[test]
fn past_the_enum_limits_the_binding_stays_local_at_each_operation() {
    let b = baseline();
    let mut ctx = roster();
    ctx.projects = (1..=1001).collect();
    let export = Task::MOVE_PROJECT
        .patch_schema_for_with(&b, Provider::OpenAi, &ctx)
        .unwrap();
    assert!(export.bound.is_empty());
    let dropped: Vec<&str> = export
        .dropped
        .iter()
        .filter(|d| d.keyword == "enum")
        .map(|d| d.pointer.as_str())
        .collect();
    assert_eq!(
        dropped,
        ["/properties/patch/items/anyOf/0/properties/value/enum"]
    );
    assert!(
        export
            .dropped
            .iter()
            .any(|d| d.keyword == "enum" && d.enforced_by.contains("not_in_context"))
    );
    let local = Task::MOVE_PROJECT
        .patch_schema_for_with(&b, Provider::Local, &ctx)
        .unwrap();
    assert_eq!(local.bound, ["/properties/project"]);
    // 600 owners are within one enum's limit, but `backup`'s `replace` and
    // `add` both carry them, and `owner` and `watchers` too: past 1,000 in
    // all, the largest stay local until the export passes: `backup` (at
    // both operations), then `watchers`; `owner` and `grade` are then
    // within the limit.
    ctx.owners = (0..600).map(|i| format!("o{i}")).collect();
    let export = Task::REASSIGN
        .patch_schema_for_with(&b, Provider::OpenAi, &ctx)
        .unwrap();
    assert_eq!(export.bound, ["/properties/owner", "/properties/grade"]);
    let dropped: Vec<&str> = export
        .dropped
        .iter()
        .filter(|d| d.keyword == "enum")
        .map(|d| d.pointer.as_str())
        .collect();
    assert_eq!(
        dropped,
        [
            "/properties/patch/items/anyOf/3/properties/value/enum",
            "/properties/patch/items/anyOf/4/properties/value/enum",
            "/properties/patch/items/anyOf/1/properties/value/items/enum",
        ]
    );
    let local = Task::REASSIGN
        .patch_schema_for_with(&b, Provider::Local, &ctx)
        .unwrap();
    assert_eq!(local.bound.len(), 4);
}

/// A value for a member: from the roster, outside it, or of the wrong type.
fn owner() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => Just(json!("ana")),
        2 => Just(json!("bo")),
        2 => Just(json!("cy")),
        1 => Just(json!(5)),
        1 => Just(Value::Null),
    ]
}

fn member_value(member: &'static str) -> BoxedStrategy<Value> {
    match member {
        "/watchers" => prop_oneof![
            4 => proptest::collection::vec(owner(), 0..3).prop_map(Value::Array),
            1 => Just(json!("ana")),
        ]
        .boxed(),
        "/grade" => prop_oneof![
            Just(json!("low")),
            Just(json!("mid")),
            Just(json!("high")),
            Just(json!(1)),
        ]
        .boxed(),
        "/project" => prop_oneof![Just(json!(7)), Just(json!(8)), Just(json!(0))].boxed(),
        "/title" => Just(json!("Full disk")).boxed(),
        _ => owner().boxed(),
    }
}

const MEMBERS: [&str; 6] = [
    "/owner",
    "/watchers",
    "/grade",
    "/backup",
    "/project",
    "/title",
];

fn grade_name(grade: Grade) -> &'static str {
    match grade {
        Grade::Low => "low",
        Grade::Mid => "mid",
        Grade::High => "high",
    }
}

/// Whether the roster allows `value` at `member` (the binding alone).
fn bound_allows(ctx: &Roster, member: &str, value: &Value) -> bool {
    let owner = |v: &Value| {
        v.as_str()
            .is_some_and(|s| ctx.owners.iter().any(|o| o == s))
    };
    match member {
        "/owner" => owner(value),
        "/backup" => value.is_null() || owner(value),
        "/watchers" => value.as_array().is_none_or(|items| items.iter().all(owner)),
        "/grade" => value
            .as_str()
            .is_none_or(|g| ctx.grades.iter().any(|x| grade_name(*x) == g)),
        "/project" => value.as_u64().is_none_or(|p| ctx.projects.contains(&p)),
        _ => true,
    }
}

fn operation() -> impl Strategy<Value = (&'static str, &'static str, Value)> {
    (0..MEMBERS.len(), 0..3usize).prop_flat_map(|(m, kind)| {
        let member = MEMBERS[m];
        let kind = ["replace", "add", "remove"][kind];
        member_value(member).prop_map(move |v| (kind, member, v))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    // Each bound export (for every provider) accepts exactly what the
    // unbound one accepts and the binding allows: a patch whose values at
    // the bound members are the roster's, a merge patch likewise, a full
    // candidate likewise.
    #[test]
    fn the_bound_exports_are_the_unbound_ones_and_the_binding(
        ops in proptest::collection::vec(operation(), 0..3),
        owners in proptest::sample::subsequence(vec!["ana", "bo", "cy"], 1..3),
        grades in proptest::sample::subsequence(vec![Grade::Low, Grade::Mid, Grade::High], 1..3),
    ) {
        let b = baseline();
        let ctx = Roster {
            owners: owners.iter().map(|s| s.to_string()).collect(),
            projects: vec![7, 9],
            grades,
        };
        let patch: Vec<Value> = ops
            .iter()
            .map(|(kind, path, value)| match *kind {
                "remove" => json!({"op": kind, "path": path}),
                _ => json!({"op": kind, "path": path, "value": value}),
            })
            .collect();
        let patch = json!({ "patch": patch });
        let patch_allowed = ops
            .iter()
            .all(|(kind, m, v)| *kind == "remove" || bound_allows(&ctx, m, v));
        let mut merge = serde_json::Map::new();
        for (_, m, v) in &ops {
            merge.insert(m.trim_start_matches('/').to_owned(), v.clone());
        }
        let merge_allowed = merge
            .iter()
            .all(|(k, v)| bound_allows(&ctx, &format!("/{k}"), v));
        let merge = Value::Object(merge);
        let mut full = b.clone();
        for (_, m, v) in &ops {
            full[m.trim_start_matches('/')] = v.clone();
        }
        // The members each policy lets the model write (the others are
        // pinned to the baseline, whose values the roster may lack).
        let writes: [&[&str]; 2] = [&["/owner", "/watchers", "/grade", "/backup"], &["/project"]];
        for (policy, writes) in [Task::REASSIGN, Task::MOVE_PROJECT].into_iter().zip(writes) {
            let full_allowed = writes
                .iter()
                .all(|m| bound_allows(&ctx, m, &full[m.trim_start_matches('/')]));
            for provider in Provider::ALL {
                let cases = [
                    (
                        policy.patch_schema_for(&b, provider).unwrap().schema,
                        policy.patch_schema_for_with(&b, provider, &ctx).unwrap().schema,
                        &patch,
                        patch_allowed,
                    ),
                    (
                        policy.merge_patch_schema_for(&b, provider).unwrap().schema,
                        policy.merge_patch_schema_for_with(&b, provider, &ctx).unwrap().schema,
                        &merge,
                        merge_allowed,
                    ),
                    (
                        policy.json_schema_for(&b, provider).unwrap().schema,
                        policy.json_schema_for_with(&b, provider, &ctx).unwrap().schema,
                        &full,
                        full_allowed,
                    ),
                ];
                for (i, (unbound, bound, doc, allowed)) in cases.into_iter().enumerate() {
                    let unbound_ok = validator(&unbound).is_valid(doc);
                    prop_assert_eq!(
                        validator(&bound).is_valid(doc),
                        unbound_ok && allowed,
                        "{} {} export {}: {}", policy.name(), provider, i, doc
                    );
                }
            }
        }
    }
}

/// A contract holding a bound contract, with a policy that may rewrite it.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Roster, edit(replace_lead = ["/lead"]))]
pub struct Team {
    pub lead: Member,
    #[contract(one_of = ctx.owners)]
    pub name: String,
}

/// A held contract with a bound member.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(context = Roster)]
pub struct Member {
    #[contract(one_of = ctx.owners)]
    pub who: String,
}

// A held contract's bound member is not bound in an edit export (its
// definition stands for every place it is used), and the export says so;
// the edit's check refuses a value outside the context.
#[test]
fn a_held_contracts_binding_stays_local_in_edit_exports_and_is_reported() {
    let (b, ctx) = (json!({"lead": {"who": "ana"}, "name": "bo"}), roster());
    let held = "/$defs/Member/properties/who/enum";
    for provider in Provider::ALL {
        let exports = [
            Team::REPLACE_LEAD.json_schema_for_with(&b, provider, &ctx),
            Team::REPLACE_LEAD.patch_schema_for_with(&b, provider, &ctx),
            Team::REPLACE_LEAD.merge_patch_schema_for_with(&b, provider, &ctx),
        ];
        for export in exports {
            let export = export.unwrap();
            let dropped = export.dropped.iter().find(|d| d.pointer == held);
            let dropped = dropped.unwrap_or_else(|| panic!("{provider}: {:?}", export.dropped));
            assert!(
                dropped.enforced_by.contains("not_in_context"),
                "{dropped:?}"
            );
            assert!(
                !export.bound.iter().any(|p| p.contains("Member")),
                "{:?}",
                export.bound
            );
        }
    }
    let patch = r#"[{"op":"replace","path":"/lead","value":{"who":"cy"}}]"#;
    let refused = Team::REPLACE_LEAD
        .check_patch_with(&b, patch, &ctx)
        .unwrap_err();
    assert_eq!(refused.errors[0].code, "not_in_context");
    assert_eq!(refused.errors[0].pointer, "/lead/who");
}
