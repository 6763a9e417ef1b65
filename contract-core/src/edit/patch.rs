//! RFC 6902 JSON Patch: a patch document read strictly into its
//! operations ([`read`]), then applied in order to a copy of the baseline
//! ([`apply`]). Every error is an `edit` error at a pointer into the patch
//! text (`/0/path`, or `/patch/0/path` in the `{"patch": [...]}` form).
//!
//! The reading is as strict as a contract's: each operation is an object
//! with exactly the members RFC 6902 gives its `op` (`add`, `replace` and
//! `test`: `path`, `value`; `remove`: `path`; `move` and `copy`: `from`,
//! `path`), every pointer a valid RFC 6901 pointer (`~0`, `~1`; `-` names
//! the end of an array, only where a value is added). An array index is
//! `0` or a decimal without a leading zero. `test` compares as RFC 6902
//! says: numbers by value (`1` equals `1.0`), objects regardless of member
//! order.
use serde_json::{Map, Value};

use super::merge::remove_member;
use crate::code;
use crate::error::{Error, Rejection, Stage};
use crate::pointer::{Pointer, child, push_index};

/// One operation of a patch, its pointers parsed.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Operation {
    Add { path: Pointer, value: Value },
    Remove { path: Pointer },
    Replace { path: Pointer, value: Value },
    Move { from: Pointer, path: Pointer },
    Copy { from: Pointer, path: Pointer },
    Test { path: Pointer, value: Value },
}

/// A patch's operations, each with the pointer of its object in the patch
/// text.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Patch {
    pub(super) operations: Vec<(String, Operation)>,
}

/// The members each `op` takes, beside `op` itself.
fn members_of(op: &str) -> Option<&'static [&'static str]> {
    Some(match op {
        "add" | "replace" | "test" => &["path", "value"],
        "remove" => &["path"],
        "move" | "copy" => &["from", "path"],
        _ => return None,
    })
}

fn invalid(pointer: String, message: impl Into<String>, expected: &'static str) -> Error {
    Error::new(Stage::Edit, pointer, code::INVALID_PATCH, message.into()).with_expected(expected)
}

const SHAPE: &str = "an RFC 6902 patch: an array of operations, or {\"patch\": [operations]}";
const OPERATION: &str = "{\"op\": \"add\"|\"remove\"|\"replace\"|\"move\"|\"copy\"|\"test\", \"path\": \"/pointer\", ...} with exactly the members of its op";
const POINTER: &str =
    "an RFC 6901 pointer: \"\" or \"/\"-separated segments, `~0` for `~`, `~1` for `/`";

/// The patch in `document` (the array, or an object whose only member is
/// `patch` holding it), every operation checked; all the errors found.
pub(super) fn read(document: Value) -> Result<Patch, Rejection> {
    let (prefix, items) = match document {
        Value::Array(items) => (String::new(), items),
        Value::Object(mut members) if members.len() == 1 => match members.remove("patch") {
            Some(Value::Array(items)) => ("/patch".to_owned(), items),
            Some(_) => {
                return Err(Rejection::single(invalid(
                    "/patch".into(),
                    "`patch` must be an array of operations",
                    SHAPE,
                )));
            }
            None => return Err(Rejection::single(root_error(&members))),
        },
        Value::Object(members) => return Err(Rejection::single(root_error(&members))),
        _ => {
            return Err(Rejection::single(invalid(
                String::new(),
                "a patch is an array of operations",
                SHAPE,
            )));
        }
    };
    let mut errors = Vec::new();
    let mut operations = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let mut at = prefix.clone();
        push_index(&mut at, i);
        match operation(&at, item) {
            Ok(op) => operations.push((at, op)),
            Err(mut found) => errors.append(&mut found),
        }
    }
    if errors.is_empty() {
        Ok(Patch { operations })
    } else {
        Err(Rejection::from_errors(errors))
    }
}

/// The error for an object root that is not `{"patch": [...]}`: at its
/// first member that is not `patch`, or at `""` when it is empty.
fn root_error(members: &Map<String, Value>) -> Error {
    match members.keys().find(|k| *k != "patch") {
        Some(key) => invalid(
            child("", key),
            "a patch object has one member, `patch`",
            SHAPE,
        ),
        None => invalid(
            String::new(),
            "a patch object needs its `patch` member",
            SHAPE,
        ),
    }
}

/// One operation at `at`, or every error it has.
fn operation(at: &str, item: Value) -> Result<Operation, Vec<Error>> {
    let Value::Object(mut members) = item else {
        return Err(vec![invalid(
            at.to_owned(),
            "an operation is an object",
            OPERATION,
        )]);
    };
    let op = match remove_member(&mut members, "op") {
        Some(Value::String(op)) => op,
        Some(_) => {
            return Err(vec![invalid(
                child(at, "op"),
                "`op` must be a string",
                OPERATION,
            )]);
        }
        None => {
            return Err(vec![invalid(
                child(at, "op"),
                "the operation has no `op`",
                OPERATION,
            )]);
        }
    };
    let Some(takes) = members_of(&op) else {
        return Err(vec![invalid(
            child(at, "op"),
            "`op` must be add, remove, replace, move, copy or test",
            OPERATION,
        )]);
    };
    let mut errors = Vec::new();
    for key in members.keys().filter(|k| !takes.contains(&k.as_str())) {
        errors.push(invalid(
            child(at, key),
            format!("`{op}` takes no member `{key}`"),
            OPERATION,
        ));
    }
    for key in takes.iter().filter(|k| !members.contains_key(**k)) {
        errors.push(invalid(
            child(at, key),
            format!("`{op}` needs a member `{key}`"),
            OPERATION,
        ));
    }
    let mut pointer = |key: &str| -> Option<Pointer> {
        match members.get(key)? {
            Value::String(s) => match Pointer::parse(s) {
                Ok(p) => Some(p),
                Err(e) => {
                    errors.push(invalid(
                        child(at, key),
                        format!("`{key}` is not a JSON Pointer: {e}"),
                        POINTER,
                    ));
                    None
                }
            },
            _ => {
                errors.push(invalid(
                    child(at, key),
                    format!("`{key}` must be a string"),
                    POINTER,
                ));
                None
            }
        }
    };
    let path = pointer("path");
    let from = if takes.contains(&"from") {
        pointer("from")
    } else {
        None
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let (Some(path), value) = (path, remove_member(&mut members, "value")) else {
        return Err(vec![invalid(child(at, "path"), "no `path`", OPERATION)]);
    };
    let value = || value.clone().unwrap_or(Value::Null);
    Ok(match (op.as_str(), from) {
        ("add", _) => Operation::Add {
            path,
            value: value(),
        },
        ("remove", _) => Operation::Remove { path },
        ("replace", _) => Operation::Replace {
            path,
            value: value(),
        },
        ("test", _) => Operation::Test {
            path,
            value: value(),
        },
        ("move", Some(from)) => Operation::Move { from, path },
        ("copy", Some(from)) => Operation::Copy { from, path },
        _ => return Err(vec![invalid(child(at, "from"), "no `from`", OPERATION)]),
    })
}

/// `patch` applied in order to a copy of `baseline`; the first operation
/// that cannot apply rejects the whole patch.
pub(super) fn apply(baseline: &Value, patch: &Patch) -> Result<Value, Rejection> {
    let mut doc = baseline.clone();
    for (at, op) in &patch.operations {
        step(&mut doc, at, op)?;
    }
    Ok(doc)
}

fn not_found(at: &str, key: &str, what: &str) -> Rejection {
    Rejection::single(Error::new(
        Stage::Edit,
        child(at, key),
        code::PATH_NOT_FOUND,
        format!("`{key}` {what}"),
    )
    .with_expected("a pointer to a value of the document (an index below the array's length; `-` only to add at the end)"))
}

fn step(doc: &mut Value, at: &str, op: &Operation) -> Result<(), Rejection> {
    match op {
        Operation::Add { path, value } => {
            add(doc, path, value.clone()).ok_or_else(|| not_found(at, "path", ADD_MISSING))
        }
        Operation::Remove { path } if path.is_root() => Err(Rejection::single(invalid(
            child(at, "path"),
            "the whole document cannot be removed",
            OPERATION,
        ))),
        Operation::Remove { path } => remove(doc, path)
            .map(drop)
            .ok_or_else(|| not_found(at, "path", MISSING)),
        Operation::Replace { path, value } => {
            let target = get_mut(doc, path).ok_or_else(|| not_found(at, "path", MISSING))?;
            *target = value.clone();
            Ok(())
        }
        Operation::Move { from, path } => {
            if from.is_root() {
                return Err(Rejection::single(invalid(
                    child(at, "from"),
                    "the whole document cannot be moved (a move removes its `from`)",
                    OPERATION,
                )));
            }
            if from != path && is_prefix(from, path) {
                return Err(Rejection::single(invalid(
                    child(at, "from"),
                    "a value cannot be moved into one of its own children",
                    OPERATION,
                )));
            }
            if from == path {
                return get_mut(doc, from)
                    .map(drop)
                    .ok_or_else(|| not_found(at, "from", MISSING));
            }
            let value = remove(doc, from).ok_or_else(|| not_found(at, "from", MISSING))?;
            add(doc, path, value).ok_or_else(|| not_found(at, "path", ADD_MISSING))
        }
        Operation::Copy { from, path } => {
            let value = from
                .resolve(doc)
                .cloned()
                .ok_or_else(|| not_found(at, "from", MISSING))?;
            add(doc, path, value).ok_or_else(|| not_found(at, "path", ADD_MISSING))
        }
        Operation::Test { path, value } => {
            let found = path
                .resolve(doc)
                .ok_or_else(|| not_found(at, "path", MISSING))?;
            if equal(found, value) {
                Ok(())
            } else {
                Err(Rejection::single(
                    Error::new(
                        Stage::Edit,
                        child(at, "value"),
                        code::TEST_FAILED,
                        "the value at `path` is not the test's `value`",
                    )
                    .with_expected("the value the document holds at `path`"),
                ))
            }
        }
    }
}

const MISSING: &str = "names no value of the document";
const ADD_MISSING: &str =
    "names no place to add: its parent is not in the document, or the index is past the end";

/// Whether `a` is a proper prefix of `b`.
fn is_prefix(a: &Pointer, b: &Pointer) -> bool {
    let (a, b) = (a.segments(), b.segments());
    a.len() < b.len() && b[..a.len()] == *a
}

/// An array index as RFC 6901 writes it: `0`, or digits without a leading
/// zero.
fn index(segment: &str) -> Option<usize> {
    let digits = segment.bytes().all(|b| b.is_ascii_digit());
    if segment.is_empty() || !digits || (segment.len() > 1 && segment.starts_with('0')) {
        return None;
    }
    segment.parse().ok()
}

fn get_mut<'v>(doc: &'v mut Value, path: &Pointer) -> Option<&'v mut Value> {
    let mut at = doc;
    for segment in path.segments() {
        at = match at {
            Value::Object(members) => members.get_mut(segment)?,
            Value::Array(items) => items.get_mut(index(segment)?)?,
            _ => return None,
        };
    }
    Some(at)
}

/// The parent of `path` and its last segment; `None` for the root.
fn parent_mut<'v, 'p>(doc: &'v mut Value, path: &'p Pointer) -> Option<(&'v mut Value, &'p str)> {
    let (last, init) = path.segments().split_last()?;
    let parent = get_mut(
        doc,
        &Pointer::from_segments(init.iter().map(String::as_str)),
    )?;
    Some((parent, last))
}

fn add(doc: &mut Value, path: &Pointer, value: Value) -> Option<()> {
    if path.is_root() {
        *doc = value;
        return Some(());
    }
    let (parent, last) = parent_mut(doc, path)?;
    match parent {
        Value::Object(members) => {
            members.insert(last.to_owned(), value);
        }
        Value::Array(items) => {
            let i = if last == "-" {
                items.len()
            } else {
                index(last)?
            };
            if i > items.len() {
                return None;
            }
            items.insert(i, value);
        }
        _ => return None,
    }
    Some(())
}

fn remove(doc: &mut Value, path: &Pointer) -> Option<Value> {
    let (parent, last) = parent_mut(doc, path)?;
    match parent {
        Value::Object(members) => remove_member(members, last),
        Value::Array(items) => {
            let i = index(last)?;
            (i < items.len()).then(|| items.remove(i))
        }
        _ => None,
    }
}

/// RFC 6902 equality: same type; numbers by value; strings, booleans,
/// null by value; arrays item by item; objects by member set.
pub(super) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                _ if (x.is_f64() || y.is_f64()) => x.as_f64() == y.as_f64(),
                _ => false,
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}
