//! One call: its arguments text read in one pass by its tool's decoder at
//! `/arguments` (the limits on that text), then the stages of any document;
//! and what the derive names (`Meta`, `encode_call`, `ReadArguments`).
use serde_json::{Map, Value};

use crate::code;
use crate::error::{Error, Rejection, Stage};
use crate::json::{self, ParseError, Path, Peek, Reader};
use crate::json_type::{Collector, JsonType};
use crate::outcome::Outcome;
use crate::pipeline::{self, Stages};
use crate::schema::SchemaGen;
use crate::shape::Shape;

use super::{Tool, Tools};

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
    [r#"{"name":""#, tool.name, r#"","arguments":"#].concat()
}

/// `check_call`/`check_call_with`: the arguments text of the tool named
/// `name`, checked as the call `{"name": name, "arguments": <text>}` is.
pub(super) fn check<T: Tools>(name: &str, arguments: &str, ctx: Option<&T::Context>) -> Outcome<T> {
    match T::__TOOLS.iter().position(|t| t.name == name) {
        Some(index) => check_tool::<T>(index, arguments, ctx),
        None => Outcome::Reject(Rejection::single(unknown_tool::<T>())),
    }
}

/// Where a call's arguments sit in its JSON form.
const ARGUMENTS: Path<'static> = Path::Key(&Path::Root, "arguments");

/// How the derive reads one tool's arguments object into the enum: its
/// arguments' decoder at `path` (`/arguments`), then their rules when the
/// read found no error.
#[doc(hidden)]
pub type ReadArguments<T> =
    fn(&mut Reader<'_>, &Path<'_>, &mut Collector) -> Result<Option<T>, ParseError>;

/// [`check`] of the tool at `index` in `__TOOLS`: its arguments text read
/// in one pass by that tool's decoder at `/arguments`, within the limits
/// (on the text itself), its parse errors at the text's own lines and
/// columns, anything after the arguments object refused by the reader's
/// end, then the rule and business stages as for any document.
fn check_tool<T: Tools>(index: usize, arguments: &str, ctx: Option<&T::Context>) -> Outcome<T> {
    let (Some(tool), Some(read)) = (T::__TOOLS.get(index), T::__ARGUMENTS.get(index)) else {
        // Not for a derived enum: it states a reader for each tool.
        return Outcome::Reject(Rejection::single(unknown_tool::<T>()));
    };
    let blank = arguments.trim_matches([' ', '\t', '\n', '\r']).is_empty();
    let text = if blank && !tool.has_arguments {
        // A tool without arguments: no text is no arguments (within the
        // limits all the same).
        if let Err(rejection) = json::check_text(arguments, &T::LIMITS) {
            return Outcome::Reject(rejection);
        }
        "{}"
    } else {
        arguments
    };
    let stages = match ctx {
        Some(ctx) => Stages::business(ctx),
        None => Stages::none(),
    };
    pipeline::outcome_read::<T>(text, stages, |r, cx| read(r, &ARGUMENTS, cx))
}
