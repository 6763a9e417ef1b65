//! Canonical fingerprints of JSON values: what binds an approval to the
//! document it approved, and an action to its idempotency key.
//!
//! The canonical form is RFC 8785, the JSON Canonicalization Scheme (JCS),
//! so another language's JCS library produces the same bytes
//! ([`canonical`]):
//!
//! - no whitespace; object members sorted by their keys' UTF-16 code units
//!   (not their UTF-8 bytes: `"\u{FB33}"` sorts after `"\u{1F600}"`);
//! - strings as ECMAScript's `JSON.stringify` writes them: `"` and `\`
//!   escaped, `\b` `\t` `\n` `\f` `\r` for those controls, `\u00xx`
//!   (lower-case hex) for the other controls below U+0020, everything else
//!   as-is (so `"é"` and `"\u00e9"` in the input are one string);
//! - numbers as IEEE 754 doubles printed by ECMAScript's
//!   `Number.prototype.toString`: the shortest digits that read back to the
//!   same double, plain notation from 10^-6 up to below 10^21, exponent
//!   notation (`1e+21`, `1e-7`) outside; `-0` is `0`. So `1`, `1.0` and
//!   `1.00` are one number.
//!
//! Integers are numbers like any other: one beyond ±2^53 is written as the
//! double nearest to it, as JCS requires (`9007199254740993` is written
//! `9007199254740992`, `u64::MAX` `18446744073709552000`). Two documents
//! that differ only in such an integer have one canonical form, one
//! [`Fingerprint`] and one [`IdempotencyKey`]: a contract whose identifiers
//! can exceed 2^53 should carry them as strings.
//!
//! [`Fingerprint::of`] is the SHA-256 of the canonical form's UTF-8 bytes;
//! [`IdempotencyKey::new`] documents its own formula, with a worked example.
//!
//! A fingerprint is of a [`Value`], so it is only as exact as the reading of
//! the text: read documents with [`json::parse`](crate::json::parse), which
//! reads every float as the correctly rounded double (as other languages'
//! JCS libraries read them). `serde_json::from_str` without serde_json's
//! `float_roundtrip` feature reads about 30 % of 17-digit floats one ulp
//! off (`0.029489407448267446` as `0.02948940744826745`), and the key of
//! such a value differs from another language's.
use std::fmt;
use std::fmt::Write as _;

use hmac_sha256::Hash;
use serde_json::{Number, Value};

use crate::json::lexical::next_stop;

/// A SHA-256 digest of a canonical JSON form.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint([u8; 32]);

impl Fingerprint {
    /// The SHA-256 of `value`'s RFC 8785 canonical form ([`canonical`]).
    ///
    /// ```
    /// use contract_runtime::fingerprint::Fingerprint;
    /// use serde_json::json;
    ///
    /// let a = Fingerprint::of(&json!({"a": 1, "b": [true, null]}));
    /// let b = Fingerprint::of(&json!({"b": [true, null], "a": 1.0}));
    /// assert_eq!(a, b); // key order and `1` vs `1.0` never matter
    /// // sha256(b'{"a":1,"b":[true,null]}') in any language:
    /// assert_eq!(a.to_string(), "1cc69c7fa23616ca2ec3ee70d24390a6225c8832db8a4c814c7e0e7f942f8668");
    /// ```
    pub fn of(value: &Value) -> Self {
        Fingerprint(Hash::hash(canonical(value).as_bytes()))
    }

    /// A digest of several labelled parts: SHA-256 over, for each part in
    /// order, its length as 8 little-endian bytes, then its bytes (so parts
    /// cannot run into each other).
    pub fn of_parts(parts: &[&[u8]]) -> Self {
        let mut hasher = Hash::new();
        for part in parts {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        Fingerprint(hasher.finalize())
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

/// `value` in the RFC 8785 (JCS) canonical form (see the module docs).
///
/// ```
/// use contract_runtime::fingerprint::canonical;
/// use serde_json::json;
///
/// let value = json!({"b": [1.50, 1e21, 0.000001, 1e-7], "a": "é\n", "\u{20ac}": null});
/// assert_eq!(canonical(&value), r#"{"a":"é\n","b":[1.5,1e+21,0.000001,1e-7],"€":null}"#);
/// ```
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

/// Appends the canonical form of `value` to `out` ([`canonical`] without
/// the allocation).
pub fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => write_string(s, out),
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
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            // UTF-8 bytes sort as code points, and code points sort as
            // UTF-16 code units but for U+E000..U+FFFF against the
            // characters past U+FFFF (lead bytes 0xEE.. in UTF-8): keys
            // without such a byte are sorted by their bytes.
            if map.keys().all(|k| k.bytes().all(|b| b < 0xEE)) {
                entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            } else {
                entries.sort_unstable_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            }
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
    }
}

// JSON.stringify's escaping: the two-character escapes it has, `\u00xx`
// (lower-case) for the other controls, every other character as-is. The
// bytes it escapes are the JSON reader's string stops (`"`, `\`, controls),
// so the runs between them are found as the reader finds them.
fn write_string(s: &str, out: &mut String) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut run = 0;
    loop {
        let i = next_stop(bytes, run);
        out.push_str(s.get(run..i).unwrap_or_default());
        let Some(&b) = bytes.get(i) else {
            break;
        };
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x08 => out.push_str("\\b"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            0x0C => out.push_str("\\f"),
            b'\r' => out.push_str("\\r"),
            _ => {
                let _ = write!(out, "\\u{b:04x}");
            }
        }
        run = i + 1;
    }
    out.push('"');
}

// Every number is a double (`as_f64` rounds an integer beyond 2^53 to the
// nearest one). A `Value` never holds NaN or an infinity.
fn write_number(n: &Number, out: &mut String) {
    // An integer within ±2^53 is its own double, and ECMA-262 writes it
    // in plain digits.
    const EXACT: u64 = 1 << 53;
    if let Some(u) = n.as_u64().filter(|u| *u <= EXACT) {
        let _ = write!(out, "{u}");
        return;
    }
    if let Some(i) = n.as_i64().filter(|i| i.unsigned_abs() <= EXACT) {
        let _ = write!(out, "{i}");
        return;
    }
    match n.as_f64() {
        Some(x) => write_double(x, out),
        None => out.push_str(&n.to_string()),
    }
}

// ECMA-262 Number::toString(10) of a finite, non-zero double: the spec's
// shortest digits `s` (`k` of them) and exponent `n` choose the notation.
fn write_double(x: f64, out: &mut String) {
    if x == 0.0 || !x.is_finite() {
        // -0 is "0"; a non-finite double cannot come from a `Value`.
        out.push('0');
        return;
    }
    // An integral double below 2^53 is written in plain digits, exactly.
    if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
        let _ = write!(out, "{}", x as i64);
        return;
    }
    if x < 0.0 {
        out.push('-');
    }
    let (digits, exponent) = shortest_digits(x.abs());
    let k = digits.len() as i32;
    let n = exponent + 1;
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(n as usize);
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(&digits);
    } else {
        let (first, rest) = digits.split_at(1);
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        out.push('e');
        out.push(if n - 1 < 0 { '-' } else { '+' });
        let _ = write!(out, "{}", (n - 1).abs());
    }
}

// The shortest digits that read back to `x` (positive, finite) and the
// decimal exponent of the first one. Rust's `{:e}` gives them, except that
// of two equally close candidates it takes the upper one where ECMA-262
// takes the even one: a tie needs 16 digits or more (with fewer, the
// neighbours are more than half a unit in the last place away) and an
// exact value ending in that digit position with a 5.
fn shortest_digits(x: f64) -> (String, i32) {
    let sci = format!("{x:e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let exponent = exponent.parse::<i32>().unwrap_or(0);
    let odd = digits
        .bytes()
        .last()
        .is_some_and(|d| !(d - b'0').is_multiple_of(2));
    if digits.len() >= 16
        && odd
        && let Some(even) = even_of_tie(x, &digits, exponent)
    {
        return (even, exponent);
    }
    (digits, exponent)
}

// The even neighbour of `digits` when `x` lies exactly halfway between the
// two and it reads back to `x`.
fn even_of_tie(x: f64, digits: &str, exponent: i32) -> Option<String> {
    let k = digits.len();
    // A double's exact decimal expansion has at most 767 significant digits.
    let exact = format!("{x:.800e}");
    let (mantissa, exact_exponent) = exact.split_once('e')?;
    if exact_exponent.parse::<i32>().ok()? != exponent {
        return None;
    }
    let exact_digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let (low, tail) = (exact_digits.get(..k)?, exact_digits.get(k..)?);
    if !(tail.starts_with('5') && tail[1..].bytes().all(|d| d == b'0')) {
        return None;
    }
    let other = if low == digits {
        let up = low.parse::<u64>().ok()?.checked_add(1)?.to_string();
        (up.len() == k).then_some(up)?
    } else {
        low.to_owned()
    };
    let even = other
        .bytes()
        .last()
        .is_some_and(|d| (d - b'0').is_multiple_of(2));
    let reads_back = format!("{other}e{}", exponent - (k as i32 - 1)).parse::<f64>() == Ok(x);
    (even && reads_back).then_some(other)
}

/// A key that names one action: the contract, its version, an optional
/// scope (a user, a tenant) and the canonical accepted document. Record it
/// before acting and refuse a second action with the same key.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct IdempotencyKey(pub Fingerprint);

impl fmt::Display for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl IdempotencyKey {
    /// The key of `document` accepted under contract `name` version
    /// `version`, within `scope`.
    ///
    /// The formula, to recompute the key elsewhere: SHA-256 over five
    /// parts, each written as its length in bytes (8 bytes, little-endian)
    /// followed by the part ([`Fingerprint::of_parts`]):
    ///
    /// 1. the contract name (`Contract::NAME`), UTF-8;
    /// 2. the version, 4 bytes little-endian;
    /// 3. `1` if there is a scope, else `0` (one ASCII byte);
    /// 4. the scope, UTF-8 (empty when there is none);
    /// 5. the document's RFC 8785 canonical form ([`canonical`]), UTF-8.
    ///
    /// The hex digest is [`Display`](fmt::Display). In Python:
    ///
    /// ```text
    /// import hashlib, struct
    /// def idempotency_key(name, version, scope, canonical_document):
    ///     parts = [name.encode(), struct.pack("<I", version),
    ///              b"0" if scope is None else b"1", (scope or "").encode(),
    ///              canonical_document.encode()]
    ///     h = hashlib.sha256()
    ///     for p in parts:
    ///         h.update(struct.pack("<Q", len(p)) + p)
    ///     return h.hexdigest()
    /// ```
    ///
    /// ```
    /// use contract_runtime::IdempotencyKey;
    /// use serde_json::json;
    ///
    /// let key = IdempotencyKey::new("Refund", 1, Some("tenant-a"), &json!({"order": 7, "cents": 500}));
    /// // idempotency_key("Refund", 1, "tenant-a", '{"cents":500,"order":7}')
    /// assert_eq!(key.to_string(), "c86b8fda4bb8b6c60ed1026af8b1aac474c9d73f78a3a2a57070beeefa786778");
    /// ```
    pub fn new(name: &str, version: u32, scope: Option<&str>, document: &Value) -> Self {
        let canonical = canonical(document);
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

impl serde::Serialize for IdempotencyKey {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct("IdempotencyKey", &self.0)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn number(bits: u64) -> String {
        canonical(&json!(f64::from_bits(bits)))
    }

    #[test]
    fn keys_are_sorted_and_whitespace_dropped() {
        let v: Value =
            serde_json::from_str(r#"{ "b": 1, "a": { "d": [1, 2.5], "c": "x" } }"#).unwrap();
        assert_eq!(canonical(&v), r#"{"a":{"c":"x","d":[1,2.5]},"b":1}"#);
    }

    // RFC 8785, section 3.2.3: sorted by UTF-16 code units, so the emoji
    // (a surrogate pair, 0xD83D…) comes before U+FB33.
    #[test]
    fn keys_sort_by_utf16_code_units_as_in_rfc_8785() {
        let v: Value = serde_json::from_str(
            r#"{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}"#,
        )
        .unwrap();
        // Read off the text: a `Value` would sort its keys again, or keep
        // them in order only with serde_json's `preserve_order`.
        let text = canonical(&v);
        let mut keys: Vec<(usize, String)> = Vec::new();
        if let Value::Object(map) = &v {
            for key in map.keys() {
                let written = format!("{}:", serde_json::to_string(key).unwrap());
                keys.push((text.find(&written).unwrap(), key.clone()));
            }
        }
        keys.sort();
        let keys: Vec<&str> = keys.iter().map(|(_, k)| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "\r",
                "1",
                "\u{80}",
                "\u{f6}",
                "\u{20ac}",
                "\u{1f600}",
                "\u{fb33}"
            ]
        );
    }

    // RFC 8785, section 3.2.2: the sample object. Read with `json::parse`,
    // whose numbers are correctly rounded (serde_json's default float
    // parsing reads 333333333.33333329 one unit in the last place off).
    #[test]
    fn the_rfc_8785_sample_object_is_canonicalized_as_published() {
        let input = r#"{
          "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
          "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
          "literals": [null, true, false]
        }"#;
        let v = crate::json::parse(input.as_bytes(), &crate::json::Limits::DEFAULT).unwrap();
        assert_eq!(
            canonical(&v),
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
    }

    // RFC 8785, appendix B: IEEE 754 bit patterns and their serialization.
    #[test]
    fn numbers_follow_the_rfc_8785_appendix_b_table() {
        let table: [(u64, &str); 24] = [
            (0x0000000000000000, "0"),
            (0x8000000000000000, "0"),
            (0x0000000000000001, "5e-324"),
            (0x8000000000000001, "-5e-324"),
            (0x7fefffffffffffff, "1.7976931348623157e+308"),
            (0xffefffffffffffff, "-1.7976931348623157e+308"),
            (0x4340000000000000, "9007199254740992"),
            (0xc340000000000000, "-9007199254740992"),
            (0x4430000000000000, "295147905179352830000"),
            (0x44b52d02c7e14af5, "9.999999999999997e+22"),
            (0x44b52d02c7e14af6, "1e+23"),
            (0x44b52d02c7e14af7, "1.0000000000000001e+23"),
            (0x444b1ae4d6e2ef4e, "999999999999999700000"),
            (0x444b1ae4d6e2ef4f, "999999999999999900000"),
            (0x444b1ae4d6e2ef50, "1e+21"),
            (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
            (0x3eb0c6f7a0b5ed8d, "0.000001"),
            (0x41b3de4355555553, "333333333.3333332"),
            (0x41b3de4355555554, "333333333.33333325"),
            (0x41b3de4355555555, "333333333.3333333"),
            (0x41b3de4355555556, "333333333.3333334"),
            (0x41b3de4355555557, "333333333.33333343"),
            (0xbecbf647612f3696, "-0.0000033333333333333333"),
            (0x43143ff3c1cb0959, "1424953923781206.2"),
        ];
        for (bits, expected) in table {
            assert_eq!(number(bits), expected, "bits {bits:016x}");
        }
    }

    #[test]
    fn integers_beyond_2_pow_53_are_written_as_their_nearest_double() {
        assert_eq!(
            canonical(&json!(9_007_199_254_740_993_u64)),
            "9007199254740992"
        );
        assert_eq!(canonical(&json!(u64::MAX)), "18446744073709552000");
        assert_eq!(canonical(&json!(i64::MIN)), "-9223372036854776000");
        assert_eq!(
            Fingerprint::of(&json!({"id": 9_007_199_254_740_993_u64})),
            Fingerprint::of(&json!({"id": 9_007_199_254_740_992_u64}))
        );
    }

    #[test]
    fn escapes_follow_json_stringify() {
        let v: Value = serde_json::from_str(
            r#"["\u00e9", "é", "a\"b", "\u0001", "\b\f\n\r\t", "\u007f\u2028/"]"#,
        )
        .unwrap();
        assert_eq!(
            canonical(&v),
            "[\"é\",\"é\",\"a\\\"b\",\"\\u0001\",\"\\b\\f\\n\\r\\t\",\"\u{7f}\u{2028}/\"]"
        );
    }

    #[test]
    fn integers_and_equal_floats_are_one_number() {
        assert_eq!(Fingerprint::of(&json!(1)), Fingerprint::of(&json!(1.0)));
        assert_eq!(
            Fingerprint::of(&json!(1.0)),
            Fingerprint::of(&serde_json::from_str::<Value>("1.00").unwrap())
        );
        assert_ne!(Fingerprint::of(&json!(1)), Fingerprint::of(&json!(1.5)));
        assert_eq!(canonical(&json!(-0.0)), "0");
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
