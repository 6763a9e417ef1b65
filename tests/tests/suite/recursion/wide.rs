//! A recursive contract with many members of mixed types (bounded strings,
//! numbers, `Option`, `Vec`, a nested struct, a tagged union, a date, a
//! pattern and a format) nested to the depth cap: decoded, refused, encoded
//! and dropped on a 2 MiB thread in the profile the tests build in (debug).
use contract_runtime::json::Limits;
use contract_runtime::{Contract, Date, Stage};

use super::{codes, on_2_mib_stack};

/// A nested (non-recursive) struct held by value at every level.
#[derive(Contract, Debug, Clone, PartialEq)]
pub struct Meta {
    /// A bounded score.
    #[contract(min = 0, max = 100)]
    pub score: i32,
    /// Free tags.
    pub tags: Vec<String>,
}

/// A tagged union held by value at every level.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tag = "kind", rename_all = "snake_case")]
pub enum Mark {
    /// No stars.
    Plain {},
    /// A number of stars.
    Scored {
        /// At most five.
        #[contract(max = 5)]
        stars: u8,
    },
}

/// Seventeen members, the last one the next level.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(max_depth = 1024, max_bytes = 2_000_000)]
pub struct Wide {
    /// A short title.
    #[contract(min_len = 1, max_len = 200)]
    pub title: String,
    /// A longer text.
    #[contract(max_len = 2000)]
    pub body: String,
    /// A bounded count.
    #[contract(min = 0, max = 1000)]
    pub count: u32,
    /// A bounded ratio.
    #[contract(min = -1.0, max = 1.0)]
    pub ratio: f64,
    /// A flag.
    pub flag: bool,
    /// An optional note.
    #[contract(max_len = 50)]
    pub note: Option<String>,
    /// An optional rank.
    #[contract(max = 10)]
    pub rank: Option<i64>,
    /// At most four tags.
    #[contract(max_len = 4)]
    pub tags: Vec<String>,
    /// Scores.
    pub scores: Vec<u16>,
    /// A nested struct.
    pub meta: Meta,
    /// A tagged union.
    pub mark: Mark,
    /// A day, or null.
    pub day: Option<Date>,
    /// One of two kinds.
    #[contract(one_of = ["a", "b"])]
    pub kind: String,
    /// An identifier.
    #[contract(format = "uuid")]
    pub id: String,
    /// A code.
    #[contract(pattern = "^[A-Z]{2}-[0-9]{4}$")]
    pub code: String,
    /// A weight.
    pub weight: f32,
    /// The next level, or null at the end.
    pub next: Option<Box<Wide>>,
}

/// The levels of a document nested exactly to the cap.
const CAP_LINKS: usize = Limits::MAX_DEPTH - 2;

const UUID: &str = "123e4567-e89b-12d3-a456-426614174000";

/// One level's members before `next`, with a body of `pad` characters.
fn level(pad: usize) -> String {
    format!(
        r#"{{"title":"t","body":"{}","count":7,"ratio":0.5,"flag":true,"note":null,"rank":3,"tags":["a","b"],"scores":[1,2],"meta":{{"score":50,"tags":["x"]}},"mark":{{"kind":"scored","stars":4}},"day":"2027-06-01","kind":"a","id":"{UUID}","code":"AB-1234","weight":1.5,"next":"#,
        "b".repeat(pad)
    )
}

/// `links` levels: the innermost one's `meta.tags` is two nesting levels
/// deeper than its object, so `links = MAX_DEPTH - 2` is a document nested
/// exactly to the cap.
fn wide_document(links: usize, pad: usize) -> String {
    let one = level(pad);
    let mut raw = String::with_capacity(links * (one.len() + 6));
    for _ in 0..links {
        raw.push_str(&one);
    }
    raw.push_str("null");
    raw.push_str(&"}".repeat(links));
    raw
}

fn wide_value(links: usize) -> Wide {
    let leaf = |next| Wide {
        title: "t".into(),
        body: String::new(),
        count: 1,
        ratio: 0.0,
        flag: false,
        note: Some("n".into()),
        rank: None,
        tags: vec!["a".into()],
        scores: vec![3],
        meta: Meta {
            score: 1,
            tags: Vec::new(),
        },
        mark: Mark::Plain {},
        day: None,
        kind: "b".into(),
        id: UUID.into(),
        code: "XY-0001".into(),
        weight: 0.25,
        next,
    };
    let mut wide = leaf(None);
    for _ in 1..links {
        wide = leaf(Some(Box::new(wide)));
    }
    wide
}

fn wide_depth(wide: &Wide) -> usize {
    let mut depth = 1;
    let mut at = wide;
    while let Some(next) = &at.next {
        depth += 1;
        at = next;
    }
    depth
}

#[test]
fn a_wide_document_nested_to_the_cap_decodes_encodes_and_drops_on_a_2_mib_stack() {
    on_2_mib_stack(|| {
        let raw = wide_document(CAP_LINKS, 740);
        assert!(raw.len() > 1 << 20, "{} bytes", raw.len());
        let wide = Wide::from_json(&raw).unwrap();
        assert_eq!(wide_depth(&wide), CAP_LINKS);
        let json = wide.to_json();
        assert_eq!(json["next"]["next"]["mark"]["stars"], 4);
        drop(json);
        // Streamed piece by piece, the same document is accepted.
        let mut stream = Wide::stream();
        for piece in raw.as_bytes().chunks(4096) {
            let piece = std::str::from_utf8(piece).unwrap();
            stream.push(piece);
        }
        assert_eq!(stream.finish().value(), Some(&wide));
        drop(wide);
    });
}

#[test]
fn a_wide_document_one_level_past_the_cap_is_too_deep_on_a_2_mib_stack() {
    on_2_mib_stack(|| {
        let raw = wide_document(CAP_LINKS + 1, 740);
        let rejection = Wide::from_json(&raw).unwrap_err();
        assert_eq!(codes(&rejection), [(Stage::Parse, "", "too_deep")]);
        let mut stream = Wide::stream();
        for piece in raw.as_bytes().chunks(4096) {
            stream.push(std::str::from_utf8(piece).unwrap());
        }
        let outcome = stream.finish();
        let rejection = outcome.rejection().unwrap();
        assert_eq!(codes(rejection), [(Stage::Parse, "", "too_deep")]);
    });
}

#[test]
fn errors_at_every_level_of_a_wide_document_nested_to_the_cap_are_capped() {
    on_2_mib_stack(|| {
        // Every level: a count above its maximum, a tag too many, a
        // score below its minimum, a star too many, a code off its pattern.
        let raw = wide_document(CAP_LINKS, 740)
            .replace(r#""count":7"#, r#""count":7000"#)
            .replace(r#""tags":["a","b"]"#, r#""tags":["a","b","c","d","e"]"#)
            .replace(r#""score":50"#, r#""score":-1"#)
            .replace(r#""stars":4"#, r#""stars":6"#)
            .replace(r#""code":"AB-1234""#, r#""code":"ab-1234""#);
        let rejection = Wide::from_json(&raw).unwrap_err();
        let codes = codes(&rejection);
        assert_eq!(codes.len(), 64, "{codes:?}");
        assert_eq!(
            codes[..6],
            [
                (Stage::Schema, "/count", "above_maximum"),
                (Stage::Schema, "/tags", "too_long"),
                (Stage::Schema, "/meta/score", "below_minimum"),
                (Stage::Schema, "/mark/stars", "above_maximum"),
                (Stage::Schema, "/code", "pattern_mismatch"),
                (Stage::Schema, "/next/count", "above_maximum"),
            ]
        );
        assert_eq!(rejection.omitted, 5 * CAP_LINKS - 64);
    });
}

#[test]
fn a_wide_value_built_to_the_cap_and_past_it_encodes_and_drops_on_a_2_mib_stack() {
    on_2_mib_stack(|| {
        // What it encodes to is a document nested to the cap, accepted.
        let wide = wide_value(CAP_LINKS);
        let json = wide.to_json();
        assert_eq!(json["next"]["code"], "XY-0001");
        assert_eq!(Wide::from_json(&json.to_string()).unwrap(), wide);
        drop(json);
        drop(wide);
        // A value the decoder would refuse still encodes; its JSON is
        // refused as too deep.
        let wide = wide_value(Limits::MAX_DEPTH);
        assert_eq!(wide_depth(&wide), Limits::MAX_DEPTH);
        let json = wide.to_json();
        let rejection = Wide::from_json(&json.to_string()).unwrap_err();
        assert_eq!(codes(&rejection), [(Stage::Parse, "", "too_deep")]);
        drop(json);
        drop(wide);
    });
}
