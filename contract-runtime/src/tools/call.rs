//! One call: its text in the JSON form, checked through the contract's
//! own decoder (with limits one level and one frame looser, so that the
//! limits fall on the arguments text), and what the derive names (`Meta`,
//! `encode_call`).
use serde_json::{Map, Value};

use crate::code;
use crate::error::{Error, Rejection, Stage};
use crate::json::{self, Limits, ParseError, Path, Peek, Reader};
use crate::json_type::{Collector, JsonType};
use crate::outcome::{Outcome, OutcomeKind};
use crate::pipeline::{self, Document, Stages};
use crate::schema::SchemaGen;
use crate::shape::Shape;

use super::{Tool, Tools};

/// The most bytes the frame around the arguments adds:
/// `{"name":"<64 characters>","arguments":` and `}`.
const FRAME: usize = 128;

/// MCP's `_meta` member of a call: any object, accepted and ignored.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Meta;

impl JsonType for Meta {
    const SHAPE: Shape = Shape::Leaf;

    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        match r.peek()? {
            Peek::Object => {
                r.skip_value(path)?;
                Ok(Some(Meta))
            }
            other => crate::decode::invalid_type(r, path, cx, "an object", other),
        }
    }

    fn encode(&self) -> Value {
        Value::Object(Map::new())
    }

    fn schema(_defs: &mut SchemaGen) -> Value {
        serde_json::json!({"type": "object"})
    }
}

impl<C: ?Sized> crate::business::Business<C> for Meta {
    #[inline]
    fn business_at(&mut self, _: &C, _: &Path<'_>, _: &mut Collector) {}
}

/// A call in the JSON form: `{"name": name, "arguments": arguments}`.
#[doc(hidden)]
pub fn encode_call(name: &str, arguments: Value) -> Value {
    let mut map = Map::new();
    map.insert("name".into(), Value::String(name.into()));
    map.insert("arguments".into(), arguments);
    Value::Object(map)
}

/// The tool named `name`, or the `unknown_tool` rejection at `/name`.
pub(super) fn find<T: Tools>(name: &str) -> Result<&'static Tool, Rejection> {
    T::__TOOLS
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| Rejection::single(unknown_tool::<T>()))
}

/// `unknown_tool` at `/name`, listing the tools.
pub(super) fn unknown_tool<T: Tools>() -> Error {
    let expected = expected::<T>();
    Error::new(
        Stage::Schema,
        "/name",
        code::UNKNOWN_TOOL,
        format!("no tool has this name: expected {expected}"),
    )
    .with_expected(expected)
}

// `one of: "a", "b"`, as the decoder words the union's tag.
fn expected<T: Tools>() -> String {
    let names: Vec<String> = T::__TOOLS.iter().map(|t| format!("{:?}", t.name)).collect();
    format!("one of: {}", names.join(", "))
}

/// The text before a tool's arguments in the JSON form.
pub(super) fn prefix(tool: &Tool) -> String {
    let mut text = String::with_capacity(prefix_len(tool));
    push_prefix(&mut text, tool);
    text
}

const NAME_OPEN: &str = r#"{"name":""#;
const ARGUMENTS_OPEN: &str = r#"","arguments":"#;

fn push_prefix(text: &mut String, tool: &Tool) {
    text.push_str(NAME_OPEN);
    text.push_str(tool.name);
    text.push_str(ARGUMENTS_OPEN);
}

// The prefix's length in bytes.
fn prefix_len(tool: &Tool) -> usize {
    NAME_OPEN.len() + tool.name.len() + ARGUMENTS_OPEN.len()
}

/// `check_call`/`check_call_with`: the arguments text of the tool named
/// `name`, checked as the call `{"name": name, "arguments": <text>}` is.
pub(super) fn check<T: Tools>(name: &str, arguments: &str, ctx: Option<&T::Context>) -> Outcome<T> {
    match find::<T>(name) {
        Ok(tool) => check_tool::<T>(tool, arguments, ctx),
        Err(rejection) => Outcome::Reject(rejection),
    }
}

/// [`check`] of a tool found, for a stream's `finish`.
pub(super) fn check_tool<T: Tools>(
    tool: &Tool,
    arguments: &str,
    ctx: Option<&T::Context>,
) -> Outcome<T> {
    // The limits and the grammar on the arguments text alone (its parse
    // errors at its own lines and columns).
    if let Err(rejection) = json::check_text(arguments, &T::LIMITS) {
        return Outcome::Reject(rejection);
    }
    let blank = arguments.trim_matches([' ', '\t', '\n', '\r']).is_empty();
    let text = if blank && !tool.has_arguments {
        // A tool without arguments: no text is no arguments.
        format!(r#"{{"name":"{}"}}"#, tool.name)
    } else {
        if let Err(e) = syntax(arguments, T::LIMITS.max_depth) {
            return Outcome::Reject(Rejection::single(e.into_error(arguments.as_bytes())));
        }
        // One allocation: the frame, the arguments, the closing brace.
        let mut text = String::with_capacity(prefix_len(tool) + arguments.len() + 1);
        push_prefix(&mut text, tool);
        text.push_str(arguments);
        text.push('}');
        text
    };
    let stages = match ctx {
        Some(ctx) => Stages::business(ctx),
        None => Stages::none(),
    };
    // The frame's characters (a name is ASCII, so its bytes).
    let shift = prefix_len(tool);
    match pipeline::outcome::<Framed<T>>(&text, stages) {
        Outcome::Accept(Framed(v)) => Outcome::Accept(v),
        Outcome::Clarify(Framed(v)) => Outcome::Clarify(v),
        Outcome::Decline(Framed(v)) => Outcome::Decline(v),
        Outcome::Review {
            value: Framed(value),
            reasons,
        } => Outcome::Review { value, reasons },
        Outcome::Reject(mut rejection) => {
            // A parse error the grammar pass does not see (a duplicate
            // key): its column on the first line is the frame's plus ours.
            for e in &mut rejection.errors {
                if let (Some(1), Some(column)) = (e.line, e.column) {
                    e.column = Some(column.saturating_sub(shift).max(1));
                }
            }
            Outcome::Reject(rejection)
        }
    }
}

// The arguments text is one JSON value, within the nesting limit.
fn syntax(text: &str, max_depth: usize) -> Result<(), ParseError> {
    let mut r = Reader::new(text, max_depth);
    r.skip_value(&Path::Root)?;
    r.finish()
}

/// A tools enum read from a framed arguments text: its own decoder, with
/// room for the frame (`max_bytes` + the frame, `max_depth` + 1).
struct Framed<T>(T);

impl<T: Tools> JsonType for Framed<T> {
    const SHAPE: Shape = T::SHAPE;
    const TYPE: crate::describe::Type = T::TYPE;

    fn decode(
        r: &mut Reader<'_>,
        path: &Path<'_>,
        cx: &mut Collector,
    ) -> Result<Option<Self>, ParseError> {
        Ok(T::decode(r, path, cx)?.map(Framed))
    }

    fn encode(&self) -> Value {
        self.0.encode()
    }

    fn schema(defs: &mut SchemaGen) -> Value {
        T::schema(defs)
    }

    fn rules(&self, path: &Path<'_>, cx: &mut Collector) {
        self.0.rules(path, cx);
    }
}

impl<T: Tools> Document for Framed<T> {
    const LIMITS: Limits = Limits {
        max_bytes: <T as crate::Contract>::LIMITS
            .max_bytes
            .saturating_add(FRAME),
        max_depth: <T as crate::Contract>::LIMITS.max_depth.saturating_add(1),
    };
    type Context = <T as crate::Contract>::Context;

    fn business(&mut self, ctx: &Self::Context, cx: &mut Collector) {
        self.0.__business(ctx, cx);
    }

    fn outcome(&self) -> OutcomeKind {
        self.0.__outcome()
    }
}
