//! RFC 7396 JSON Merge Patch: objects merge member by member, recursively;
//! a `null` member removes the member; any other value (an array, a
//! string, a non-object patch at any level) replaces what was there.
//!
//! A merge patch cannot set a member to `null` (its `null` removes it):
//! a JSON Patch `replace` with `"value": null` does that.
use serde_json::{Map, Value};

/// `patch` merged into a copy of `target` (RFC 7396 section 2).
pub(super) fn apply(target: &Value, patch: &Value) -> Value {
    let mut out = target.clone();
    merge(&mut out, patch);
    out
}

fn merge(target: &mut Value, patch: &Value) {
    let Value::Object(members) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Value::Object(into) = target else {
        return;
    };
    for (key, value) in members {
        if value.is_null() {
            remove_member(into, key);
        } else if let Some(existing) = into.get_mut(key) {
            merge(existing, value);
        } else {
            let mut fresh = Value::Null;
            merge(&mut fresh, value);
            into.insert(key.clone(), fresh);
        }
    }
}

/// Removes `key` from `members`, keeping the order of the others where the
/// map keeps an order (serde_json's `preserve_order`; without it a map is
/// sorted by key and `remove` keeps it sorted).
pub(super) fn remove_member(members: &mut Map<String, Value>, key: &str) -> Option<Value> {
    #[cfg(feature = "preserve_order")]
    {
        members.shift_remove(key)
    }
    #[cfg(not(feature = "preserve_order"))]
    {
        members.remove(key)
    }
}
