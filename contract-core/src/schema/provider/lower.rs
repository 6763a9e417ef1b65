//! `when` rules lowered into the schema, so the provider enforces them
//! while the model writes: an object's `allOf` of `if`/`then` becomes an
//! `anyOf` of one closed object per condition, in which the condition's
//! field holds the condition's values (`const`, or `enum` for several),
//! required fields are not null and forbidden fields are `null`.
//!
//! The branches partition the values the condition fields can take: the
//! values that trigger the same rules share a branch, the values that
//! trigger none share one, and a value whose rules both require and forbid
//! a field has none (no document with it passes). So a document matches a
//! branch exactly when the full schema and its `when` rules accept it.
//!
//! A rule stays local, reported as a dropped `allOf` and stated in the
//! object's `description`
//! ([`state_local_rules`](super::words::state_local_rules)), when the condition's
//! field has no finite set of values (an integer without `one_of`), when
//! an optional condition field is one of several, when the provider cannot
//! state a condition value (Gemini has no boolean `enum`), when there
//! would be more than [`MAX_BRANCHES`] branches, or at OpenAI's root.
use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::ExportError;
use super::rewrite::{Exporter, required_of};
use super::when::{WhenRule, parse_rules};
use crate::pointer::child;

/// The most branches one object's rules are lowered into.
pub(super) const MAX_BRANCHES: usize = 64;

/// The values a condition field can take, if they are finitely many.
fn domain(prop: &Value) -> Option<Vec<Value>> {
    if let Some(Value::Array(values)) = prop.get("enum") {
        return Some(values.clone());
    }
    if let Some(c) = prop.get("const") {
        return Some(vec![c.clone()]);
    }
    match prop.get("type")? {
        Value::String(t) if t == "boolean" => Some(vec![json!(true), json!(false)]),
        Value::Array(types) if *types == [json!("boolean"), json!("null")] => {
            Some(vec![json!(true), json!(false), Value::Null])
        }
        _ => None,
    }
}

/// One branch: the values of each condition field it holds (`None`: the
/// key is absent), and the fields its rules require and forbid.
#[derive(Debug)]
struct Branch {
    conditions: Vec<(String, Vec<Option<Value>>)>,
    require: BTreeSet<String>,
    forbid: BTreeSet<String>,
}

/// What the rules demand of a document whose condition fields hold
/// `values`; `None` when a field is both required and forbidden.
fn effect(
    rules: &[WhenRule],
    values: &[(&str, &Option<Value>)],
) -> Option<(BTreeSet<String>, BTreeSet<String>)> {
    let (mut require, mut forbid) = (BTreeSet::new(), BTreeSet::new());
    for rule in rules {
        let holds = values.iter().any(|(field, value)| {
            *field == rule.field && value.as_ref().is_some_and(|v| rule.values.contains(v))
        });
        if holds {
            require.extend(rule.require.iter().cloned());
            forbid.extend(rule.forbid.iter().cloned());
        }
    }
    require.is_disjoint(&forbid).then_some((require, forbid))
}

/// The branches of an object's rules; `None` when they cannot be lowered.
fn branches(
    rules: &[WhenRule],
    props: &Map<String, Value>,
    required: &BTreeSet<&str>,
) -> Option<Vec<Branch>> {
    let mut fields: Vec<&str> = Vec::new();
    for rule in rules {
        if !fields.contains(&rule.field.as_str()) {
            fields.push(&rule.field);
        }
    }
    let mut domains: Vec<Vec<Option<Value>>> = Vec::new();
    for field in &fields {
        let mut values: Vec<Option<Value>> =
            domain(props.get(*field)?)?.into_iter().map(Some).collect();
        if !required.contains(field) {
            // An optional condition field: one field only (its absence
            // joins the branch of the values no rule names).
            if fields.len() > 1 {
                return None;
            }
            values.push(None);
        }
        domains.push(values);
    }
    let combinations = domains
        .iter()
        .try_fold(1usize, |n, d| n.checked_mul(d.len()))?;
    if combinations > MAX_BRANCHES {
        return None;
    }
    let mut out: Vec<Branch> = Vec::new();
    for i in 0..combinations {
        // The i-th combination, the first field varying slowest.
        let mut rest = i;
        let mut combination = vec![None; fields.len()];
        for (slot, d) in combination.iter_mut().zip(&domains).rev() {
            *slot = d.get(rest % d.len()).cloned();
            rest /= d.len();
        }
        let values: Vec<(&str, &Option<Value>)> = fields
            .iter()
            .zip(&combination)
            .map(|(f, v)| (*f, v.as_ref().unwrap_or(&None)))
            .collect();
        let Some((require, forbid)) = effect(rules, &values) else {
            continue;
        };
        // One field: the values with the same demands share a branch.
        if let [(field, value)] = values.as_slice()
            && let Some(same) = out
                .iter_mut()
                .find(|b| b.require == require && b.forbid == forbid)
        {
            if let Some((_, held)) = same.conditions.iter_mut().find(|(f, _)| f == field) {
                held.push((*value).clone());
            }
            continue;
        }
        out.push(Branch {
            conditions: values
                .iter()
                .map(|(f, v)| ((*f).to_owned(), vec![(*v).clone()]))
                .collect(),
            require,
            forbid,
        });
    }
    Some(out)
}

impl Branch {
    /// The branch as a closed object schema in the full schema's form;
    /// `None` when it holds no document (a required field that can only
    /// be null, a condition that can only be absent).
    fn body(&self, props: &Map<String, Value>, required: &BTreeSet<&str>) -> Option<Value> {
        let mut properties = Map::new();
        let mut names = Vec::new();
        for (name, prop) in props {
            let condition = self.conditions.iter().find(|(f, _)| f == name);
            let schema = if let Some((_, values)) = condition {
                restricted(prop, values)?
            } else if self.require.contains(name) {
                non_null(prop)?
            } else if self.forbid.contains(name) {
                json!({ "type": "null" })
            } else {
                prop.clone()
            };
            properties.insert(name.clone(), schema);
            let may_be_absent = condition.is_some_and(|(_, values)| values.contains(&None));
            if (required.contains(name.as_str()) || self.require.contains(name)) && !may_be_absent {
                names.push(json!(name));
            }
        }
        let mut body = Map::new();
        body.insert("type".into(), json!("object"));
        body.insert("properties".into(), Value::Object(properties));
        if !names.is_empty() {
            body.insert("required".into(), Value::Array(names));
        }
        body.insert("additionalProperties".into(), json!(false));
        Some(Value::Object(body))
    }
}

/// A condition field's schema holding only `values` (present ones; `None`
/// stands for an absent key, which `required` says).
fn restricted(prop: &Value, values: &[Option<Value>]) -> Option<Value> {
    let mut map = prop.as_object()?.clone();
    map.remove("enum");
    map.remove("const");
    let present: Vec<Value> = values.iter().flatten().cloned().collect();
    if present.is_empty() {
        return None;
    }
    let null = present.iter().any(Value::is_null);
    if !null && let Some(Value::Array(types)) = map.get("type") {
        let types: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        let t = match types.as_slice() {
            [one] => one.clone(),
            _ => Value::Array(types),
        };
        map.insert("type".into(), t);
    }
    match present.as_slice() {
        [only] if !null => map.insert("const".into(), only.clone()),
        _ => map.insert("enum".into(), Value::Array(present)),
    };
    Some(Value::Object(map))
}

/// `prop` without `null`; `None` if it holds nothing else.
pub(super) fn non_null(prop: &Value) -> Option<Value> {
    let mut map = prop.as_object()?.clone();
    if map.get("const").is_some_and(Value::is_null) || map.get("type") == Some(&json!("null")) {
        return None;
    }
    if let Some(Value::Array(types)) = map.get("type") {
        let types: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        let t = match types.as_slice() {
            [] => return None,
            [one] => one.clone(),
            _ => Value::Array(types),
        };
        map.insert("type".into(), t);
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        let values: Vec<Value> = values.iter().filter(|v| !v.is_null()).cloned().collect();
        if values.is_empty() {
            return None;
        }
        map.insert("enum".into(), Value::Array(values));
    }
    if let Some(Value::Array(branches)) = map.remove("anyOf") {
        let null = json!({ "type": "null" });
        let mut rest: Vec<Value> = branches.into_iter().filter(|b| *b != null).collect();
        match rest.len() {
            0 => return None,
            1 => {
                let Some(Value::Object(only)) = rest.pop() else {
                    return None;
                };
                // The branch, with the annotations (`description`) beside it.
                map.extend(only);
            }
            _ => {
                map.insert("anyOf".into(), Value::Array(rest));
            }
        }
    }
    Some(Value::Object(map))
}

impl Exporter {
    /// Replaces the object schema in `out` (converted from `node`) by an
    /// `anyOf` of one closed object per condition of `rules`, if they can
    /// be lowered (see the module docs); returns whether they were.
    pub(super) fn lower(
        &mut self,
        node: &Map<String, Value>,
        rules: &Value,
        ptr: &str,
        out: &mut Map<String, Value>,
    ) -> Result<bool, ExportError> {
        if node.contains_key("anyOf") || node.contains_key("oneOf") {
            return Ok(false);
        }
        let (Some(rules), Some(Value::Object(props))) =
            (parse_rules(rules), node.get("properties"))
        else {
            return Ok(false);
        };
        let required = required_of(node);
        let Some(branches) = branches(&rules, props, &required) else {
            return Ok(false);
        };
        let (dropped, made_required) = (self.dropped.len(), self.made_required.len());
        let mut any_of = Vec::new();
        for branch in &branches {
            if let Some(body) = branch.body(props, &required) {
                any_of.push(self.node(&body, ptr)?);
            }
        }
        // A condition value the provider cannot state (it dropped the
        // `const` or `enum`) would let branches overlap: keep the rules local.
        let conditions: Vec<String> = rules
            .iter()
            .map(|r| child(&child(ptr, "properties"), &r.field))
            .collect();
        let unstated = self.dropped[dropped..].iter().any(|d| {
            matches!(d.keyword.as_str(), "const" | "enum")
                && conditions.iter().any(|c| d.pointer == child(c, &d.keyword))
        });
        if unstated || any_of.is_empty() {
            self.dropped.truncate(dropped);
            self.made_required.truncate(made_required);
            return Ok(false);
        }
        // Each branch converts the same properties again: report once.
        let mut seen: Vec<(String, String)> = self.dropped[..dropped]
            .iter()
            .map(|d| (d.pointer.clone(), d.keyword.clone()))
            .collect();
        let fresh: Vec<_> = self.dropped.drain(dropped..).collect();
        for d in fresh {
            let key = (d.pointer.clone(), d.keyword.clone());
            if !seen.contains(&key) {
                seen.push(key);
                self.dropped.push(d);
            }
        }
        let fresh: Vec<String> = self.made_required.drain(made_required..).collect();
        for p in fresh {
            if !self.made_required.contains(&p) {
                self.made_required.push(p);
            }
        }
        out.retain(|key, _| {
            !matches!(
                key.as_str(),
                "type" | "properties" | "required" | "additionalProperties" | "propertyOrdering"
            )
        });
        // The root says it is an object beside its branches: a tool's input
        // schema and an MCP tool's `inputSchema` must have `type: object`.
        if ptr.is_empty() {
            out.insert("type".into(), json!("object"));
        }
        out.insert("anyOf".into(), Value::Array(any_of));
        self.lowered.push(child(ptr, "allOf"));
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vacation_rules() -> Value {
        json!([
            {"if": {"properties": {"status": {"const": "complete"}}},
             "then": {"properties": {"start_date": {"not": {"type": "null"}}, "end_date": {"not": {"type": "null"}}, "clarification_question": {"type": "null"}}}},
            {"if": {"properties": {"status": {"const": "needs_clarification"}}},
             "then": {"properties": {"clarification_question": {"not": {"type": "null"}}}}},
        ])
    }

    #[test]
    fn rules_parse_from_the_full_schema_form() {
        let rules = parse_rules(&vacation_rules()).unwrap_or_default();
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[0].field, "status");
        // In the order of `then`'s properties: as written with serde_json's
        // `preserve_order`, by name without it.
        let require = if cfg!(feature = "preserve_order") {
            ["start_date", "end_date"]
        } else {
            ["end_date", "start_date"]
        };
        assert_eq!(rules[0].require, require);
        assert_eq!(rules[0].forbid, ["clarification_question"]);
        assert_eq!(parse_rules(&json!([{"if": {}, "then": {}}])), None);
        assert_eq!(
            parse_rules(
                &json!([{"if": {"properties": {"a": {"const": 1}}}, "then": {"properties": {"b": {"minimum": 1}}}}])
            ),
            None
        );
    }

    #[test]
    fn values_without_rules_share_one_branch_and_contradictions_have_none() {
        let props = json!({
            "s": {"type": "string", "enum": ["a", "b", "c", "d"]},
            "x": {"type": ["string", "null"]},
        });
        let Value::Object(props) = props else { return };
        let rules = vec![
            WhenRule {
                field: "s".into(),
                values: vec![json!("a")],
                require: vec!["x".into()],
                forbid: vec![],
            },
            WhenRule {
                field: "s".into(),
                values: vec![json!("a"), json!("b")],
                require: vec![],
                forbid: vec!["x".into()],
            },
        ];
        let required: BTreeSet<&str> = ["s", "x"].into();
        let branches = branches(&rules, &props, &required).unwrap_or_default();
        let held: Vec<_> = branches.iter().map(|b| b.conditions[0].1.clone()).collect();
        assert_eq!(
            held,
            [
                vec![Some(json!("b"))],
                vec![Some(json!("c")), Some(json!("d"))]
            ]
        );
    }

    #[test]
    fn an_unbounded_condition_field_is_not_lowered() {
        let Value::Object(props) =
            json!({"n": {"type": "integer"}, "x": {"type": ["string", "null"]}})
        else {
            return;
        };
        let rules = vec![WhenRule {
            field: "n".into(),
            values: vec![json!(1)],
            require: vec!["x".into()],
            forbid: vec![],
        }];
        assert!(branches(&rules, &props, &["n", "x"].into()).is_none());
    }

    #[test]
    fn non_null_forms() {
        assert_eq!(
            non_null(&json!({"type": ["string", "null"], "format": "date"})),
            Some(json!({"type": "string", "format": "date"}))
        );
        assert_eq!(
            non_null(&json!({"type": ["string", "null"], "enum": ["a", null]})),
            Some(json!({"type": "string", "enum": ["a"]}))
        );
        assert_eq!(
            non_null(
                &json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}], "description": "d"})
            ),
            Some(json!({"description": "d", "$ref": "#/$defs/A"}))
        );
        assert_eq!(non_null(&json!({"type": "null"})), None);
        assert_eq!(non_null(&json!({"const": null})), None);
    }
}
