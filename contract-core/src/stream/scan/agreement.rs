//! The scanner and the pull reader agree on every string and number token:
//! the same tokens accepted, the same value decoded, whatever the pieces
//! the scanner gets them in (cut at every byte, or one byte at a time).
use proptest::prelude::*;

use super::{Scanner, State};
use crate::json::{Number, Reader, lexical};
use crate::stream::plan::Plan;

fn plan() -> &'static Plan {
    static PLAN: std::sync::OnceLock<Plan> = std::sync::OnceLock::new();
    PLAN.get_or_init(Plan::any)
}

// The ways to cut `text` into pieces: at every char boundary into two, and
// into single characters.
fn cuts(text: &str) -> Vec<Vec<usize>> {
    let mut all: Vec<Vec<usize>> = (1..text.len())
        .filter(|&k| text.is_char_boundary(k))
        .map(|k| vec![k, text.len()])
        .collect();
    all.push(vec![text.len()]);
    all.push(
        text.char_indices()
            .map(|(at, c)| at + c.len_utf8())
            .collect(),
    );
    all
}

// A fresh scanner fed `text` in pieces ending at `ends`: the scanner, and
// whether it read the whole document.
fn scan(text: &str, ends: &[usize]) -> (Scanner, bool) {
    let mut scanner = Scanner::new(plan(), 8);
    let mut from = 0;
    for &end in ends {
        if scanner.feed(&text[..end], from).is_err() {
            return (scanner, false);
        }
        from = end;
    }
    let done = scanner.state == State::Done;
    (scanner, done)
}

// The reader on `{"<content>":0}`: the decoded key, if the document is
// accepted.
fn reader_key(text: &str) -> Option<String> {
    let mut r = Reader::new(text, 8);
    if !r.begin_object().ok()? {
        return None;
    }
    let key = r.read_key().ok()?.to_owned();
    r.read_number().ok()?;
    (!r.object_more().ok()?).then_some(())?;
    r.finish().ok()?;
    Some(key)
}

// The reader on `[<token>]`: the number, if the document is accepted.
fn reader_number(text: &str) -> Option<Number> {
    let mut r = Reader::new(text, 8);
    if !r.begin_array().ok()? {
        return None;
    }
    let number = r.read_number().ok()?;
    (!r.array_more().ok()?).then_some(())?;
    r.finish().ok()?;
    Some(number)
}

fn string_content() -> impl Strategy<Value = String> {
    let fragments = vec![
        "a",
        "xyz",
        "\u{e9}",
        "\u{1f600}",
        " ",
        "\\n",
        "\\\"",
        "\\\\",
        "\\/",
        "\\b",
        "\\f",
        "\\r",
        "\\t",
        "\\u00e9",
        "\\u00E9",
        "\\u0000",
        "\\ud83d\\ude00",
        "\\uD800\\uDC00",
        "\\uDBFF\\uDFFF",
        "\\ud83d",
        "\\ude00",
        "\\ud83dx",
        "\\ud83d\\n",
        "\\ud83d\\u0041",
        "\\ud83d\\ud83d",
        "\\u12g4",
        "\\u",
        "\\x",
        "\\U0041",
        "\\",
        "\t",
        "\u{1}",
        "\u{1f}",
        "\u{7f}",
        "\"",
    ];
    prop::collection::vec(prop::sample::select(fragments), 0..6).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn the_scanner_and_the_reader_agree_on_every_string(content in string_content()) {
        let text = format!("{{\"{content}\":0}}");
        let want = reader_key(&text);
        for ends in cuts(&text) {
            let (scanner, accepted) = scan(&text, &ends);
            prop_assert_eq!(accepted, want.is_some(), "{:?} in pieces ending at {:?}", text, ends);
            if let Some(key) = &want {
                let decoded = scanner.frames.first().map(|f| f.key(&text));
                prop_assert_eq!(decoded, Some(key.as_str()), "{:?}", text);
            }
        }
        // As a value, the same verdict.
        let value = format!("[\"{content}\"]");
        let want_value = crate::json::parse_str(&value, 8).is_ok();
        for ends in cuts(&value) {
            prop_assert_eq!(scan(&value, &ends).1, want_value, "{:?} in pieces ending at {:?}", value, ends);
        }
    }

    #[test]
    fn the_scanner_and_the_reader_agree_on_every_number(
        token in prop_oneof![
            "-?[0-9]{0,22}([.][0-9]{0,3})?([eE][-+]?[0-9]{0,4})?[-+.eE0-9x]{0,2}",
            "-?[0-9]{1,3}[eE][-+]?[0-9]{3}",
            "[-+.eE0-9]{0,6}",
        ],
    ) {
        // `[]` is an empty array, no number.
        prop_assume!(!token.is_empty());
        let text = format!("[{token}]");
        let want = reader_number(&text);
        for ends in cuts(&text) {
            let (scanner, accepted) = scan(&text, &ends);
            prop_assert_eq!(accepted, want.is_some(), "{:?} in pieces ending at {:?}", text, ends);
            if let Some(number) = &want {
                // The scanner's value: its number, from where it began to
                // where it ended (before the `]`).
                prop_assert_eq!(scanner.number_start, 1);
                let decoded = lexical::read_number(&text[1..text.len() - 1], 0).map(|(n, _)| n);
                prop_assert_eq!(format!("{decoded:?}"), format!("{:?}", Ok::<_, ()>(*number)));
            }
        }
    }
}
