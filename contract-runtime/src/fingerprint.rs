//! Canonical fingerprints of JSON values: what binds an approval to the
//! document it approved, and an action to its idempotency key.
//!
//! The canonical form is JSON text with object keys sorted (by their UTF-8
//! bytes), no whitespace, strings escaped exactly as `serde_json` writes them
//! (`"`, `\`, and control characters; everything else as-is, so `"é"` and
//! `"\u00e9"` in the input have one fingerprint), and numbers as
//! `serde_json::Number` prints them: integers as written, floats in their
//! shortest round-trip form (`1.0` and `1.00` are one number; `1` and `1.0`
//! are two). The digest is SHA-256 (the `sha2` crate).
use std::fmt;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// A SHA-256 digest of a canonical JSON form.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint([u8; 32]);

impl Fingerprint {
    /// The fingerprint of `value`'s canonical form.
    ///
    /// ```
    /// use contract_runtime::fingerprint::Fingerprint;
    /// use serde_json::json;
    ///
    /// let a = Fingerprint::of(&json!({"a": 1, "b": [true, null]}));
    /// let b = Fingerprint::of(&json!({"b": [true, null], "a": 1}));
    /// assert_eq!(a, b); // key order never matters
    /// assert_ne!(a, Fingerprint::of(&json!({"a": 1.0, "b": [true, null]})));
    /// ```
    pub fn of(value: &Value) -> Self {
        let mut hasher = Sha256::new();
        let mut buf = String::new();
        write_canonical(value, &mut buf);
        hasher.update(buf.as_bytes());
        Fingerprint(hasher.finalize().into())
    }

    /// A digest of several labelled parts (each length-prefixed, so parts
    /// cannot run into each other).
    pub fn of_parts(parts: &[&[u8]]) -> Self {
        let mut hasher = Sha256::new();
        for part in parts {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        Fingerprint(hasher.finalize().into())
    }

    /// The 32 bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for byte in self.0 {
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({self})")
    }
}

impl serde::Serialize for Fingerprint {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Writes the canonical form of `value` (see the module docs).
pub fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (key, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_canonical(v, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(v, out);
            }
            out.push(']');
        }
        Value::String(s) => write_string(s, out),
        other => out.push_str(&other.to_string()),
    }
}

fn write_string(s: &str, out: &mut String) {
    // serde_json's own escaping of a string never fails.
    out.push_str(&Value::String(s.to_owned()).to_string());
}

/// A key that names one action: the contract, its version, an optional
/// scope (a user, a tenant) and the canonical accepted document. Record it
/// before acting and refuse a second action with the same key.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, serde::Serialize)]
pub struct IdempotencyKey(pub Fingerprint);

impl fmt::Display for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl IdempotencyKey {
    /// The key of `document` accepted under contract `name` version
    /// `version`, within `scope`.
    pub fn new(name: &str, version: u32, scope: Option<&str>, document: &Value) -> Self {
        let mut canonical = String::new();
        write_canonical(document, &mut canonical);
        let scope_bytes: &[u8] = match scope {
            Some(s) => s.as_bytes(),
            None => &[],
        };
        let has_scope: &[u8] = if scope.is_some() { b"1" } else { b"0" };
        IdempotencyKey(Fingerprint::of_parts(&[
            name.as_bytes(),
            &version.to_le_bytes(),
            has_scope,
            scope_bytes,
            canonical.as_bytes(),
        ]))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn canonical(v: &Value) -> String {
        let mut s = String::new();
        write_canonical(v, &mut s);
        s
    }

    #[test]
    fn keys_are_sorted_and_whitespace_dropped() {
        let v: Value =
            serde_json::from_str(r#"{ "b": 1, "a": { "d": [1, 2.5], "c": "x" } }"#).unwrap();
        assert_eq!(canonical(&v), r#"{"a":{"c":"x","d":[1,2.5]},"b":1}"#);
    }

    #[test]
    fn escapes_follow_json_rules_only() {
        let v: Value = serde_json::from_str(r#"["\u00e9", "é", "a\"b", "\u0001"]"#).unwrap();
        assert_eq!(canonical(&v), "[\"é\",\"é\",\"a\\\"b\",\"\\u0001\"]");
    }

    #[test]
    fn integers_and_floats_differ() {
        assert_ne!(Fingerprint::of(&json!(1)), Fingerprint::of(&json!(1.0)));
        assert_eq!(
            Fingerprint::of(&json!(1.0)),
            Fingerprint::of(&serde_json::from_str::<Value>("1.00").unwrap())
        );
    }

    #[test]
    fn display_is_lowercase_hex() {
        let f = Fingerprint::of(&json!(null));
        let s = f.to_string();
        assert_eq!(s.len(), 64);
        assert!(
            s.chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
    }

    #[test]
    fn idempotency_keys_depend_on_every_part() {
        let doc = json!({"ticket_id": 7});
        let base = IdempotencyKey::new("CloseTicket", 1, None, &doc);
        assert_eq!(
            base,
            IdempotencyKey::new("CloseTicket", 1, None, &json!({"ticket_id": 7}))
        );
        assert_ne!(base, IdempotencyKey::new("CloseTicket", 2, None, &doc));
        assert_ne!(base, IdempotencyKey::new("ReopenTicket", 1, None, &doc));
        assert_ne!(base, IdempotencyKey::new("CloseTicket", 1, Some(""), &doc));
        assert_ne!(
            IdempotencyKey::new("CloseTicket", 1, Some("demo-a"), &doc),
            IdempotencyKey::new("CloseTicket", 1, Some("demo-b"), &doc)
        );
        assert_ne!(
            base,
            IdempotencyKey::new("CloseTicket", 1, None, &json!({"ticket_id": 8}))
        );
    }
}
