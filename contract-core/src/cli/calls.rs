//! `--calls`: each line is a batch of a model's parallel tool calls,
//! `[{"id","name","arguments"}]`, checked all or nothing by
//! [`Tools::check_calls`] (or [`Tools::check_calls_with`] against
//! `--context`). [`tools`] makes the entry of a tools enum.
//!
//! A line is read strictly first (the JSON grammar, duplicate keys, the
//! depth), then its shape: an array of objects with a string `id`, a
//! string `name` and an `arguments` that is either a string holding the
//! arguments' JSON text (OpenAI's `function.arguments`) or the arguments
//! object itself (Anthropic's `input`, MCP's `arguments`); `arguments` may
//! be absent for a tool without arguments, and no other member is taken.
//! A shape error is a `schema` error at the member's pointer (`/0/name`);
//! the calls' own errors are [`Tools::check_calls`]'s (`/0/arguments/...`,
//! `duplicate_call_id`, `too_many_calls`).
//!
//! A line may hold up to the enum's `max_calls` calls (64 without one), so
//! its size limit is the contract's `max_bytes` times that, plus 256 bytes a
//! call for the frame; its depth limit the contract's plus two.
use std::borrow::Cow;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::checker::{Checker, Decision};
use super::entry::{AnyContext, CallsMode, Entry, entry};
use crate::code;
use crate::error::{Error, Rejection, Stage};
use crate::json::{self, Limits};
use crate::pointer;
use crate::tools::{Call, Tools};

/// The most calls a line holds for a tools enum without `max_calls`.
const DEFAULT_MAX_CALLS: usize = 64;

/// The tools enum `T` under `name` on the command line: its lines are
/// checked as batches of calls with `--calls` (and as single calls in
/// the enum's JSON form, `{"name","arguments"}`, without it). Add a
/// context hook as for [`entry`] when `T` has a business stage or a
/// `batch_check`.
///
/// ```
/// use contract_runtime::Contract;
/// use contract_runtime::cli::{Setup, tools};
///
/// #[derive(Contract, Debug)]
/// #[contract(tools, rename_all = "snake_case")]
/// enum Tool {
///     /// Look a word up.
///     Lookup { word: String },
/// }
///
/// let entry = tools::<Tool>("dictionary");
/// let checker = entry.calls_checker(&Setup::default()).unwrap();
/// let line = r#"[{"id":"a","name":"lookup","arguments":"{\"word\":\"tool\"}"},{"id":"b","name":"lookup","arguments":{"word":7}}]"#;
/// let decision = checker.check(line);
/// assert_eq!(decision.outcome.as_str(), "reject");
/// assert_eq!(decision.errors[0].pointer, "/1/arguments/word");
/// ```
pub fn tools<T>(name: impl Into<String>) -> Entry
where
    T: Tools,
    T::Context: Sized + Send + Sync + 'static,
{
    let mut entry = entry::<T>(name);
    entry.calls = Some(CallsMode {
        plain: plain::<T>,
        with_context: bind::<T>,
    });
    entry
}

/// A line's limits: room for every call the enum allows.
fn line_limits<T: Tools>() -> Limits {
    let calls = T::__MAX_CALLS.unwrap_or(DEFAULT_MAX_CALLS).max(1);
    Limits {
        max_bytes: T::LIMITS
            .max_bytes
            .saturating_mul(calls)
            .saturating_add(calls.saturating_mul(256)),
        max_depth: T::LIMITS.max_depth.saturating_add(2),
    }
}

fn plain<T: Tools>() -> Checker
where
    T::Context: Sized,
{
    let limits = line_limits::<T>();
    Checker {
        limits,
        edit_mode: false,
        check: Box::new(move |line| check_batch::<T>(line, &limits, None)),
        replay: None,
    }
}

fn bind<T>(context: AnyContext) -> Option<Checker>
where
    T: Tools,
    T::Context: Sized + Send + Sync + 'static,
{
    let ctx: Arc<T::Context> = context.downcast().ok()?;
    let limits = line_limits::<T>();
    Some(Checker {
        limits,
        edit_mode: false,
        check: Box::new(move |line| check_batch::<T>(line, &limits, Some(&ctx))),
        replay: None,
    })
}

/// One call of a line, as written.
#[derive(Deserialize)]
struct RawCall<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

/// The decision on one line of calls.
fn check_batch<T: Tools>(line: &str, limits: &Limits, ctx: Option<&T::Context>) -> Decision
where
    T::Context: Sized,
{
    let value = match json::parse(line.as_bytes(), limits) {
        Ok(value) => value,
        Err(rejection) => return Decision::from_rejection(rejection),
    };
    let errors = shape_errors(&value);
    if !errors.is_empty() {
        return Decision::from_rejection(Rejection::from_errors(errors));
    }
    // The shape holds, so serde_json reads it; each `arguments` is kept as
    // written (a string's text is its decoded value).
    let raw: Vec<RawCall<'_>> = match serde_json::from_str(line) {
        Ok(raw) => raw,
        Err(e) => return invalid(e.to_string()),
    };
    let mut texts: Vec<Cow<'_, str>> = Vec::with_capacity(raw.len());
    for call in &raw {
        texts.push(match call.arguments {
            None => Cow::Borrowed(""),
            Some(text) if text.get().starts_with('"') => {
                match serde_json::from_str::<String>(text.get()) {
                    Ok(decoded) => Cow::Owned(decoded),
                    Err(e) => return invalid(e.to_string()),
                }
            }
            Some(text) => Cow::Borrowed(text.get()),
        });
    }
    let calls: Vec<Call<'_>> = raw
        .iter()
        .zip(&texts)
        .map(|(call, arguments)| Call {
            id: &call.id,
            name: &call.name,
            arguments,
        })
        .collect();
    Decision::from_outcome(match ctx {
        Some(ctx) => T::check_calls_with(&calls, ctx),
        None => T::check_calls(&calls),
    })
}

// Not expected once the shape holds: serde_json refused what the strict
// reader took.
fn invalid(message: String) -> Decision {
    Decision::from_rejection(Rejection::single(Error::new(
        Stage::Schema,
        "",
        code::INVALID_TYPE,
        message,
    )))
}

/// What is wrong with the line's shape, in order; empty when it is an
/// array of calls.
fn shape_errors(value: &Value) -> Vec<Error> {
    let Value::Array(calls) = value else {
        return vec![Error::new(
            Stage::Schema,
            "",
            code::INVALID_TYPE,
            r#"expected an array of calls [{"id","name","arguments"}]"#,
        )];
    };
    let mut errors = Vec::new();
    for (i, call) in calls.iter().enumerate() {
        let at = format!("/{i}");
        let Value::Object(members) = call else {
            errors.push(Error::new(
                Stage::Schema,
                at,
                code::INVALID_TYPE,
                r#"expected a call {"id","name","arguments"}"#,
            ));
            continue;
        };
        for (key, member) in members {
            let here = pointer::child(&at, key);
            let wrong = match key.as_str() {
                "id" | "name" => !member.is_string(),
                "arguments" => !(member.is_string() || member.is_object()),
                _ => {
                    errors.push(Error::new(
                        Stage::Schema,
                        here,
                        code::UNKNOWN_KEY,
                        "a call has only id, name and arguments",
                    ));
                    continue;
                }
            };
            if wrong {
                let expected = if key == "arguments" {
                    "expected the arguments object, or its JSON text as a string"
                } else {
                    "expected a string"
                };
                errors.push(Error::new(
                    Stage::Schema,
                    here,
                    code::INVALID_TYPE,
                    expected,
                ));
            }
        }
        for key in ["id", "name"] {
            if !members.contains_key(key) {
                errors.push(Error::new(
                    Stage::Schema,
                    pointer::child(&at, key),
                    code::MISSING_KEY,
                    "a call needs an id and a name",
                ));
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(line: &str) -> Vec<(String, &'static str)> {
        let value = json::parse(line.as_bytes(), &Limits::default()).unwrap();
        shape_errors(&value)
            .into_iter()
            .map(|e| (e.pointer.into(), e.code))
            .collect()
    }

    #[test]
    fn a_line_must_be_an_array_of_calls() {
        assert_eq!(codes(r#"{"id":"a"}"#), [(String::new(), "invalid_type")]);
        assert_eq!(codes("[7]"), [("/0".into(), "invalid_type")]);
        assert!(codes(r#"[{"id":"a","name":"x"}]"#).is_empty());
        assert!(codes(r#"[{"id":"a","name":"x","arguments":"{}"}]"#).is_empty());
        assert!(codes("[]").is_empty());
    }

    #[test]
    fn each_member_of_a_call_is_checked() {
        assert_eq!(
            codes(r#"[{"id":1,"name":"x","arguments":[],"input":{}}]"#),
            [
                ("/0/id".into(), "invalid_type"),
                ("/0/arguments".into(), "invalid_type"),
                ("/0/input".into(), "unknown_key"),
            ]
        );
        assert_eq!(
            codes(r#"[{"arguments":{}}]"#),
            [
                ("/0/id".into(), "missing_key"),
                ("/0/name".into(), "missing_key")
            ]
        );
    }
}
