//! [`changed_paths_str`]: the changed paths against a document given as
//! JSON text, found while the text is scanned, without building its tree.
//!
//! A `serde_json::Value` costs tens of times the bytes it was read from
//! (an array of `[0]`s, about 90 times), so the tree of an edit candidate
//! near `max_bytes` would cost far more than everything else the check
//! does. Here the candidate is walked with the strict [`Reader`]
//! beside the baseline's tree: an object present in both is walked member
//! by member, anything else is compared token by token with the baseline's
//! value and, from the first difference on, only skipped (still checked as
//! strictly as [`json::parse`] checks it).
use std::borrow::Cow;
use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::members::Members;
use super::report;
use super::same::same_str;
use crate::error::Rejection;
use crate::json::{self, Limits, ParseError, Path, Peek, Reader, duplicate_key};

/// The pointers at which the document `after`, given as JSON text, differs
/// from `before`: exactly
/// `changed_paths(before, &json::parse(after.as_bytes(), limits)?)`
/// (see [`changed_paths`](super::changed_paths) for the rules), and the same
/// rejection as [`json::parse`] when `after` is not JSON under `limits`
/// (`too_large` first, before any of it is read).
///
/// No tree of `after` is built: besides `before`, the memory it takes is the
/// changed pointers and at most the keys of the objects of `after` being
/// read (to refuse duplicates; none while an object's keys are `before`'s
/// in the same order), never a copy of a value `after` adds or replaces.
///
/// ```
/// use contract_runtime::diff::changed_paths_str;
/// use contract_runtime::json::Limits;
/// use serde_json::json;
///
/// let before = json!({"notifications": {"email": true}, "retry_limit": 3, "channels": ["email", "sms"]});
/// let after = r#"{"notifications": {"email": false}, "retry_limit": 3, "channels": ["sms", "email"]}"#;
/// let changed: Vec<String> = changed_paths_str(&before, after, &Limits::default())
///     .unwrap()
///     .into_iter()
///     .collect();
/// assert_eq!(changed, ["/channels", "/notifications/email"]);
///
/// let rejection = changed_paths_str(&before, r#"{"retry_limit": 3, "retry_limit": 4}"#, &Limits::default())
///     .unwrap_err();
/// assert_eq!(rejection.errors[0].code, "duplicate_key");
/// assert_eq!(rejection.errors[0].pointer, "/retry_limit");
/// ```
pub fn changed_paths_str(
    before: &Value,
    after: &str,
    limits: &Limits,
) -> Result<BTreeSet<String>, Rejection> {
    let text = json::prepare(after.as_bytes(), limits)?;
    let mut changed = BTreeSet::new();
    let mut scan = Scan {
        text,
        r: Reader::new(text, limits.max_depth),
        buf: String::new(),
        changed: |pointer: &str| {
            changed.insert(pointer.to_owned());
        },
    };
    scan.walk(before, &Path::Root)
        .and_then(|()| scan.r.finish())
        .map_err(|e| Rejection::single(e.into_error(after.as_bytes())))?;
    Ok(changed)
}

// `after`'s text, its reader, and where each changed pointer goes.
struct Scan<'t, F> {
    text: &'t str,
    r: Reader<'t>,
    // The pointer being reported, built in one reused buffer.
    buf: String,
    changed: F,
}

impl<'t, F: FnMut(&str)> Scan<'t, F> {
    fn report(&mut self, path: &Path<'_>) {
        report(path, &mut self.buf, &mut self.changed);
    }

    // The rules of `super::walk`, with `after` read from the text: two
    // objects are walked member by member; anything else is one change
    // here, if any.
    fn walk(&mut self, before: &Value, path: &Path<'_>) -> Result<(), ParseError> {
        if let (Value::Object(before_map), Peek::Object) = (before, self.r.peek()?) {
            return self.walk_object(before_map, path);
        }
        if !self.equal(before, path)? {
            self.report(path);
        }
        Ok(())
    }

    fn walk_object(
        &mut self,
        before_map: &Map<String, Value>,
        path: &Path<'_>,
    ) -> Result<(), ParseError> {
        let mut members = Members::new(before_map);
        let mut shared = 0;
        if self.r.begin_object()? {
            loop {
                let (key, found) = self.read_new_key(&mut members, path)?;
                let member = path.key(&key);
                match found {
                    Some(before_value) => {
                        shared += 1;
                        self.walk(before_value, &member)?;
                    }
                    None => {
                        self.r.skip_value(&member)?;
                        self.report(&member);
                    }
                }
                if !self.r.object_more()? {
                    break;
                }
            }
        }
        // Every member of `before` was matched (keys are unique): none removed.
        if shared < before_map.len() {
            for key in members.missing() {
                self.report(&path.key(key));
            }
        }
        Ok(())
    }

    // Reads the next member's key and finds it in `members`, refusing a
    // duplicate as `json::parse` does (same offset, same pointer); returns
    // the key and the baseline's member of that name, if any.
    fn read_new_key<'k>(
        &mut self,
        members: &mut Members<'k>,
        path: &Path<'_>,
    ) -> Result<(Cow<'t, str>, Option<&'k Value>), ParseError>
    where
        't: 'k,
    {
        let at = self.r.offset();
        let key = self.r.read_key()?;
        // The key as written, when that is the key itself (no escapes): a
        // borrow of the text, not a copy.
        let key = match self.text.get(at + 1..at + 1 + key.len()) {
            Some(raw) if same_str(raw, key) => Cow::Borrowed(raw),
            _ => Cow::Owned(key.to_owned()),
        };
        match members.take(&key) {
            Ok(found) => Ok((key, found)),
            Err(()) => Err(duplicate_key(at, path, &key)),
        }
    }

    // Whether the next value equals `before` (as `Value`'s `==` says),
    // reading all of it. Recursion follows `before`'s containers only, so
    // its depth is `before`'s; past the first difference the rest is
    // skipped, which does not recurse.
    fn equal(&mut self, before: &Value, path: &Path<'_>) -> Result<bool, ParseError> {
        let r = &mut self.r;
        Ok(match (before, r.peek()?) {
            (Value::Null, Peek::Null) => {
                r.read_null()?;
                true
            }
            (Value::Bool(b), Peek::True | Peek::False) => r.read_bool()? == *b,
            (Value::Number(n), Peek::Number) => r.read_number()?.to_json() == *n,
            (Value::String(s), Peek::String) => same_str(r.read_str_ref()?, s),
            (Value::Array(items), Peek::Array) => self.equal_array(items, path)?,
            (Value::Object(map), Peek::Object) => self.equal_object(map, path)?,
            _ => {
                r.skip_value(path)?;
                false
            }
        })
    }

    fn equal_array(&mut self, items: &[Value], path: &Path<'_>) -> Result<bool, ParseError> {
        let mut same = true;
        let mut len = 0;
        if self.r.begin_array()? {
            loop {
                let element = path.index(len);
                match items.get(len) {
                    Some(item) if same => same = self.equal(item, &element)?,
                    _ => {
                        same = false;
                        self.r.skip_value(&element)?;
                    }
                }
                len += 1;
                if !self.r.array_more()? {
                    break;
                }
            }
        }
        Ok(same && len == items.len())
    }

    fn equal_object(
        &mut self,
        map: &Map<String, Value>,
        path: &Path<'_>,
    ) -> Result<bool, ParseError> {
        let mut members = Members::new(map);
        let mut same = true;
        let mut len = 0;
        if self.r.begin_object()? {
            loop {
                let (key, found) = self.read_new_key(&mut members, path)?;
                let member = path.key(&key);
                match found {
                    Some(value) if same => same = self.equal(value, &member)?,
                    _ => {
                        same = false;
                        self.r.skip_value(&member)?;
                    }
                }
                len += 1;
                if !self.r.object_more()? {
                    break;
                }
            }
        }
        // Keys are unique and each was found in `map`: equal sizes, equal
        // key sets.
        Ok(same && len == map.len())
    }
}
