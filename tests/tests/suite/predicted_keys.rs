//! A struct's members are read on predicted keys: the next field's key is
//! tried as raw bytes (`"name":` first, `,"name":` right after the value
//! of the field before it), and only a key that is not the
//! predicted one is read and matched. The same document with a space
//! before each `:` never matches a predicted key, so every key of it is
//! read and matched: both must decide alike (values, and the stage,
//! pointer and code of every error, in order), wherever the text leaves
//! declaration order.
use contract_runtime::{Contract, Outcome, Rejection};
use proptest::prelude::*;

#[derive(Contract, Debug, Clone, PartialEq)]
struct Inner {
    a: u8,
    b: Vec<String>,
}

#[derive(Contract, Debug, Clone, PartialEq)]
struct Row {
    #[contract(min_len = 1, max_len = 8)]
    sku: String,
    #[contract(min = 1, max = 100)]
    qty: u32,
    flag: bool,
    #[contract(optional)]
    note: Option<String>,
    ship: Option<u8>,
    inner: Inner,
}

/// A name that needs escaping in JSON is never predicted: its key and the
/// one after it are read.
#[derive(Contract, Debug, Clone, PartialEq)]
struct Quoted {
    a: u8,
    #[contract(rename = "say \"b\"")]
    b: u8,
    c: u8,
}

/// A tagged union: its variants' members are read by the same code, the
/// tag met wherever it is.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Square { side: u8, name: String },
    Line { from: u8, to: u8 },
}

#[derive(Contract, Debug, Clone, PartialEq)]
struct Drawing {
    shape: Shape,
    layer: u8,
}

// The same JSON with a space before and after each `:` and `,` and after
// each `{` and `[` outside strings.
fn spaced(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let (mut in_string, mut escaped) = (false, false);
    for c in compact.chars() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            ':' => out.push_str(" : "),
            ',' => out.push_str(" , "),
            '{' | '[' => {
                out.push(c);
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

fn codes(r: &Rejection) -> Vec<(String, String, String)> {
    r.errors
        .iter()
        .map(|e| {
            (
                format!("{:?}", e.stage),
                e.pointer.as_str().to_owned(),
                e.code.to_owned(),
            )
        })
        .collect()
}

fn decision<T: Contract + std::fmt::Debug>(raw: &str) -> String {
    let first = |n| match T::from_json_first(raw, n) {
        Ok(v) => format!("{v:?}"),
        Err(r) => format!("{:?} {}", codes(&r), r.truncated),
    };
    let whole = match T::from_json(raw) {
        Ok(v) => format!("accept {v:?}"),
        Err(r) => format!("reject {:?} omitted {}", codes(&r), r.omitted),
    };
    let outcome = match T::check(raw) {
        Outcome::Reject(r) => format!("reject {:?}", codes(&r)),
        other => format!("{:?}", other.kind()),
    };
    format!(
        "{whole}\n{outcome}\nfirst 1: {}\nfirst 2: {}",
        first(1),
        first(2)
    )
}

fn alike<T: Contract + std::fmt::Debug>(compact: &str) -> Result<(), TestCaseError> {
    let read = spaced(compact);
    prop_assert_eq!(
        decision::<T>(compact),
        decision::<T>(&read),
        "\n{}\n{}",
        compact,
        read
    );
    Ok(())
}

// Each field's values: valid ones first, then wrong types, bounds broken.
const ROW: [(&str, &[&str]); 6] = [
    ("sku", &[r#""A-1""#, "7", r#""abcdefghij""#, r#""""#]),
    ("qty", &["5", "0", r#""5""#, "1.5", "101"]),
    ("flag", &["true", "1", "null"]),
    ("note", &[r#""n""#, "null", "3"]),
    ("ship", &["3", "null", "300"]),
    (
        "inner",
        &[
            r#"{"a":1,"b":["x"]}"#,
            r#"{"b":[],"a":2}"#,
            r#"{"a":1}"#,
            "[]",
            r#"{"a":1,"b":["x"],"c":0}"#,
            r#"{"a":1,"a":1,"b":[]}"#,
        ],
    ),
];

// Keys that are not a field's: unknown, a field's prefix, longer than one.
const STRANGERS: [&str; 3] = ["zz", "sk", "skus"];

// A member: a field (its index and which of its values) or a stranger.
fn member() -> impl Strategy<Value = (usize, usize)> {
    (0..ROW.len() + STRANGERS.len(), 0..6usize)
}

fn row_text(prefix: usize, choices: &[usize], rest: &[(usize, usize)]) -> String {
    let mut members: Vec<String> = Vec::new();
    for (i, (name, values)) in ROW.iter().enumerate().take(prefix) {
        members.push(format!("\"{name}\":{}", values[choices[i] % values.len()]));
    }
    for &(k, v) in rest {
        members.push(match ROW.get(k) {
            Some((name, values)) => format!("\"{name}\":{}", values[v % values.len()]),
            None => format!("\"{}\":{v}", STRANGERS[k - ROW.len()]),
        });
    }
    format!("{{{}}}", members.join(","))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn predicted_and_read_keys_decide_alike(
        prefix in 0..=ROW.len(),
        // Mostly valid values in the prefix in declaration order.
        choices in proptest::collection::vec(prop_oneof![3 => Just(0usize), 1 => 0..6usize], ROW.len()),
        rest in proptest::collection::vec(member(), 0..4),
    ) {
        alike::<Row>(&row_text(prefix, &choices, &rest))?;
    }

    #[test]
    fn unions_decide_alike_wherever_the_tag_is(
        tag_at in 0..3usize,
        square in any::<bool>(),
        swap in any::<bool>(),
        value in 0..3usize,
        layer_first in any::<bool>(),
    ) {
        let values = ["1", "\"x\"", "300"];
        let mut members: Vec<String> = if square {
            vec![format!("\"side\":{}", values[value]), "\"name\":\"s\"".to_owned()]
        } else {
            vec![format!("\"from\":{}", values[value]), "\"to\":2".to_owned()]
        };
        if swap {
            members.swap(0, 1);
        }
        let kind = if square { "square" } else { "line" };
        members.insert(tag_at.min(members.len()), format!("\"kind\":\"{kind}\""));
        let shape = format!("\"shape\":{{{}}}", members.join(","));
        let doc = if layer_first {
            format!("{{\"layer\":1,{shape}}}")
        } else {
            format!("{{{shape},\"layer\":1}}")
        };
        alike::<Drawing>(&doc)?;
    }
}

#[test]
fn every_place_a_prediction_can_fail_decides_as_read_keys() {
    // Declaration order, then a prediction failed after each member by:
    // the object's end, a stranger, a space after the comma, a field out
    // of order, a duplicate, a wrong type.
    let valid = [0; 6];
    for prefix in 0..=ROW.len() {
        alike::<Row>(&row_text(prefix, &valid, &[])).unwrap();
        alike::<Row>(&row_text(prefix, &valid, &[(ROW.len(), 1)])).unwrap();
        for k in 0..ROW.len() {
            alike::<Row>(&row_text(prefix, &valid, &[(k, 0)])).unwrap();
            alike::<Row>(&row_text(prefix, &valid, &[(k, 1)])).unwrap();
        }
        let text = row_text(ROW.len(), &valid, &[]);
        // A space after the comma that follows the prefix's last member.
        let mut commas = text.match_indices(",\"").map(|(i, _)| i);
        if let Some(at) = commas.nth(prefix) {
            let mut spaced_once = text.clone();
            spaced_once.insert(at + 1, ' ');
            alike::<Row>(&spaced_once).unwrap();
        }
    }
    // The whole row in order, each field's every value.
    for (k, (_, values)) in ROW.iter().enumerate() {
        for v in 0..values.len() {
            let mut choices = [0; 6];
            choices[k] = v;
            alike::<Row>(&row_text(ROW.len(), &choices, &[])).unwrap();
        }
    }
    for doc in [
        r#"{"a":1,"say \"b\"":2,"c":3}"#,
        r#"{"a":1,"c":3,"say \"b\"":2}"#,
        r#"{"a":1,"say \"b\"":2,"c":3,"a":1}"#,
        r#"{"say \"b\"":2,"a":1,"c":3}"#,
    ] {
        alike::<Quoted>(doc).unwrap();
    }
    assert_eq!(
        Quoted::from_json(r#"{"a":1,"say \"b\"":2,"c":3}"#).unwrap(),
        Quoted { a: 1, b: 2, c: 3 }
    );
}

#[test]
fn the_spacing_makes_no_other_change() {
    let compact = r#"{"a":"x,y:{[","b":[1,{"c":"\"}"}]}"#;
    let read = spaced(compact);
    assert_eq!(read, r#"{ "a" : "x,y:{[" , "b" : [ 1 , { "c" : "\"}"}]}"#);
    let parse = |t: &str| serde_json::from_str::<serde_json::Value>(t).unwrap();
    assert_eq!(parse(compact), parse(&read));
}
