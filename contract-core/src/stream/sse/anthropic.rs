//! Anthropic's Messages stream: content blocks, each started by a
//! `content_block_start` that says what it is, then its deltas.
use serde_json::Value;

use super::{Block, Error, Key, Outputs, index, reported, string};

/// A Messages event, by its `type`.
pub(super) fn read(event: usize, value: &Value, outputs: &mut Outputs) -> Result<(), Error> {
    let kind = string(event, value, "type", "type")?.unwrap_or("");
    match kind {
        "content_block_start" => {
            let at = block_index(event, value)?;
            let Some(block) = value.get("content_block").filter(|b| b.is_object()) else {
                return Err(Error::malformed(event, "has no content_block object"));
            };
            let what = match string(event, block, "type", "content_block.type")? {
                Some("text") => {
                    if let Some(text) = string(event, block, "text", "content_block.text")? {
                        outputs.text(event, text);
                    }
                    Block::Text
                }
                Some("tool_use") => {
                    let call = outputs.call(Key::Number(at));
                    outputs.name(
                        call,
                        string(event, block, "id", "content_block.id")?,
                        string(event, block, "name", "content_block.name")?,
                    );
                    Block::Call(call)
                }
                // Thinking, server tools and their results: not the reply.
                _ => Block::Other,
            };
            match outputs.blocks.iter_mut().find(|(i, _)| *i == at) {
                Some(slot) => slot.1 = what,
                None => outputs.blocks.push((at, what)),
            }
        }
        "content_block_delta" => {
            let at = block_index(event, value)?;
            let Some(block) = outputs.blocks.iter().find(|(i, _)| *i == at).map(|b| b.1) else {
                return Err(Error::malformed(
                    event,
                    format!("is a delta of content block {at}, which no content_block_start began"),
                ));
            };
            let Some(delta) = value.get("delta").filter(|d| d.is_object()) else {
                return Err(Error::malformed(event, "has no delta object"));
            };
            match (string(event, delta, "type", "delta.type")?, block) {
                (Some("text_delta"), Block::Text) => {
                    if let Some(text) = string(event, delta, "text", "delta.text")? {
                        outputs.text(event, text);
                    }
                }
                (Some("input_json_delta"), Block::Call(call)) => {
                    if let Some(json) = string(event, delta, "partial_json", "delta.partial_json")?
                    {
                        outputs.arguments(event, call, json);
                    }
                }
                (
                    Some(kind @ ("text_delta" | "input_json_delta")),
                    Block::Text | Block::Call(_),
                ) => {
                    let block = if block == Block::Text {
                        "text"
                    } else {
                        "tool_use"
                    };
                    return Err(Error::malformed(
                        event,
                        format!("is a {kind} in content block {at}, a {block} block"),
                    ));
                }
                // Thinking, signatures, citations, a server tool's input.
                _ => {}
            }
        }
        "error" => {
            let error = value.get("error").filter(|e| !e.is_null()).unwrap_or(value);
            return Err(reported(event, error));
        }
        _ => {}
    }
    Ok(())
}

fn block_index(event: usize, value: &Value) -> Result<u64, Error> {
    index(event, value, "index", "content block index")?
        .ok_or_else(|| Error::malformed(event, "has no content block index"))
}
