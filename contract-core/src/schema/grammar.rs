//! An llguidance grammar (its Lark form) for one request: the
//! [`Local`](super::Provider::Local) export bound to the context, in which
//! every `evidence` string can only be a contiguous substring of the source
//! text, so that a quote the source does not contain cannot be generated.
//!
//! The grammar (llguidance's `docs/syntax.md`):
//!
//! - without `evidence` members, `start: %json {..}` over the bound Local
//!   export, which llguidance compiles as it compiles the export itself;
//! - with them, the root object written out member by member, in the
//!   export's order (as llguidance generates an object's properties), each
//!   member's value `%json {..}` over its schema (with the export's
//!   `$defs`), the object's own punctuation compact (`{"a":..,"b":..}`,
//!   as a model held to the grammar writes it; inside a member's value,
//!   llguidance's JSON whitespace rules apply); an `evidence`
//!   member's value is one lexeme, `"` + a substring of the source + `"`,
//!   the substring taken over the source's characters *as they appear
//!   JSON-escaped* (`%regex {"substring_chunks": [..]}`, one chunk per
//!   character: `\"`, `\\`, `\n`, `\u0001`, or the character itself, non-ASCII
//!   included), so an escape is never cut in two; `null` as well where the
//!   member is an `Option`.
//!
//! What stays local: an empty or whitespace-only quote is a substring of
//! every text (the business stage refuses it, `evidence_not_found`), an
//! `evidence` member's own length or pattern, and a quote written with
//! other escapes than the source's JSON form (`\u00e9` for `é`), which the
//! grammar does not offer. A root other than a closed object of required
//! members (a union, a lowered `anyOf`, an `optional` member), or an
//! `evidence` member below the root, is [`ExportError::Unsupported`] when
//! the contract has `evidence` members.
use serde_json::{Value, json};

use super::provider::{Export, ExportError, Provider};

const UNSUPPORTED: &str = "the grammar writes `evidence` members as substrings of the source only for a root object of required members with `evidence` on its own members: bind the contract without `grammar_with`, or make the member required";

/// The grammar of `export` (a bound Local export) with the `evidence`
/// members at `evidence` (pointers into the full schema) taken from
/// `source`.
pub fn grammar(
    export: &Export,
    evidence: &[&str],
    source: Option<&str>,
) -> Result<String, ExportError> {
    let schema = &export.schema;
    let (Some(source), false) = (source, evidence.is_empty()) else {
        return Ok(format!("start: %json {}\n", compact(schema)));
    };
    let unsupported = |pointer: &str| ExportError::Unsupported {
        provider: Provider::Local,
        pointer: pointer.to_owned(),
        reason: UNSUPPORTED,
    };
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Err(unsupported(""));
    };
    if schema.get("anyOf").is_some() {
        return Err(unsupported(""));
    }
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let defs = schema.get("$defs");
    let mut members = Vec::new();
    let mut terminals = String::new();
    for (i, (name, member)) in properties.iter().enumerate() {
        let pointer = format!("/properties/{}", crate::pointer::escape(name));
        if !required.contains(&name.as_str()) {
            return Err(unsupported(&pointer));
        }
        let key = lark_string(&compact(&json!(name)));
        let value = if evidence.contains(&pointer.as_str()) {
            terminals.push_str(&format!("QUOTE_{i}: \"\\\"\" SOURCE \"\\\"\"\n"));
            if nullable(member) {
                format!("(QUOTE_{i} | \"null\")")
            } else {
                format!("QUOTE_{i}")
            }
        } else {
            let mut sub = member.clone();
            if let (Some(defs), Some(object)) = (defs, sub.as_object_mut()) {
                object.insert("$defs".to_owned(), defs.clone());
            }
            format!("%json {}", compact(&sub))
        };
        members.push(format!("{key} \":\" {value}"));
    }
    if let Some(outside) = evidence.iter().find(|p| {
        !properties
            .keys()
            .any(|k| format!("/properties/{}", crate::pointer::escape(k)) == **p)
    }) {
        return Err(unsupported(outside));
    }
    let chunks: Vec<String> = source
        .chars()
        .map(|c| {
            let quoted = compact(&json!(c.to_string()));
            quoted[1..quoted.len() - 1].to_owned()
        })
        .collect();
    let mut out = String::new();
    out.push_str(&format!(
        "start: \"{{\" {} \"}}\"\n",
        members.join(" \",\" ")
    ));
    out.push_str(&terminals);
    out.push_str(&format!(
        "SOURCE: %regex {}\n",
        compact(&json!({ "substring_chunks": chunks }))
    ));
    Ok(out)
}

/// Whether the member's schema lets its value be `null`.
fn nullable(schema: &Value) -> bool {
    let null = json!("null");
    match schema.get("type") {
        Some(Value::Array(types)) if types.contains(&null) => return true,
        _ => {}
    }
    schema
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|branches| branches.iter().any(|b| b.get("type") == Some(&null)))
}

fn compact(value: &Value) -> String {
    value.to_string()
}

/// A Lark string literal whose content is `text`.
fn lark_string(text: &str) -> String {
    compact(&json!(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn export(schema: Value) -> Export {
        Export {
            provider: Provider::Local,
            schema,
            dropped: Vec::new(),
            made_required: Vec::new(),
            lowered: Vec::new(),
            bound: Vec::new(),
        }
    }

    #[test]
    fn without_evidence_the_export_is_embedded() {
        let e = export(json!({"type": "object"}));
        assert_eq!(
            grammar(&e, &[], None).ok().as_deref(),
            Some("start: %json {\"type\":\"object\"}\n")
        );
    }

    #[test]
    fn the_source_is_cut_in_escaped_characters() {
        let e = export(json!({
            "type": "object",
            "properties": {"q": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
            "required": ["q"],
            "additionalProperties": false
        }));
        let g = grammar(&e, &["/properties/q"], Some("a\"\n\\é")).unwrap_or_default();
        assert!(
            g.contains(r#"start: "{" "\"q\"" ":" (QUOTE_0 | "null") "}""#),
            "{g}"
        );
        assert!(
            g.contains(r#"{"substring_chunks":["a","\\\"","\\n","\\\\","é"]}"#),
            "{g}"
        );
    }

    #[test]
    fn an_optional_member_beside_evidence_is_unsupported() {
        let e = export(json!({
            "type": "object",
            "properties": {"q": {"type": "string"}, "o": {"type": "string"}},
            "required": ["q"]
        }));
        assert!(matches!(
            grammar(&e, &["/properties/q"], Some("x")),
            Err(ExportError::Unsupported { .. })
        ));
    }
}
