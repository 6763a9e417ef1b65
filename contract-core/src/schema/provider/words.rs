//! Rules that stay local, in words a model reads: one sentence per rule,
//! naming fields by their JSON names and never an error code.
//!
//! - `when`: "When status is complete, start_date and end_date are
//!   required and clarification_question must be null."
//! - `order`: "end_date is not before start_date." (dates), "b is at
//!   least a." (numbers); with `<`, "after" and "greater than".
//! - `evidence`: "raw_quote is copied verbatim from the source text."
//! - `check`: "The document is also checked against data you cannot see."
//!
//! - a `format` whose exact syntax the target does not enforce: "Exact
//!   syntax: a strict YYYY-MM-DD calendar date.", in the field's own
//!   `description`.
//!
//! A `quarantine` entry asks nothing of the model (a failing value is
//! dropped to `null`), so it has no sentence.
use serde_json::{Map, Value};

use super::formats::Syntax;
use super::when::{WhenRule, parse_rules};
use crate::pointer::Pointer;
use crate::schema::RULES_KEY;

/// Appends `text` to `out`'s `description`, a paragraph of its own; the
/// text is the description if there is none.
pub(super) fn append(out: &mut Map<String, Value>, text: &str) {
    match out.get_mut("description") {
        Some(Value::String(description)) => {
            description.push_str("\n\n");
            description.push_str(text);
        }
        _ => {
            out.insert("description".into(), Value::String(text.to_owned()));
        }
    }
}

/// The decoder's syntax for a format, for a field whose export leaves it
/// to the local check.
pub(super) fn format_syntax(syntax: Syntax) -> String {
    format!("Exact syntax: {}.", syntax.rule)
}

/// "a", "a and b", "a, b and c" (`last` is "and" or "or").
fn list(items: &[String], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., end] => format!("{} {last} {end}", init.join(", ")),
    }
}

/// A condition value as the model writes it: a string bare, anything else
/// as JSON.
fn value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// One `when` rule.
pub(super) fn when_rule(rule: &WhenRule) -> String {
    let values: Vec<String> = rule.values.iter().map(value).collect();
    let mut demands = Vec::new();
    if !rule.require.is_empty() {
        let verb = if rule.require.len() == 1 { "is" } else { "are" };
        demands.push(format!("{} {verb} required", list(&rule.require, "and")));
    }
    if !rule.forbid.is_empty() {
        demands.push(format!("{} must be null", list(&rule.forbid, "and")));
    }
    format!(
        "When {} is {}, {}.",
        rule.field,
        list(&values, "or"),
        demands.join(" and ")
    )
}

/// The JSON name a one-segment pointer (`/start_date`) names.
fn field(pointer: &Value) -> Option<String> {
    let parsed = Pointer::parse(pointer.as_str()?).ok()?;
    match parsed.segments() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// One entry of `x-contract-rules`, if it asks something of the model.
pub(super) fn extension_rule(rule: &Value, props: Option<&Map<String, Value>>) -> Option<String> {
    let pointers: Vec<String> = rule
        .get("pointers")
        .and_then(Value::as_array)
        .map(|p| p.iter().filter_map(field).collect())
        .unwrap_or_default();
    match (
        rule.get("rule").and_then(Value::as_str)?,
        pointers.as_slice(),
    ) {
        ("order", [first, second]) => {
            let description = rule
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("");
            // The derive writes "`b` > `a`" or "`b` >= `a`".
            let strict = description.contains("` > `");
            let dates = [first, second].iter().all(|f| {
                props
                    .and_then(|p| p.get(f.as_str()))
                    .and_then(|s| s.get("format"))
                    .is_some_and(|f| f == "date" || f == "date-time")
            });
            let relation = match (dates, strict) {
                (true, false) => "is not before",
                (true, true) => "is after",
                (false, false) => "is at least",
                (false, true) => "is greater than",
            };
            Some(format!("{second} {relation} {first}."))
        }
        ("evidence", [one]) => Some(format!("{one} is copied verbatim from the source text.")),
        ("check", _) => {
            Some("The document is also checked against data you cannot see.".to_owned())
        }
        _ => None,
    }
}

/// Appends to `out`'s `description` one sentence per rule of `node` that
/// stays local: its `when` rules unless `lowered`, and the entries of
/// `x-contract-rules` the model must follow.
pub(super) fn state_local_rules(
    node: &Map<String, Value>,
    lowered: bool,
    out: &mut Map<String, Value>,
) {
    let mut sentences = Vec::new();
    if !lowered && let Some(rules) = node.get("allOf").and_then(parse_rules) {
        sentences.extend(rules.iter().map(when_rule));
    }
    if let Some(Value::Array(rules)) = node.get(RULES_KEY) {
        let props = match node.get("properties") {
            Some(Value::Object(props)) => Some(props),
            _ => None,
        };
        sentences.extend(rules.iter().filter_map(|r| extension_rule(r, props)));
    }
    if sentences.is_empty() {
        return;
    }
    append(out, &sentences.join(" "));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn when_rules_read_as_sentences() {
        let rule = WhenRule {
            field: "status".into(),
            values: vec![json!("complete")],
            require: vec!["start_date".into(), "end_date".into()],
            forbid: vec!["clarification_question".into()],
        };
        assert_eq!(
            when_rule(&rule),
            "When status is complete, start_date and end_date are required and clarification_question must be null."
        );
        let rule = WhenRule {
            field: "color".into(),
            values: vec![json!("red"), json!("blue")],
            require: vec![],
            forbid: vec!["a".into(), "b".into(), "c".into()],
        };
        assert_eq!(
            when_rule(&rule),
            "When color is red or blue, a, b and c must be null."
        );
        let rule = WhenRule {
            field: "n".into(),
            values: vec![json!(3)],
            require: vec!["x".into()],
            forbid: vec![],
        };
        assert_eq!(when_rule(&rule), "When n is 3, x is required.");
    }

    #[test]
    fn order_reads_by_the_fields_type() {
        let props = json!({"s": {"type": ["string", "null"], "format": "date"}, "e": {"type": ["string", "null"], "format": "date"}});
        let order = json!({"rule": "order", "pointers": ["/s", "/e"], "description": "when both are present, `e` >= `s`"});
        assert_eq!(
            extension_rule(&order, props.as_object()).as_deref(),
            Some("e is not before s.")
        );
        let strict = json!({"rule": "order", "pointers": ["/a", "/b"], "description": "when both are present, `b` > `a`"});
        assert_eq!(
            extension_rule(&strict, None).as_deref(),
            Some("b is greater than a.")
        );
        let quarantine = json!({"rule": "quarantine", "pointers": ["/a"], "description": "…"});
        assert_eq!(extension_rule(&quarantine, None), None);
    }
}
