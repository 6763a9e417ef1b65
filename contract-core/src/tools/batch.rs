//! A batch of parallel calls, all or nothing.
use std::collections::BTreeMap;

use crate::code;
use crate::error::{Error, Stage};
use crate::json_type::Collector;
use crate::outcome::{Outcome, Violation};
use crate::pipeline;

use super::{Call, Tools};

/// `check_calls`/`check_calls_with`.
pub(super) fn check<T: Tools>(calls: &[Call<'_>], ctx: Option<&T::Context>) -> Outcome<Vec<T>> {
    let mut errors: Vec<Error> = Vec::new();
    let mut omitted = 0;
    let mut values = Vec::with_capacity(calls.len());
    let mut reasons: Vec<Violation> = Vec::new();
    let (mut clarify, mut decline) = (false, false);
    for (i, call) in calls.iter().enumerate() {
        let outcome = super::call::check::<T>(call.name, call.arguments, ctx);
        match outcome {
            Outcome::Accept(v) => values.push(v),
            Outcome::Clarify(v) => {
                clarify = true;
                values.push(v);
            }
            Outcome::Decline(v) => {
                decline = true;
                values.push(v);
            }
            Outcome::Review { value, reasons: r } => {
                values.push(value);
                let prefix = format!("/{i}");
                reasons.extend(r.into_iter().map(|mut v| {
                    v.pointer.insert_str(0, &prefix);
                    v
                }));
            }
            Outcome::Reject(rejection) => {
                omitted += rejection.omitted;
                let prefix = format!("/{i}");
                errors.extend(rejection.errors.into_iter().map(|mut e| {
                    e.pointer.insert_str(0, &prefix);
                    e
                }));
            }
        }
    }
    batch_rules::<T>(calls, &mut errors);
    if !errors.is_empty() || omitted > 0 {
        errors.sort_by_key(|e| index_of(&e.pointer));
        return Outcome::Reject(pipeline::rejection(errors, omitted));
    }
    if let Some(ctx) = ctx {
        let mut cx = Collector::new();
        T::__batch_check(&values, ctx, &mut cx);
        let (errors, omitted, batch_reasons) = cx.finish();
        if !errors.is_empty() || omitted > 0 {
            return Outcome::Reject(pipeline::rejection(errors, omitted));
        }
        reasons.extend(batch_reasons);
    }
    if !reasons.is_empty() {
        Outcome::Review {
            value: values,
            reasons,
        }
    } else if clarify {
        Outcome::Clarify(values)
    } else if decline {
        Outcome::Decline(values)
    } else {
        Outcome::Accept(values)
    }
}

// The call an error belongs to (`""` first), so that errors come in call order.
fn index_of(pointer: &str) -> usize {
    let Some(rest) = pointer.strip_prefix('/') else {
        return 0;
    };
    let digits = rest.split('/').next().unwrap_or("");
    digits.parse::<usize>().map_or(0, |i| i.saturating_add(1))
}

// Up to this many calls, a repeated id is found by scanning the calls
// before it (no map to build); past it, through a map.
const SCAN_IDS: usize = 16;

// Unique ids, `max_calls` of the batch and of each tool.
fn batch_rules<T: Tools>(calls: &[Call<'_>], errors: &mut Vec<Error>) {
    if calls.len() <= SCAN_IDS {
        for (i, call) in calls.iter().enumerate() {
            let before = calls.get(..i).unwrap_or_default();
            if let Some(first) = before.iter().position(|c| c.id == call.id) {
                errors.push(duplicate_id(i, first));
            }
        }
    } else {
        let mut ids: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, call) in calls.iter().enumerate() {
            if let Some(first) = ids.get(call.id) {
                errors.push(duplicate_id(i, *first));
            } else {
                ids.insert(call.id, i);
            }
        }
    }
    if let Some(max) = T::__MAX_CALLS
        && calls.len() > max
    {
        errors.push(
            Error::new(
                Stage::Rule,
                "",
                code::TOO_MANY_CALLS,
                format!(
                    "the batch holds {} calls; at most {max} are allowed",
                    calls.len()
                ),
            )
            .with_expected(format!("at most {max} calls")),
        );
    }
    // Each tool with a `max_calls`: its calls counted by name, the first
    // one past it an error (a call is of one tool, so at most one error a
    // call).
    for tool in T::__TOOLS {
        let Some(max) = tool.max_calls else {
            continue;
        };
        let mut of_tool = calls
            .iter()
            .enumerate()
            .filter(|(_, call)| call.name == tool.name);
        if let Some((i, _)) = of_tool.nth(max) {
            errors.push(too_many_of(i, tool.name, max));
        }
    }
}

// `duplicate_call_id` of call `i`, whose id is the id of call `first`.
#[cold]
fn duplicate_id(i: usize, first: usize) -> Error {
    Error::new(
        Stage::Rule,
        format!("/{i}/id"),
        code::DUPLICATE_CALL_ID,
        format!("this id is the id of call {first}: each call of a batch has its own id"),
    )
    .with_expected("an id no other call of the batch has")
}

// `too_many_calls` at call `i`, the first call of `name` past its `max`.
#[cold]
fn too_many_of(i: usize, name: &str, max: usize) -> Error {
    Error::new(
        Stage::Rule,
        format!("/{i}"),
        code::TOO_MANY_CALLS,
        format!("`{name}` may be called at most {max} times in one batch"),
    )
    .with_expected(format!("at most {max} calls of `{name}`"))
}
