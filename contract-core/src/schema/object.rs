//! An object's schema from its description (`describe::Object`, the one
//! the contract's `Described` impl holds): each member's constraint
//! keywords, descriptions, `required`, `additionalProperties`, the `when`
//! rules as `allOf` and the extension entries are all read from it here,
//! the one place a constraint becomes a keyword. Only the members' own
//! schemas, which depend on their types, are computed by the generated code
//! and handed in.
use serde_json::{Map, Value, json};

use super::{RULES_KEY, SchemaGen, VERSION_KEY, constrain, when_then};
use crate::describe::{Constraint, Literal, Member, Object, Type};
use crate::pointer::escape;

/// A member type's own schema (`<T as JsonType>::schema`), as generated
/// code hands it to [`object_schema`].
pub type SchemaFn = fn(&mut SchemaGen) -> Value;

/// The object schema of `object`, each member's own schema made by its
/// function in `schemas` (one per member), called in order with `defs`. Keywords are
/// inserted in the order `description`, `x-contract-version`, `type`,
/// `properties`, `required`, `additionalProperties`, `allOf`, the
/// extension key.
pub fn object_schema(
    object: &'static Object,
    defs: &mut SchemaGen,
    schemas: &[SchemaFn],
) -> Map<String, Value> {
    let mut props = Map::new();
    for (member, schema) in object.members.iter().zip(schemas) {
        let mut schema = schema(defs);
        constrain_member(member, &mut schema);
        props.insert(member.name.into(), schema);
    }
    let mut map = Map::new();
    if let Some(doc) = object.doc {
        map.insert("description".into(), Value::from(doc));
    }
    if let Some(version) = object.version {
        map.insert(VERSION_KEY.into(), Value::from(version));
    }
    map.insert("type".into(), Value::from("object"));
    map.insert("properties".into(), Value::Object(props));
    let required = object.members.iter().filter(|m| !m.optional);
    let required = required.map(|m| Value::from(m.name)).collect();
    map.insert("required".into(), Value::Array(required));
    map.insert("additionalProperties".into(), Value::Bool(false));
    if let Some(all_of) = all_of(object) {
        map.insert("allOf".into(), all_of);
    }
    let rules = rules(object);
    if !rules.is_empty() {
        map.insert(RULES_KEY.into(), Value::Array(rules));
    }
    map
}

/// The extension entry of a `check` function, by its name.
pub fn check_rule(function: &str) -> Value {
    json!({ "rule": "check", "function": function, "description": "checked against trusted context" })
}

// A member's constraints as keywords on its own schema: lengths count a
// `Vec`'s items (`minItems`) or a string's characters (`minLength`), a
// pattern on a `Vec` checks its items (`items.pattern`), `const`/`enum`
// admit `null` on an `Option`; then its doc comment.
fn constrain_member(member: &Member, schema: &mut Value) {
    let nullable = matches!(member.ty, Type::Option(_));
    let array = matches!(member.ty, Type::Array(_) | Type::Option(Type::Array(_)));
    let (min_len, max_len) = match array {
        true => ("minItems", "maxItems"),
        false => ("minLength", "maxLength"),
    };
    for constraint in member.constraints {
        match *constraint {
            Constraint::Min(v) => constrain(schema, "minimum", literal(v), nullable),
            Constraint::Max(v) => constrain(schema, "maximum", literal(v), nullable),
            Constraint::MinLen(n) => constrain(schema, min_len, Value::from(n), nullable),
            Constraint::MaxLen(n) => constrain(schema, max_len, Value::from(n), nullable),
            Constraint::Equals(v) => constrain(schema, "const", literal(v), nullable),
            Constraint::OneOf(vs) => {
                let vs = vs.iter().map(|v| literal(*v)).collect();
                constrain(schema, "enum", Value::Array(vs), nullable);
            }
            Constraint::Pattern { written, .. } if array => {
                if let Some(items) = schema.get_mut("items") {
                    constrain(items, "pattern", Value::from(written), false);
                }
            }
            Constraint::Pattern { written, .. } => {
                constrain(schema, "pattern", Value::from(written), nullable);
            }
            Constraint::Format(format) => {
                constrain(schema, "format", Value::from(format.name()), nullable);
            }
        }
    }
    if let Some(doc) = member.doc {
        constrain(schema, "description", Value::from(doc), false);
    }
}

// A literal as JSON: an integer as `u64` or `i64` (the checks keep it
// within the field's type), a float as a float (`constrain` writes a whole
// one as an integer).
fn literal(lit: Literal) -> Value {
    match lit {
        Literal::Int(i) => match (u64::try_from(i), i64::try_from(i)) {
            (Ok(u), _) => Value::from(u),
            (_, Ok(n)) => Value::from(n),
            // Out of every JSON integer type: the checks reported it already.
            _ => Value::from(i as f64),
        },
        Literal::Float(f) => Value::from(f),
        Literal::Str(s) => Value::from(s),
        Literal::Bool(b) => Value::Bool(b),
    }
}

// `when` rules as `allOf` of `if`/`then`, so any draft 2020-12 validator
// enforces them too.
fn all_of(object: &Object) -> Option<Value> {
    let name = |i: &usize| object.members.get(*i).map(|m| m.name);
    let rules: Vec<Value> = object
        .whens
        .iter()
        .filter_map(|w| {
            let condition = name(&w.condition)?;
            let required: Vec<&str> = w.require.iter().filter_map(name).collect();
            let forbidden: Vec<&str> = w.forbid.iter().filter_map(name).collect();
            Some(json!({
                "if": {
                    "properties": { condition: { "enum": (w.values)() } },
                    "required": [condition]
                },
                "then": when_then(&required, &forbidden)
            }))
        })
        .collect();
    (!rules.is_empty()).then_some(Value::Array(rules))
}

// What JSON Schema cannot say, for the extension key: `order` rules, then
// each member's `evidence` and `quarantine`, then the `check` function.
fn rules(object: &Object) -> Vec<Value> {
    let pointer = |name: &str| format!("/{}", escape(name));
    let mut entries = Vec::new();
    for o in object.orders {
        let (Some(a), Some(b)) = (object.members.get(o.first), object.members.get(o.second)) else {
            continue;
        };
        let op = if o.strict { ">" } else { ">=" };
        let description = format!("when both are present, `{}` {op} `{}`", b.name, a.name);
        entries.push(json!({
            "rule": "order",
            "pointers": [pointer(a.name), pointer(b.name)],
            "description": description
        }));
    }
    for m in object.members {
        if m.evidence {
            entries.push(json!({ "rule": "evidence", "pointers": [pointer(m.name)], "description": "must occur verbatim in the source text" }));
        }
        if m.quarantine {
            entries.push(json!({ "rule": "quarantine", "pointers": [pointer(m.name)], "description": "a value of the right type that fails its checks is dropped to null and the outcome becomes review; a wrong type still rejects" }));
        }
    }
    if let Some(check) = object.check {
        entries.push(check_rule(check));
    }
    entries
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::describe::{Member, Type};

    static OBJECT: Object = Object {
        members: &[CODE, TAGS],
        whens: &[],
        orders: &[],
        doc: Some("a thing"),
        version: Some(2),
        check: Some("crate::check"),
    };
    const CODE: Member = Member {
        name: "a/code",
        ty: &Type::String,
        optional: false,
        doc: None,
        quarantine: true,
        evidence: true,
        constraints: &[Constraint::MinLen(2)],
    };
    const TAGS: Member = Member {
        name: "tags",
        ty: &Type::Option(&Type::Array(&Type::String)),
        optional: true,
        doc: Some("labels"),
        quarantine: false,
        evidence: false,
        constraints: &[
            Constraint::MaxLen(3),
            Constraint::Pattern {
                written: "^a",
                engine: "^a",
            },
        ],
    };

    fn schema() -> Value {
        let schemas: [SchemaFn; 2] = [
            |_| json!({ "type": "string" }),
            |_| json!({ "type": ["array", "null"], "items": { "type": "string" } }),
        ];
        Value::Object(object_schema(&OBJECT, &mut SchemaGen::default(), &schemas))
    }

    #[test]
    fn a_vec_members_lengths_count_items_and_its_pattern_checks_each_item() {
        let tags = &schema()["properties"]["tags"];
        assert_eq!(tags["maxItems"], json!(3));
        assert_eq!(tags.get("maxLength"), None);
        assert_eq!(tags["items"]["pattern"], json!("^a"));
        assert_eq!(tags.get("pattern"), None);
        assert_eq!(tags["description"], json!("labels"));
    }

    #[test]
    fn a_string_members_lengths_count_characters() {
        assert_eq!(schema()["properties"]["a/code"]["minLength"], json!(2));
    }

    #[test]
    fn the_object_states_its_doc_version_required_and_closedness() {
        let s = schema();
        assert_eq!(s["description"], json!("a thing"));
        assert_eq!(s[VERSION_KEY], json!(2));
        assert_eq!(s["required"], json!(["a/code"]));
        assert_eq!(s["additionalProperties"], json!(false));
    }

    #[test]
    fn evidence_quarantine_and_check_are_extension_entries_with_escaped_pointers() {
        let s = schema();
        let rules: Vec<(&str, Option<&Value>)> = s[RULES_KEY]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| (r["rule"].as_str().unwrap_or(""), r.get("pointers")))
            .collect();
        let ptr = json!(["/a~1code"]);
        assert_eq!(
            rules,
            [
                ("evidence", Some(&ptr)),
                ("quarantine", Some(&ptr)),
                ("check", None)
            ]
        );
    }

    #[test]
    fn a_nullable_members_const_admits_null() {
        static M: [Member; 1] = [Member {
            name: "n",
            ty: &Type::Option(&Type::Int(crate::describe::Int::U8)),
            optional: false,
            doc: None,
            quarantine: false,
            evidence: false,
            constraints: &[Constraint::Equals(Literal::Int(4))],
        }];
        static O: Object = Object {
            members: &M,
            whens: &[],
            orders: &[],
            doc: None,
            version: None,
            check: None,
        };
        let schemas: [SchemaFn; 1] = [|_| json!({ "type": ["integer", "null"] })];
        let s = object_schema(&O, &mut SchemaGen::default(), &schemas);
        assert_eq!(s["properties"]["n"]["enum"], json!([4, null]));
    }
}
