//! OpenAI's two streams: Chat Completions chunks and Responses events.
use serde_json::Value;

use super::{Error, Key, Outputs, array, index, reported, string};

/// A `chat.completion.chunk`: the choice with `index` 0 (absent counts as
/// 0); its `delta.content`, `delta.refusal`, `delta.tool_calls`.
pub(super) fn chat(event: usize, value: &Value, outputs: &mut Outputs) -> Result<(), Error> {
    if let Some(error) = value.get("error").filter(|e| !e.is_null()) {
        return Err(reported(event, error));
    }
    for choice in array(event, value, "choices", "choices")? {
        if index(event, choice, "index", "choice index")?.unwrap_or(0) != 0 {
            continue;
        }
        let Some(delta) = choice.get("delta").filter(|d| !d.is_null()) else {
            continue;
        };
        if let Some(text) = string(event, delta, "content", "delta.content")? {
            outputs.text(event, text);
        }
        if let Some(refusal) = string(event, delta, "refusal", "delta.refusal")? {
            outputs.refuse(refusal);
        }
        for (j, call) in array(event, delta, "tool_calls", "delta.tool_calls")?
            .iter()
            .enumerate()
        {
            let key = index(event, call, "index", "tool call index")?.unwrap_or(j as u64);
            let at = outputs.call(Key::Number(key));
            let function = call.get("function").filter(|f| !f.is_null());
            let name = match function {
                Some(f) => string(event, f, "name", "function.name")?,
                None => None,
            };
            outputs.name(at, string(event, call, "id", "tool call id")?, name);
            if let Some(arguments) = match function {
                Some(f) => string(event, f, "arguments", "function.arguments")?,
                None => None,
            } {
                outputs.arguments(event, at, arguments);
            }
        }
    }
    Ok(())
}

/// A Responses event, by its `type`.
pub(super) fn responses(event: usize, value: &Value, outputs: &mut Outputs) -> Result<(), Error> {
    let kind = string(event, value, "type", "type")?.unwrap_or("");
    match kind {
        "response.output_text.delta" => {
            if let Some(text) = string(event, value, "delta", "delta")? {
                outputs.text(event, text);
            }
        }
        "response.refusal.delta" => {
            if let Some(text) = string(event, value, "delta", "delta")? {
                outputs.refuse(text);
            }
        }
        "response.output_item.added" => {
            let Some(item) = value.get("item").filter(|i| i.is_object()) else {
                return Err(Error::malformed(event, "has no item object"));
            };
            if string(event, item, "type", "item.type")? == Some("function_call") {
                let at = item_call(event, value, item)?;
                let id = match string(event, item, "call_id", "item.call_id")? {
                    Some(id) => Some(id),
                    None => string(event, item, "id", "item.id")?,
                };
                let at = outputs.call(at);
                outputs.name(at, id, string(event, item, "name", "item.name")?);
            }
        }
        "response.function_call_arguments.delta" => {
            let key = item_call(event, value, value)?;
            let at = outputs.call(key);
            if let Some(text) = string(event, value, "delta", "delta")? {
                outputs.arguments(event, at, text);
            }
        }
        "error" => return Err(reported(event, value)),
        "response.failed" => {
            let error = value
                .pointer("/response/error")
                .filter(|e| !e.is_null())
                .unwrap_or(value);
            return Err(reported(event, error));
        }
        _ => {}
    }
    Ok(())
}

/// The key of the output item an event is about: its `output_index`, else
/// the item's id.
fn item_call(event: usize, value: &Value, item: &Value) -> Result<Key, Error> {
    if let Some(i) = index(event, value, "output_index", "output_index")? {
        return Ok(Key::Number(i));
    }
    let id = match string(event, value, "item_id", "item_id")? {
        Some(id) => Some(id),
        None => string(event, item, "id", "item.id")?,
    };
    id.map(|id| Key::Text(id.to_owned())).ok_or_else(|| {
        Error::malformed(event, "names no output item (no output_index, no item_id)")
    })
}
