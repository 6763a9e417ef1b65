//! Reading single keywords of a schema node.
use serde_json::Value;

use super::{Node, types};

// A schema's `pattern` (ECMA-262, as the derive accepted it) as the
// decoder's matcher reads it: the derive refuses every construct whose
// meaning differs and rewrites `.` (outside a class, unescaped) to ECMA-262's
// "any character but a line terminator"; so does this.
pub(super) fn engine_form(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let (mut escaped, mut class) = (false, false);
    for c in pattern.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' if !class => class = true,
            ']' if class => class = false,
            '.' if !class => {
                out.push_str(r"[^\n\r\x{2028}\x{2029}]");
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

pub(super) fn any() -> Node {
    Node {
        types: types::ALL,
        unsure: true,
        ..Node::default()
    }
}

pub(super) fn type_bits(value: Option<&Value>) -> u8 {
    let one = |name: &str| match name {
        "null" => types::NULL,
        "boolean" => types::BOOL,
        "integer" => types::INTEGER,
        "number" => types::NUMBER | types::INTEGER,
        "string" => types::STRING,
        "array" => types::ARRAY,
        "object" => types::OBJECT,
        _ => types::ALL,
    };
    match value {
        Some(Value::String(name)) => one(name),
        Some(Value::Array(names)) => names
            .iter()
            .map(|n| n.as_str().map_or(types::ALL, one))
            .fold(0, |a, b| a | b),
        _ => types::ALL,
    }
}

// `allOf` of `if`/`then` pairs only: the `when` rules, which the rule stage
// checks after the whole document (never a schema-stage error).
pub(super) fn when_rules(value: &Value) -> bool {
    value.as_array().is_some_and(|rules| {
        rules.iter().all(|r| {
            r.as_object()
                .is_some_and(|m| m.keys().all(|k| k == "if" || k == "then"))
        })
    })
}

pub(super) fn count(value: Option<&Value>) -> Option<usize> {
    value
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
}

pub(super) fn set(slot: &mut Option<usize>, value: &Value) -> bool {
    *slot = count(Some(value));
    slot.is_some()
}
