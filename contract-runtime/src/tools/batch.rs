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
        let prefix = format!("/{i}");
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
                reasons.extend(r.into_iter().map(|mut v| {
                    v.pointer.insert_str(0, &prefix);
                    v
                }));
            }
            Outcome::Reject(rejection) => {
                omitted += rejection.omitted;
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

// Unique ids, `max_calls` of the batch and of each tool.
fn batch_rules<T: Tools>(calls: &[Call<'_>], errors: &mut Vec<Error>) {
    let mut ids: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, call) in calls.iter().enumerate() {
        if let Some(first) = ids.get(call.id) {
            errors.push(
                Error::new(
                    Stage::Rule,
                    format!("/{i}/id"),
                    code::DUPLICATE_CALL_ID,
                    format!(
                        "this id is the id of call {first}: each call of a batch has its own id"
                    ),
                )
                .with_expected("an id no other call of the batch has"),
            );
        } else {
            ids.insert(call.id, i);
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
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, call) in calls.iter().enumerate() {
        let Some(tool) = T::__TOOLS.iter().find(|t| t.name == call.name) else {
            continue;
        };
        let n = counts.entry(tool.name).or_insert(0);
        *n += 1;
        if let Some(max) = tool.max_calls
            && *n == max + 1
        {
            errors.push(
                Error::new(
                    Stage::Rule,
                    format!("/{i}"),
                    code::TOO_MANY_CALLS,
                    format!(
                        "`{}` may be called at most {max} times in one batch",
                        tool.name
                    ),
                )
                .with_expected(format!("at most {max} calls of `{}`", tool.name)),
            );
        }
    }
}
