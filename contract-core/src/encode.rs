//! What generated encoders call: one non-generic insertion per member, so
//! that each member of each contract compiles to one call.
use serde_json::{Map, Value};

/// Inserts member `name` with `value` into an object being encoded.
pub fn put(map: &mut Map<String, Value>, name: &str, value: Value) {
    map.insert(name.into(), value);
}
