//! A tagged union whose variants share their members, read with the tag
//! anywhere: a guess from the first member is often wrong, a second guess
//! from the first key the wrong variant does not declare may be wrong too.
//! Whatever the path, a document gets what the rule says: the first
//! duplicate key (a parse error), else the first tag's error, else exactly
//! the errors of the named variant's members, as a struct holding them
//! would report on the object without its tag.
use contract_runtime::{Contract, Rejection};
use proptest::prelude::*;

/// `x` in every variant, `y` in two, `z` in two.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "kind", rename_all = "snake_case")]
pub enum Shared {
    A {
        #[contract(max = 9)]
        x: u8,
        #[contract(min_len = 1)]
        y: String,
    },
    B {
        x: u8,
        #[contract(max = 9)]
        z: u8,
    },
    C {
        #[contract(min = 1)]
        x: u8,
        y: String,
        z: u8,
    },
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct AMembers {
    #[contract(max = 9)]
    x: u8,
    #[contract(min_len = 1)]
    y: String,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct BMembers {
    x: u8,
    #[contract(max = 9)]
    z: u8,
}

#[derive(Contract, Debug, Clone, PartialEq)]
pub struct CMembers {
    #[contract(min = 1)]
    x: u8,
    y: String,
    z: u8,
}

type Triples = Vec<(String, String, &'static str)>;

fn triples(r: &Rejection) -> Triples {
    r.errors
        .iter()
        .map(|e| (e.stage.as_str().to_owned(), e.pointer.to_string(), e.code))
        .collect()
}

fn errors_of<T: Contract>(raw: &str) -> Triples {
    T::from_json(raw)
        .err()
        .map(|r| triples(&r))
        .unwrap_or_default()
}

fn first_errors_of<T: Contract>(raw: &str, n: usize) -> Triples {
    T::from_json_first(raw, n)
        .err()
        .map(|r| triples(&r))
        .unwrap_or_default()
}

const KEYS: [&str; 5] = ["kind", "x", "y", "z", "w"];

const VALUES: [(&str, Option<&str>); 10] = [
    (r#""a""#, Some("a")),
    (r#""b""#, Some("b")),
    (r#""c""#, Some("c")),
    (r#""\u0063""#, Some("c")),
    (r#""d""#, Some("d")),
    (r#""""#, Some("")),
    ("0", None),
    ("5", None),
    ("20", None),
    ("[1]", None),
];

type Member = (usize, usize);

fn object(members: &[Member]) -> String {
    let inner: Vec<String> = members
        .iter()
        .map(|(k, v)| format!(r#""{}":{}"#, KEYS[*k], VALUES[*v].0))
        .collect();
    format!("{{{}}}", inner.join(","))
}

// The rule, worked out without the union's decoder.
fn expected(members: &[Member]) -> Triples {
    for (j, (key, _)) in members.iter().enumerate() {
        if members[..j].iter().any(|(k, _)| k == key) {
            let pointer = format!("/{}", KEYS[*key]);
            return vec![("parse".to_owned(), pointer, "duplicate_key")];
        }
    }
    let schema = |pointer: &str, code| vec![("schema".to_owned(), pointer.to_owned(), code)];
    let Some((_, value)) = members.iter().find(|(k, _)| *k == 0) else {
        return schema("/kind", "missing_key");
    };
    let rest: Vec<Member> = members.iter().copied().filter(|(k, _)| *k != 0).collect();
    let rest = object(&rest);
    match VALUES[*value].1 {
        Some("a") => errors_of::<AMembers>(&rest),
        Some("b") => errors_of::<BMembers>(&rest),
        Some("c") => errors_of::<CMembers>(&rest),
        Some(_) => schema("/kind", "unknown_variant"),
        None => schema("/kind", "invalid_type"),
    }
}

fn members() -> impl Strategy<Value = Vec<Member>> {
    proptest::collection::vec((0..KEYS.len(), 0..VALUES.len()), 0..6)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn shared_members_in_any_order_get_the_errors_the_rule_says(members in members()) {
        let raw = object(&members);
        let all = errors_of::<Shared>(&raw);
        prop_assert_eq!(&all, &expected(&members), "{}", raw);
        // Reading that stops at the first error: the first of them, or one
        // before the parse error it stopped short of.
        let first = first_errors_of::<Shared>(&raw, 1);
        prop_assert_eq!(first.is_empty(), all.is_empty(), "{}", raw);
        prop_assert!(first.len() <= 1, "{}", raw);
        prop_assert!(all.starts_with(&first) || all[0].0 == "parse", "{}: {:?}", raw, first);
    }
}

#[test]
fn each_guess_path_is_named() {
    for (raw, want) in [
        // The first guess right.
        (r#"{"x":1,"y":"v","kind":"a"}"#, vec![]),
        // Wrong at `z` (not in `a`), then `b` guessed and right.
        (r#"{"x":1,"z":2,"kind":"b"}"#, vec![]),
        // Wrong at `z`, then `b` guessed and wrong at `y`: `c` named.
        (
            r#"{"x":0,"z":2,"y":"","kind":"c"}"#,
            vec![("schema", "/x", "below_minimum")],
        ),
        // Wrong at the tag: its errors taken back.
        (r#"{"x":20,"y":"","kind":"c","z":1}"#, vec![]),
        // A guess, then the tag naming the guessed variant after an
        // unknown key: that key is the named variant's error.
        (
            r#"{"x":1,"w":1,"y":"v","kind":"a"}"#,
            vec![("schema", "/w", "unknown_key")],
        ),
        // A duplicate after a wrong guess, before the tag.
        (
            r#"{"x":1,"z":2,"x":3,"kind":"b"}"#,
            vec![("parse", "/x", "duplicate_key")],
        ),
        // A duplicate tag after a wrong guess.
        (
            r#"{"x":1,"z":2,"kind":"b","kind":"b"}"#,
            vec![("parse", "/kind", "duplicate_key")],
        ),
        // Wrong guesses and no tag.
        (
            r#"{"x":1,"z":2,"y":"v"}"#,
            vec![("schema", "/kind", "missing_key")],
        ),
    ] {
        let want: Triples = want
            .into_iter()
            .map(|(s, p, c)| (s.to_owned(), p.to_owned(), c))
            .collect();
        assert_eq!(errors_of::<Shared>(raw), want, "{raw}");
    }
}

/// Items of a list, each union guessed on its own: a wrong guess in one
/// item leaves the next items' guesses as they would be alone.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Many {
    items: Vec<Shared>,
}

#[test]
fn items_after_a_wrong_guess_are_read_as_alone() {
    let raw = r#"{"items":[
        {"x":1,"z":2,"kind":"b"},
        {"x":20,"y":"","kind":"a"},
        {"x":0,"y":"v","z":1,"kind":"c"},
        {"x":1,"z":20,"kind":"b"}
    ]}"#;
    let want = [
        ("schema", "/items/1/x", "above_maximum"),
        ("schema", "/items/1/y", "too_short"),
        ("schema", "/items/2/x", "below_minimum"),
        ("schema", "/items/3/z", "above_maximum"),
    ];
    let want: Triples = want
        .into_iter()
        .map(|(s, p, c)| (s.to_owned(), p.to_owned(), c))
        .collect();
    assert_eq!(errors_of::<Many>(raw), want);
}
