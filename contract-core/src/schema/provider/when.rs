//! `when` rules as the full schema states them (an `allOf` of `if`/`then`
//! entries, as [`crate::schema::when_then`] writes them), read back into
//! [`WhenRule`]s: what lowering them and stating them in words both start
//! from.
use serde_json::{Value, json};

/// One `when` rule as the full schema states it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct WhenRule {
    /// The condition's field (JSON name).
    pub(super) field: String,
    /// The values that trigger the rule.
    pub(super) values: Vec<Value>,
    /// Fields that must not be null.
    pub(super) require: Vec<String>,
    /// Fields that must be null.
    pub(super) forbid: Vec<String>,
}

/// The `when` rules of an `allOf`, or `None` if one of its entries is not
/// a `when` rule as [`crate::schema::when_then`] writes it.
pub(super) fn parse_rules(all_of: &Value) -> Option<Vec<WhenRule>> {
    all_of.as_array()?.iter().map(parse_rule).collect()
}

fn parse_rule(rule: &Value) -> Option<WhenRule> {
    let condition = rule.get("if")?.get("properties")?.as_object()?;
    let mut fields = condition.iter();
    let (field, test) = fields.next()?;
    if fields.next().is_some() {
        return None;
    }
    let values = match (test.get("const"), test.get("enum")) {
        (Some(c), _) => vec![c.clone()],
        (None, Some(Value::Array(values))) => values.clone(),
        _ => return None,
    };
    let (mut require, mut forbid) = (Vec::new(), Vec::new());
    for (name, test) in rule.get("then")?.get("properties")?.as_object()? {
        if *test == json!({ "not": { "type": "null" } }) {
            require.push(name.clone());
        } else if *test == json!({ "type": "null" }) {
            forbid.push(name.clone());
        } else {
            return None;
        }
    }
    Some(WhenRule {
        field: field.clone(),
        values,
        require,
        forbid,
    })
}
