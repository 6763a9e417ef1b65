//! A tools enum's tool definitions for each provider's request, the MCP
//! `tools/list` entries, and the provider's request-level caps.
use serde_json::{Map, Value, json};

use crate::schema::provider::{self, chars, limit as cap};
use crate::schema::{ExportError, Provider};

use super::{Tool, Tools, bound};
use crate::schema::bound::Binding;

/// Anthropic's strict tool use: at most 20 strict tools in one request
/// (<https://platform.claude.com/docs/en/build-with-claude/structured-outputs>,
/// "JSON Schema limitations").
pub const ANTHROPIC_MAX_STRICT_TOOLS: usize = 20;
/// Anthropic: at most 24 optional parameters across all strict schemas of a request.
pub const ANTHROPIC_MAX_OPTIONAL: usize = 24;
/// Anthropic: at most 16 parameters of a union type (`anyOf`, a type array)
/// across all strict schemas of a request.
pub const ANTHROPIC_MAX_UNIONS: usize = 16;
/// OpenAI Structured Outputs: at most 5,000 object properties in all
/// (<https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>).
pub const OPENAI_MAX_PROPERTIES: usize = provider::OPENAI_MAX_PROPERTIES;
/// OpenAI: at most 1,000 enum values in all.
pub const OPENAI_MAX_ENUM_VALUES: usize = provider::OPENAI_MAX_ENUM_VALUES;
/// OpenAI: at most 120,000 characters of property names, definition names,
/// enum values and consts in all.
pub const OPENAI_MAX_TEXT: usize = provider::OPENAI_MAX_TEXT;

/// The `tools` array of a request to `provider`, each tool's arguments
/// with its `bindings` (by the tool's index; none when absent) bound. A
/// request-level cap the bound values pass leaves the largest binding
/// local, and the caps are counted again (as one schema's own limits do).
pub(super) fn definitions<T: Tools>(
    provider: Provider,
    bindings: &[Vec<Binding>],
) -> Result<Value, ExportError> {
    // The bindings the request-level caps leave local: (tool, pointer).
    let mut local: Vec<(usize, String)> = Vec::new();
    let schemas = loop {
        let mut schemas = Vec::with_capacity(T::__TOOLS.len());
        let mut kept: Vec<(usize, &str, usize)> = Vec::new();
        for (i, tool) in T::__TOOLS.iter().enumerate() {
            let of_tool = bindings.get(i).map(Vec::as_slice).unwrap_or_default();
            let left: Vec<&str> = local
                .iter()
                .filter(|(t, _)| *t == i)
                .map(|(_, p)| p.as_str())
                .collect();
            let export =
                bound::export(tool, of_tool, &left, provider).map_err(|e| ExportError::Tool {
                    name: tool.name,
                    source: Box::new(e),
                })?;
            for b in of_tool {
                if export.bound.iter().any(|p| *p == b.pointer) {
                    kept.push((i, &b.pointer, b.values.len()));
                }
            }
            schemas.push((tool, untitled(export.schema)));
        }
        match (
            caps(provider, &schemas),
            kept.iter().max_by_key(|(_, _, n)| *n),
        ) {
            (Err(ExportError::Limit { .. }), Some((i, pointer, _))) => {
                local.push((*i, (*pointer).to_owned()));
            }
            (result, _) => {
                result?;
                break schemas;
            }
        }
    };
    let entries: Vec<Value> = schemas
        .into_iter()
        .map(|(tool, schema)| entry(provider, tool, schema))
        .collect();
    Ok(match provider {
        Provider::Gemini => json!([{ "functionDeclarations": entries }]),
        Provider::OpenAi | Provider::Anthropic | Provider::Local => Value::Array(entries),
    })
}

/// The `tools` of an MCP `tools/list` result.
pub(super) fn mcp<T: Tools>() -> Value {
    let tools = T::__TOOLS.iter().map(|tool| {
        let mut map = Map::new();
        map.insert("name".into(), tool.name.into());
        if let Some(doc) = tool.description {
            map.insert("description".into(), doc.into());
        }
        map.insert("inputSchema".into(), untitled((tool.schema)()));
        Value::Object(map)
    });
    Value::Array(tools.collect())
}

// A tool's arguments carry the tool's name, not a title of their own.
fn untitled(mut schema: Value) -> Value {
    if let Value::Object(map) = &mut schema {
        map.remove("title");
    }
    schema
}

fn entry(provider: Provider, tool: &Tool, schema: Value) -> Value {
    let mut map = Map::new();
    map.insert("name".into(), tool.name.into());
    if let Some(doc) = tool.description {
        map.insert("description".into(), doc.into());
    }
    match provider {
        Provider::OpenAi | Provider::Local => {
            map.insert("parameters".into(), schema);
            map.insert("strict".into(), true.into());
            json!({"type": "function", "function": Value::Object(map)})
        }
        Provider::Anthropic => {
            map.insert("input_schema".into(), schema);
            map.insert("strict".into(), true.into());
            Value::Object(map)
        }
        Provider::Gemini => {
            map.insert("parametersJsonSchema".into(), schema);
            Value::Object(map)
        }
    }
}

// What the schemas of one request hold in all.
#[derive(Default)]
struct Totals {
    properties: usize,
    optional: usize,
    unions: usize,
    enum_values: usize,
    text: usize,
}

fn caps(provider: Provider, schemas: &[(&Tool, Value)]) -> Result<(), ExportError> {
    let mut totals = Totals::default();
    for (_, schema) in schemas {
        count(schema, &mut totals);
    }
    match provider {
        Provider::Anthropic => {
            cap(
                provider,
                "strict tools in one request",
                ANTHROPIC_MAX_STRICT_TOOLS,
                schemas.len(),
            )?;
            cap(
                provider,
                "optional parameters across all strict tools",
                ANTHROPIC_MAX_OPTIONAL,
                totals.optional,
            )?;
            cap(
                provider,
                "union-typed parameters across all strict tools",
                ANTHROPIC_MAX_UNIONS,
                totals.unions,
            )
        }
        Provider::OpenAi => {
            cap(
                provider,
                "object properties across all tools",
                OPENAI_MAX_PROPERTIES,
                totals.properties,
            )?;
            cap(
                provider,
                "enum values across all tools",
                OPENAI_MAX_ENUM_VALUES,
                totals.enum_values,
            )?;
            cap(
                provider,
                "characters of property names, definition names, enum values and consts across all tools",
                OPENAI_MAX_TEXT,
                totals.text,
            )
        }
        Provider::Gemini | Provider::Local => Ok(()),
    }
}

// Counts a schema and every schema below it (definitions included,
// references not followed), as each provider counts them.
fn count(node: &Value, totals: &mut Totals) {
    let Value::Object(map) = node else {
        return;
    };
    if let Some(Value::Object(props)) = map.get("properties") {
        totals.properties += props.len();
        totals.text += props.keys().map(|k| k.chars().count()).sum::<usize>();
        let required: Vec<&str> = match map.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        totals.optional += props
            .keys()
            .filter(|k| !required.contains(&k.as_str()))
            .count();
        for sub in props.values() {
            count(sub, totals);
        }
    }
    if let Some(Value::Object(defs)) = map.get("$defs") {
        totals.text += defs.keys().map(|k| k.chars().count()).sum::<usize>();
        for sub in defs.values() {
            count(sub, totals);
        }
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        totals.enum_values += values.len();
        totals.text += values.iter().map(chars).sum::<usize>();
    }
    if let Some(c) = map.get("const") {
        totals.text += chars(c);
    }
    let type_union = matches!(map.get("type"), Some(Value::Array(t)) if t.len() > 1);
    if type_union || map.contains_key("anyOf") {
        totals.unions += 1;
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub) = map.get(key) {
            count(sub, totals);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = map.get(key) {
            for b in branches {
                count(b, totals);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{Tool, caps};
    use crate::schema::{Export, ExportError, Provider};

    fn no_export(provider: Provider) -> Result<Export, ExportError> {
        Err(ExportError::RootNotObject { provider })
    }

    fn empty() -> Value {
        json!({})
    }

    static TOOL: Tool = Tool {
        name: "t",
        description: None,
        max_calls: None,
        has_arguments: true,
        export: no_export,
        schema: empty,
    };

    fn object(properties: usize, enum_values: usize) -> Value {
        let props: serde_json::Map<String, Value> = (0..properties)
            .map(|i| {
                let values: Vec<Value> = (0..enum_values).map(|v| json!(format!("v{v}"))).collect();
                (format!("p{i}"), json!({"type": "string", "enum": values}))
            })
            .collect();
        let required: Vec<&String> = props.keys().collect();
        json!({"type": "object", "properties": props, "required": required})
    }

    // OpenAI's caps are counted over all tools of the request: each schema
    // alone is within them, together they are not.
    #[test]
    fn openais_caps_add_up_across_tools() {
        let three = vec![(&TOOL, object(2_000, 0)); 3];
        assert_eq!(
            caps(Provider::OpenAi, &three),
            Err(ExportError::Limit {
                provider: Provider::OpenAi,
                limit: "object properties across all tools",
                max: 5_000,
                found: 6_000,
            })
        );
        assert!(caps(Provider::OpenAi, &three[..2]).is_ok());
        let enums = vec![(&TOOL, object(1, 600)); 2];
        assert!(matches!(
            caps(Provider::OpenAi, &enums),
            Err(ExportError::Limit {
                max: 1_000,
                found: 1_200,
                ..
            })
        ));
        let long: Vec<(&Tool, Value)> = (0..2)
            .map(|_| (&TOOL, json!({"type": "object", "properties": {"x".repeat(70_000): {"type": "string"}}, "required": ["x"]})))
            .collect();
        assert!(matches!(
            caps(Provider::OpenAi, &long),
            Err(ExportError::Limit {
                max: 120_000,
                found: 140_000,
                ..
            })
        ));
    }

    // Anthropic counts optional parameters across the request's strict tools.
    #[test]
    fn anthropics_optional_parameters_add_up_across_tools() {
        let optional = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": []});
        let thirteen = vec![(&TOOL, optional); 13];
        assert!(matches!(
            caps(Provider::Anthropic, &thirteen),
            Err(ExportError::Limit {
                max: 24,
                found: 26,
                ..
            })
        ));
        assert!(caps(Provider::Anthropic, &thirteen[..12]).is_ok());
        assert!(caps(Provider::Gemini, &thirteen).is_ok());
    }
}
