//! `contract_runtime::compat::diff`: two versions of the vacation contract,
//! and one test per kind of change, on derived contracts (hand-written
//! schemas only where the derive cannot produce the change).
use contract_runtime::compat::{self, Change, ChangeKind};
use contract_runtime::schema::version;
use contract_runtime::{Contract, Date};
use serde_json::{Value, json};

/// (pointer, kind, breaks backward, breaks forward) of each change.
fn summary(changes: &[Change]) -> Vec<(&str, ChangeKind, bool, bool)> {
    changes
        .iter()
        .map(|c| {
            (
                c.pointer.as_str(),
                c.kind,
                c.breaks_backward,
                c.breaks_forward,
            )
        })
        .collect()
}

fn diff<A: Contract, B: Contract>() -> Vec<Change> {
    compat::diff(&A::json_schema(), &B::json_schema())
}

/// Reading the other way round swaps the directions.
fn assert_mirrored(a: &Value, b: &Value) {
    let forth = compat::diff(a, b);
    let back = compat::diff(b, a);
    let count = |cs: &[Change], f: fn(&Change) -> bool| cs.iter().filter(|c| f(c)).count();
    assert_eq!(
        count(&forth, |c| c.breaks_backward),
        count(&back, |c| c.breaks_forward)
    );
    assert_eq!(
        count(&forth, |c| c.breaks_forward),
        count(&back, |c| c.breaks_backward)
    );
}

// ------------------------------------------------------------------ vacation v1 → v2

mod v1 {
    use super::*;

    /// A vacation request extracted from an employee's message.
    #[derive(Contract, Debug)]
    #[contract(
        version = 1,
        outcome = status,
        when(status = Status::Complete, require(start_date, end_date), forbid(clarification_question)),
        when(status = Status::NeedsClarification, require(clarification_question)),
        when(status = Status::NotARequest, forbid(start_date, end_date)),
        order(start_date <= end_date),
    )]
    pub struct VacationRequest {
        pub status: Status,
        pub start_date: Option<Date>,
        pub end_date: Option<Date>,
        #[contract(min_len = 1, max_len = 500)]
        pub clarification_question: Option<String>,
    }

    #[derive(Contract, Debug, Clone, Copy)]
    #[contract(rename_all = "snake_case")]
    pub enum Status {
        Complete,
        #[contract(clarify)]
        NeedsClarification,
        #[contract(decline)]
        NotARequest,
    }
}

mod v2 {
    use super::*;

    /// A vacation request extracted from an employee's message (v2: a
    /// cancellation status, a half-day flag, shorter questions).
    #[derive(Contract, Debug)]
    #[contract(
        version = 2,
        outcome = status,
        when(status = Status::Complete, require(start_date, end_date), forbid(clarification_question)),
        when(status = Status::NeedsClarification, require(clarification_question)),
        when(status = Status::Cancelled, forbid(start_date, end_date)),
        order(start_date <= end_date),
    )]
    pub struct VacationRequest {
        pub status: Status,
        pub start_date: Option<Date>,
        pub end_date: Option<Date>,
        #[contract(min_len = 1, max_len = 300)]
        pub clarification_question: Option<String>,
        /// Whether only half of the first day is taken; may be absent.
        #[contract(optional)]
        pub half_day: Option<bool>,
    }

    #[derive(Contract, Debug, Clone, Copy)]
    #[contract(rename_all = "snake_case")]
    pub enum Status {
        Complete,
        #[contract(clarify)]
        NeedsClarification,
        #[contract(decline)]
        NotARequest,
        #[contract(decline)]
        Cancelled,
    }
}

#[test]
fn vacation_v1_to_v2() {
    let (old, new) = (
        v1::VacationRequest::json_schema(),
        v2::VacationRequest::json_schema(),
    );
    assert_eq!((version(&old), version(&new)), (Some(1), Some(2)));
    let changes = compat::diff(&old, &new);
    assert_eq!(
        summary(&changes),
        [
            (
                "/properties/status/enum",
                ChangeKind::EnumValueAdded,
                false,
                true
            ),
            (
                "/properties/clarification_question/maxLength",
                ChangeKind::BoundTightened,
                true,
                false
            ),
            ("/properties/half_day", ChangeKind::FieldAdded, false, true),
            ("/allOf/2", ChangeKind::RuleRemoved, false, true),
            ("/allOf/2", ChangeKind::RuleAdded, true, false),
        ]
    );
    let details: Vec<&str> = changes.iter().map(|c| c.detail.as_str()).collect();
    assert_eq!(
        details,
        [
            "\"cancelled\"",
            "maxLength 500 → 300",
            "`half_day` added",
            "when status = \"not_a_request\": forbid start_date, end_date",
            "when status = \"cancelled\": forbid start_date, end_date",
        ]
    );
    assert_eq!(
        changes[1].to_string(),
        "bound_tightened at `/properties/clarification_question/maxLength`: maxLength 500 → 300 (breaks backward (new reader, old documents))"
    );
    // The version and the description changed too: neither is a change.
    assert!(changes.iter().all(|c| !c.pointer.contains("description")));
    assert_mirrored(&old, &new);
    // Serializable for the CLI.
    let v = serde_json::to_value(&changes[0]).unwrap();
    assert_eq!(v["kind"], "enum_value_added");
    assert_eq!(v["breaks_forward"], true);
}

#[test]
fn a_schema_has_no_changes_against_itself() {
    let s = v2::VacationRequest::json_schema();
    assert!(compat::diff(&s, &s).is_empty());
}

// ------------------------------------------------------------------ one kind each

mod base {
    use super::*;
    #[derive(Contract)]
    pub struct Doc {
        pub a: u32,
        #[contract(optional)]
        pub b: Option<String>,
    }
}

mod field_added {
    use super::*;
    #[derive(Contract)]
    pub struct Required {
        pub a: u32,
        #[contract(optional)]
        pub b: Option<String>,
        pub c: bool,
    }
    #[derive(Contract)]
    pub struct Optional {
        pub a: u32,
        #[contract(optional)]
        pub b: Option<String>,
        #[contract(optional)]
        pub c: Option<bool>,
    }
}

#[test]
fn field_added() {
    // Old documents lack a required `c`; old readers refuse the unknown key.
    assert_eq!(
        summary(&diff::<base::Doc, field_added::Required>()),
        [("/properties/c", ChangeKind::FieldAdded, true, true)]
    );
    // An optional `c`: only old readers break.
    assert_eq!(
        summary(&diff::<base::Doc, field_added::Optional>()),
        [("/properties/c", ChangeKind::FieldAdded, false, true)]
    );
}

mod field_removed {
    use super::*;
    #[derive(Contract)]
    pub struct NoA {
        #[contract(optional)]
        pub b: Option<String>,
    }
    #[derive(Contract)]
    pub struct NoB {
        pub a: u32,
    }
}

#[test]
fn field_removed() {
    // `a` was required: both directions break.
    assert_eq!(
        summary(&diff::<base::Doc, field_removed::NoA>()),
        [("/properties/a", ChangeKind::FieldRemoved, true, true)]
    );
    // `b` was optional: old readers never needed it.
    assert_eq!(
        summary(&diff::<base::Doc, field_removed::NoB>()),
        [("/properties/b", ChangeKind::FieldRemoved, true, false)]
    );
}

mod required_changed {
    use super::*;
    #[derive(Contract)]
    pub struct BRequired {
        pub a: u32,
        pub b: Option<String>,
    }
}

#[test]
fn required_changed() {
    assert_eq!(
        summary(&diff::<base::Doc, required_changed::BRequired>()),
        [("/properties/b", ChangeKind::RequiredChanged, true, false)]
    );
    assert_eq!(
        summary(&diff::<required_changed::BRequired, base::Doc>()),
        [("/properties/b", ChangeKind::RequiredChanged, false, true)]
    );
}

mod nullability {
    use super::*;
    #[derive(Contract)]
    pub struct Plain {
        pub a: u32,
        pub inner: Inner,
    }
    #[derive(Contract)]
    pub struct Nullable {
        pub a: Option<u32>,
        pub inner: Option<Inner>,
    }
    #[derive(Contract)]
    pub struct Inner {
        pub x: bool,
    }
}

#[test]
fn nullability_changed() {
    assert_eq!(
        summary(&diff::<nullability::Plain, nullability::Nullable>()),
        [
            ("/properties/a", ChangeKind::NullabilityChanged, false, true),
            (
                "/properties/inner",
                ChangeKind::NullabilityChanged,
                false,
                true
            ),
        ]
    );
    assert_eq!(
        summary(&diff::<nullability::Nullable, nullability::Plain>()),
        [
            ("/properties/a", ChangeKind::NullabilityChanged, true, false),
            (
                "/properties/inner",
                ChangeKind::NullabilityChanged,
                true,
                false
            ),
        ]
    );
}

mod enums {
    use super::*;
    #[derive(Contract, Clone, Copy)]
    #[contract(rename_all = "snake_case")]
    pub enum Three {
        Red,
        Green,
        Blue,
    }
    #[derive(Contract, Clone, Copy)]
    #[contract(rename_all = "snake_case")]
    pub enum Two {
        Red,
        Green,
    }
    #[derive(Contract)]
    pub struct Old {
        pub colour: Three,
        #[contract(one_of = ["s", "m"])]
        pub size: String,
        #[contract(equals = "v1")]
        pub tag: String,
    }
    #[derive(Contract)]
    pub struct New {
        pub colour: Two,
        #[contract(one_of = ["s", "m", "l"])]
        pub size: String,
        #[contract(equals = "v2")]
        pub tag: String,
    }
}

#[test]
fn enum_values_added_and_removed() {
    let changes = diff::<enums::Old, enums::New>();
    assert_eq!(
        summary(&changes),
        [
            (
                "/properties/colour/enum",
                ChangeKind::EnumValueRemoved,
                true,
                false
            ),
            (
                "/properties/size/enum",
                ChangeKind::EnumValueAdded,
                false,
                true
            ),
            (
                "/properties/tag/const",
                ChangeKind::EnumValueRemoved,
                true,
                false
            ),
            (
                "/properties/tag/const",
                ChangeKind::EnumValueAdded,
                false,
                true
            ),
        ]
    );
    assert_eq!(changes[0].detail, "\"blue\"");
    assert_eq!(changes[2].detail, "\"v1\"");
    assert_eq!(changes[3].detail, "\"v2\"");
}

mod bounds {
    use super::*;
    #[derive(Contract)]
    pub struct Old {
        #[contract(min = 1, max = 10)]
        pub n: i32,
        #[contract(max_len = 100)]
        pub text: String,
        pub free: String,
        #[contract(min_len = 1)]
        pub list: Vec<u8>,
    }
    #[derive(Contract)]
    pub struct New {
        #[contract(min = 2, max = 20)]
        pub n: i32,
        pub text: String,
        #[contract(min_len = 1)]
        pub free: String,
        #[contract(min_len = 0, max_len = 5)]
        pub list: Vec<u8>,
    }
}

#[test]
fn bounds_tightened_and_loosened() {
    let changes = diff::<bounds::Old, bounds::New>();
    assert_eq!(
        summary(&changes),
        [
            (
                "/properties/n/minimum",
                ChangeKind::BoundTightened,
                true,
                false
            ),
            (
                "/properties/n/maximum",
                ChangeKind::BoundLoosened,
                false,
                true
            ),
            ("/properties/text", ChangeKind::BoundLoosened, false, true),
            (
                "/properties/free/minLength",
                ChangeKind::BoundTightened,
                true,
                false
            ),
            (
                "/properties/list/minItems",
                ChangeKind::BoundLoosened,
                false,
                true
            ),
            (
                "/properties/list/maxItems",
                ChangeKind::BoundTightened,
                true,
                false
            ),
        ]
    );
    assert_eq!(changes[0].detail, "minimum 1 → 2");
    assert_eq!(changes[2].detail, "maxLength 100 → none");
}

#[test]
fn a_64_bit_bound_moved_by_one_is_a_change() {
    // Past 2^53 both bounds are the same f64: they are compared as integers.
    let schema = |max: u64, min: i64| {
        json!({
            "type": "object",
            "properties": {
                "id": {"type": "integer", "minimum": 0, "maximum": max},
                "delta": {"type": "integer", "minimum": min, "maximum": i64::MAX}
            },
            "required": ["id", "delta"],
            "additionalProperties": false
        })
    };
    let old = schema(u64::MAX, i64::MIN);
    let new = schema(u64::MAX - 1, i64::MIN + 1);
    let changes = compat::diff(&old, &new);
    assert_eq!(
        summary(&changes),
        [
            (
                "/properties/id/maximum",
                ChangeKind::BoundTightened,
                true,
                false
            ),
            (
                "/properties/delta/minimum",
                ChangeKind::BoundTightened,
                true,
                false
            ),
        ]
    );
    assert_eq!(
        changes[0].detail,
        "maximum 18446744073709551615 → 18446744073709551614"
    );
    assert_mirrored(&old, &new);
    assert!(compat::diff(&old, &old).is_empty());
}

#[test]
fn constraint_changed() {
    let schema = |pattern: &str| json!({"type": "object", "properties": {"code": {"type": "string", "pattern": pattern}}, "required": ["code"], "additionalProperties": false});
    let changes = compat::diff(&schema("^[A-Z]{3}$"), &schema("^[A-Z]{4}$"));
    assert_eq!(
        summary(&changes),
        [(
            "/properties/code/pattern",
            ChangeKind::ConstraintChanged,
            true,
            true
        )]
    );
    assert_eq!(changes[0].detail, "pattern \"^[A-Z]{3}$\" → \"^[A-Z]{4}$\"");
}

mod rules {
    use super::*;
    #[derive(Contract, Clone, Copy)]
    #[contract(rename_all = "snake_case")]
    pub enum Kind {
        Dated,
        Undated,
    }
    #[derive(Contract)]
    pub struct Loose {
        pub kind: Kind,
        pub from: Option<Date>,
        pub to: Option<Date>,
    }
    #[derive(Contract)]
    #[contract(when(kind = Kind::Dated, require(from, to)), order(from <= to))]
    pub struct Strict {
        pub kind: Kind,
        pub from: Option<Date>,
        pub to: Option<Date>,
    }
    #[derive(Contract)]
    pub struct Plain {
        pub from: Option<Date>,
    }
    #[derive(Contract)]
    pub struct Quarantined {
        #[contract(quarantine)]
        pub from: Option<Date>,
    }
}

#[test]
fn rules_added_and_removed() {
    let changes = diff::<rules::Loose, rules::Strict>();
    assert_eq!(
        summary(&changes),
        [
            ("/allOf/0", ChangeKind::RuleAdded, true, false),
            ("/x-contract-rules/0", ChangeKind::RuleAdded, true, false),
        ]
    );
    assert_eq!(changes[0].detail, "when kind = \"dated\": require from, to");
    assert_eq!(
        changes[1].detail,
        "order: when both are present, `to` >= `from`"
    );
    assert_eq!(
        summary(&diff::<rules::Strict, rules::Loose>()),
        [
            ("/allOf/0", ChangeKind::RuleRemoved, false, true),
            ("/x-contract-rules/0", ChangeKind::RuleRemoved, false, true),
        ]
    );
    // Quarantine only makes the decoder more lenient: listed, breaks nothing.
    let q = diff::<rules::Plain, rules::Quarantined>();
    assert_eq!(
        summary(&q),
        [("/x-contract-rules/0", ChangeKind::RuleAdded, false, false)]
    );
    assert!(!q[0].is_breaking());
}

mod types {
    use super::*;
    use std::collections::BTreeMap;
    #[derive(Contract)]
    pub struct Old {
        pub count: u32,
        pub label: String,
        pub bag: Inner,
    }
    #[derive(Contract)]
    pub struct New {
        pub count: f64,
        pub label: bool,
        pub bag: BTreeMap<String, bool>,
    }
    #[derive(Contract)]
    pub struct Inner {
        pub x: bool,
    }
}

#[test]
fn type_changed() {
    let changes = diff::<types::Old, types::New>();
    let kinds: Vec<_> = summary(&changes)
        .into_iter()
        .filter(|c| c.1 == ChangeKind::TypeChanged)
        .collect();
    assert_eq!(
        kinds,
        [
            // integer → number: every old value is still accepted.
            (
                "/properties/count/type",
                ChangeKind::TypeChanged,
                false,
                true
            ),
            (
                "/properties/label/type",
                ChangeKind::TypeChanged,
                true,
                true
            ),
            (
                "/properties/bag/additionalProperties",
                ChangeKind::TypeChanged,
                true,
                true
            ),
        ]
    );
    assert_eq!(changes[0].detail, "integer → number");
    // The u32 range went away with the integer type.
    assert!(
        changes
            .iter()
            .any(|c| c.pointer == "/properties/count" && c.kind == ChangeKind::BoundLoosened)
    );
}

mod nested {
    use super::*;
    #[derive(Contract)]
    pub struct OldOuter {
        pub inner: OldInner,
        pub more: Vec<OldInner>,
    }
    #[derive(Contract)]
    pub struct OldInner {
        #[contract(max_len = 10)]
        pub name: String,
    }
    /// Renamed types: not a change by itself.
    #[derive(Contract)]
    pub struct NewOuter {
        pub inner: Renamed,
        pub more: Vec<Renamed>,
    }
    #[derive(Contract)]
    pub struct Renamed {
        #[contract(max_len = 5)]
        pub name: String,
    }
    #[derive(Contract)]
    pub struct SameOuter {
        pub inner: SameInner,
        pub more: Vec<SameInner>,
    }
    /// Documented now.
    #[derive(Contract)]
    pub struct SameInner {
        /// The name.
        #[contract(max_len = 10)]
        pub name: String,
    }
}

#[test]
fn nested_contracts_are_compared_once_where_the_reference_leads() {
    assert_eq!(
        summary(&diff::<nested::OldOuter, nested::NewOuter>()),
        [(
            "/$defs/Renamed/properties/name/maxLength",
            ChangeKind::BoundTightened,
            true,
            false
        )]
    );
    // Renaming types and adding descriptions changes nothing.
    assert!(diff::<nested::OldOuter, nested::SameOuter>().is_empty());
}

#[test]
fn every_kind_reads_the_other_way_round() {
    let pairs = [
        (
            base::Doc::json_schema(),
            field_added::Required::json_schema(),
        ),
        (base::Doc::json_schema(), field_removed::NoB::json_schema()),
        (
            base::Doc::json_schema(),
            required_changed::BRequired::json_schema(),
        ),
        (
            nullability::Plain::json_schema(),
            nullability::Nullable::json_schema(),
        ),
        (enums::Old::json_schema(), enums::New::json_schema()),
        (bounds::Old::json_schema(), bounds::New::json_schema()),
        (rules::Loose::json_schema(), rules::Strict::json_schema()),
        (types::Old::json_schema(), types::New::json_schema()),
        (
            v1::VacationRequest::json_schema(),
            v2::VacationRequest::json_schema(),
        ),
    ];
    for (a, b) in &pairs {
        assert_mirrored(a, b);
    }
}
