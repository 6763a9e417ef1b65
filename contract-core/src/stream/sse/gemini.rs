//! Gemini's stream: `GenerateContentResponse` chunks, each with the parts
//! the candidate adds.
use serde_json::Value;

use super::{Error, Outputs, array, index, reported, string};

/// A chunk: the parts of the candidate with `index` 0 (absent counts as 0).
pub(super) fn read(event: usize, value: &Value, outputs: &mut Outputs) -> Result<(), Error> {
    if let Some(error) = value.get("error").filter(|e| !e.is_null()) {
        return Err(reported(event, error));
    }
    for candidate in array(event, value, "candidates", "candidates")? {
        if index(event, candidate, "index", "candidate index")?.unwrap_or(0) != 0 {
            continue;
        }
        let Some(content) = candidate.get("content").filter(|c| !c.is_null()) else {
            continue;
        };
        for part in array(event, content, "parts", "content.parts")? {
            if part.get("thought").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            if let Some(text) = string(event, part, "text", "part's text")? {
                outputs.text(event, text);
            }
            if let Some(call) = part.get("functionCall").filter(|c| !c.is_null()) {
                if !call.is_object() {
                    return Err(Error::malformed(
                        event,
                        "has a functionCall that is not an object",
                    ));
                }
                let at = outputs.new_call();
                outputs.name(
                    at,
                    string(event, call, "id", "functionCall.id")?,
                    string(event, call, "name", "functionCall.name")?,
                );
                let arguments = match call.get("args") {
                    None | Some(Value::Null) => "{}".to_owned(),
                    Some(args) => args.to_string(),
                };
                outputs.arguments(event, at, &arguments);
            }
        }
    }
    Ok(())
}
