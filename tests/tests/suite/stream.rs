//! Streaming: a document pushed in pieces, split anywhere (inside keys,
//! escapes, surrogate pairs, numbers, between the bytes of nothing: pieces
//! are `&str`, so never inside a UTF-8 character), against `T::check` on
//! the whole text.
//!
//! - exactness: `finish` is exactly `T::check`'s outcome on the
//!   concatenation, for every split, rejected early or not (a text cut
//!   short, past `max_bytes`, too deep, with several errors);
//! - no false early reject: a document `T::check` does not reject is never
//!   rejected by a push;
//! - an early rejection's errors are errors of the final rejection (pointer,
//!   code, stage), unless the rest of the text breaks JSON (or, for a rule's
//!   error, the schema);
//! - a generated document with one defect is rejected no later than the end
//!   of the offending value, where the schema tells its code; one that breaks
//!   a `when` or `order` rule, no later than the end of the object holding
//!   the rule's fields.
use crate::schema_support;

use contract_runtime::{OutcomeKind, Rejection, Stage};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use schema_support::documents::generate;
use schema_support::{Case, Streamed, cases};
use serde_json::Value;

fn triples(r: &Rejection) -> Vec<(Stage, String, &'static str)> {
    r.errors
        .iter()
        .map(|e| (e.stage, e.pointer.to_string(), e.code))
        .collect()
}

/// The char boundaries of `text` cut at `cuts` (sorted, deduplicated).
fn pieces<'t>(text: &'t str, cuts: &[usize]) -> Vec<&'t str> {
    let mut out = Vec::new();
    let mut at = 0;
    for &cut in cuts {
        if cut > at && cut < text.len() && text.is_char_boundary(cut) {
            out.push(&text[at..cut]);
            at = cut;
        }
    }
    out.push(&text[at..]);
    out
}

/// Where each piece starts.
fn starts(pieces: &[&str]) -> Vec<usize> {
    let mut at = 0;
    pieces
        .iter()
        .map(|p| {
            let start = at;
            at += p.len();
            start
        })
        .collect()
}

/// The properties every split must have; `Err` says which failed.
fn holds(streamed: &Streamed, pieces: &[&str]) -> Result<(), String> {
    let text = pieces.concat();
    let Streamed {
        rejected,
        finish,
        check,
        partial,
    } = streamed;
    if finish != check {
        return Err(format!("finish {finish:?} != check {check:?}"));
    }
    match rejected {
        None => {
            if check.kind != OutcomeKind::Reject
                && let Some(last) = partial
            {
                let whole: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
                if *last != whole {
                    return Err(format!("partial {last} != the document {whole}"));
                }
            }
        }
        Some((index, early)) => {
            let Some(whole) = &check.rejection else {
                return Err(format!(
                    "false early reject at piece {index}: {early:?}; check: {:?}",
                    check.kind
                ));
            };
            let early_t = triples(early);
            let whole_t = triples(whole);
            // A parse error replaces every schema error; a schema error
            // after a rule's fields replaces the rule's error (the rule
            // stage runs on a document with no schema error).
            let replaced = (whole.stage() == Some(Stage::Parse)
                && early.stage() != Some(Stage::Parse))
                || (whole.stage() == Some(Stage::Schema) && early.stage() == Some(Stage::Rule));
            if !replaced && !early_t.iter().all(|t| whole_t.contains(t)) {
                return Err(format!("early {early_t:?} not among {whole_t:?}"));
            }
        }
    }
    Ok(())
}

fn check_splits(case: &Case, text: &str, cuts: &[Vec<usize>]) -> Result<(), String> {
    for cut in cuts {
        let pieces = pieces(text, cut);
        let streamed = (case.stream)(&pieces);
        holds(&streamed, &pieces)
            .map_err(|e| format!("{}: {text:?} split {pieces:?}: {e}", case.name))?;
    }
    Ok(())
}

/// Every split in two, and every piece size from 1 to 8.
fn every_split(text: &str) -> Vec<Vec<usize>> {
    let mut cuts: Vec<Vec<usize>> = (0..=text.len()).map(|i| vec![i]).collect();
    for size in 1..=8 {
        cuts.push((size..text.len()).step_by(size).collect());
    }
    cuts
}

fn shipped(name: &str) -> Vec<String> {
    let path = format!(
        "{}/../examples/data/{name}.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

// Non-ASCII characters written as `\u` escapes (astral ones as surrogate
// pairs): the same document, with escapes to split.
fn escaped(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

#[test]
fn shipped_documents_stream_exactly_at_every_split() {
    // The contracts with a shipped JSONL file: the seeds and the union.
    for case in cases().iter().filter(|c| c.seed || c.name == "step") {
        for line in shipped(case.name) {
            check_splits(case, &line, &every_split(&line)).unwrap();
            let line = escaped(&line);
            check_splits(case, &line, &every_split(&line)).unwrap();
        }
    }
}

#[test]
fn escapes_surrogate_pairs_and_multibyte_characters_split_anywhere() {
    let case = cases().into_iter().find(|c| c.name == "vacation").unwrap();
    for question in [
        r#"caf\u00e9 \ud83d\ude00 \"quoted\" \\ \/ \n\t"#,
        "café 😀 – ok?",
        r#"\ud83d\ude00\ud83d\ude00"#,
        r#"lone \ud83d here"#,
        r#"bad \x escape"#,
        r#"low first \ude00"#,
    ] {
        let doc = format!(
            r#"{{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":"{question}"}}"#
        );
        check_splits(&case, &doc, &every_split(&doc)).unwrap();
    }
}

// A member written before the tag of the examples' union is judged once
// the tag names the variant: at the tag's closing quote, not at `finish`.
#[test]
fn a_member_before_the_tag_is_rejected_at_the_tags_closing_quote() {
    let case = cases().into_iter().find(|c| c.name == "step").unwrap();
    let text = r#"{"ticket_id":"7","action":"close_ticket","reason":"r"}"#;
    let bytes: Vec<usize> = (1..text.len()).collect();
    let pieces = pieces(text, &bytes);
    let streamed = (case.stream)(&pieces);
    let (index, early) = streamed.rejected.clone().expect("rejected by a push");
    assert_eq!(starts(&pieces)[index], text.find(r#"","reason""#).unwrap());
    assert_eq!(
        (early.errors[0].pointer.as_str(), early.errors[0].code),
        ("/ticket_id", "invalid_type")
    );
    holds(&streamed, &pieces).unwrap();
}

// Member values for a rejected document: good ones and bad ones (a wrong
// enum value, type, date or length, nesting past `max_depth`), so that a
// document holds several errors, the first decided early.
const VACATION_VALUES: [(&str, &[&str]); 4] = [
    (
        "status",
        &[
            r#""complete""#,
            r#""bogus""#,
            "7",
            r#""needs_clarification""#,
        ],
    ),
    (
        "start_date",
        &["null", r#""2027-06-12""#, "7", r#""2027-13-01""#],
    ),
    (
        "end_date",
        &["null", r#""2027-06-01""#, "[1]", r#""2027-02-30""#],
    ),
    (
        "clarification_question",
        &["null", r#""ok?""#, r#""""#, "{}"],
    ),
];
const TRIAGE_VALUES: [(&str, &[&str]); 4] = [
    ("categoria", &[r#""bug""#, r#""x""#, "null", "DEEP"]),
    (
        "prioridade",
        &[r#""alta""#, r#""Alta""#, "{}", r#""critica""#],
    ),
    ("confianca", &["0.5", "2", r#""0.5""#, "-1e3"]),
    ("motivo", &[r#""ok""#, "7", "LONG", "true"]),
];

/// A document of `values` from `tape`: a value per member (some members
/// left out, an unknown one added), nesting past `max_depth` and strings
/// past `max_len` where a value says so, then perhaps cut short or padded
/// past `max_bytes`.
fn rejected_document(values: &[(&str, &[&str])], tape: &[usize]) -> String {
    let pick = |i: usize| tape.get(i).copied().unwrap_or(0);
    let mut members = Vec::new();
    for (i, (key, options)) in values.iter().enumerate() {
        let choice = pick(i) % (options.len() + 1);
        let Some(value) = options.get(choice) else {
            continue; // the member left out
        };
        let value = match *value {
            "DEEP" => format!("{}{}", "[".repeat(70), "]".repeat(70)),
            "LONG" => format!("\"{}\"", "é".repeat(501)),
            other => other.to_owned(),
        };
        members.push(format!("\"{key}\":{value}"));
    }
    if pick(4) % 3 == 0 {
        members.insert(pick(5) % (members.len() + 1), r#""extra":1"#.to_owned());
    }
    // Members in a shuffled order.
    let shift = pick(6) % members.len().max(1);
    members.rotate_left(shift);
    let mut text = format!("{{{}}}", members.join(","));
    match pick(7) % 4 {
        // Cut short, as where the caller stopped the model.
        0 => {
            let mut cut = 1 + pick(8) % text.len();
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
        }
        // Past `max_bytes` (the vacation's 4096): whitespace after it, or
        // inside a string cut short.
        1 => text.push_str(&" ".repeat(4097)),
        2 if pick(9) % 2 == 0 => {
            text.truncate(text.len() - 1);
            text.push_str(&format!(
                r#","clarification_question":"{}"#,
                "a".repeat(4097)
            ));
        }
        _ => {}
    }
    text
}

/// Every split in two (every 61st for a text past 4 KiB, and those around
/// the limit), and pieces of 1, 2, 5 and 16 bytes.
fn splits_of(text: &str) -> Vec<Vec<usize>> {
    let stride = if text.len() > 4096 { 61 } else { 1 };
    let mut cuts: Vec<Vec<usize>> = (0..=text.len())
        .step_by(stride)
        .chain(4090..4100)
        .map(|i| vec![i])
        .collect();
    for size in [1, 2, 5, 16] {
        cuts.push((size..text.len()).step_by(size).collect());
    }
    cuts
}

// Once a push rejects, the pieces after it are kept (not read), so that
// `finish` is `check` on everything pushed: the same outcome and errors,
// in the same order, at every split of documents with several errors,
// cut short, past `max_bytes` or too deep.
#[test]
fn a_rejected_document_finishes_as_check_at_every_split() {
    let found = |name: &str| cases().into_iter().find(|c| c.name == name).unwrap();
    let contracts = [
        (found("vacation"), &VACATION_VALUES),
        (found("triage"), &TRIAGE_VALUES),
    ];
    let config = Config {
        cases: 48,
        rng_seed: RngSeed::Fixed(0x57ea_5e75),
        failure_persistence: None,
        ..Config::default()
    };
    for (case, values) in &contracts {
        let codes = std::cell::RefCell::new(std::collections::BTreeSet::new());
        let several = std::cell::Cell::new(0);
        let mut runner = TestRunner::new(config.clone());
        let result = runner.run(&proptest::collection::vec(any::<usize>(), 10), |tape| {
            let text = rejected_document(values.as_slice(), &tape);
            let whole = (case.stream)(&[&text]).check;
            let Some(rejection) = &whole.rejection else {
                return Ok(());
            };
            several.set(several.get() + usize::from(rejection.errors.len() > 1));
            codes
                .borrow_mut()
                .extend(rejection.errors.iter().map(|e| e.code));
            check_splits(case, &text, &splits_of(&text)).map_err(TestCaseError::fail)
        });
        if let Err(e) = result {
            panic!("{e}");
        }
        // The documents reach what the test is about (only the vacation
        // has a `max_bytes` below 1 MiB, only the triage nests).
        let (several, codes) = (several.get(), codes.into_inner());
        assert!(
            several >= 10,
            "{}: {several} with several errors",
            case.name
        );
        let mut expected = vec!["unexpected_end", "not_one_of", "invalid_type"];
        expected.push(if case.name == "vacation" {
            "too_large"
        } else {
            "too_deep"
        });
        for code in expected {
            assert!(
                codes.contains(code),
                "{}: no {code} in {codes:?}",
                case.name
            );
        }
    }
}

// The codes the schema tells: a single-defect document with one of these
// is rejected no later than the end of the offending value.
fn decided_early(code: &str) -> bool {
    matches!(
        code,
        "unknown_key"
            | "invalid_type"
            | "unknown_variant"
            | "missing_key"
            | "too_short"
            | "too_long"
            | "invalid_date"
            | "invalid_date_time"
            | "invalid_email"
            | "invalid_uuid"
            | "pattern_mismatch"
    )
}

/// The end offset of the value at `pointer` in valid JSON `text`.
fn end_of(text: &str, pointer: &str) -> Option<usize> {
    let value: Value = serde_json::from_str(text).ok()?;
    value.pointer(pointer)?;
    let mut spans = Vec::new();
    span(text.as_bytes(), &mut 0, String::new(), &mut spans)?;
    spans
        .into_iter()
        .find(|(p, _)| p == pointer)
        .map(|(_, end)| end)
}

// Records (pointer, end) of every value from `*at`.
fn span(b: &[u8], at: &mut usize, here: String, out: &mut Vec<(String, usize)>) -> Option<()> {
    let ws = |at: &mut usize| {
        while b.get(*at).is_some_and(|c| c.is_ascii_whitespace()) {
            *at += 1;
        }
    };
    ws(at);
    match b.get(*at)? {
        b'{' | b'[' => {
            let object = b[*at] == b'{';
            *at += 1;
            let mut index = 0;
            loop {
                ws(at);
                if matches!(b.get(*at)?, b'}' | b']') {
                    *at += 1;
                    break;
                }
                let child = if object {
                    let start = *at;
                    skip_string(b, at)?;
                    let key: String = serde_json::from_slice(&b[start..*at]).ok()?;
                    ws(at);
                    *at += 1; // ':'
                    format!("{here}/{}", key.replace('~', "~0").replace('/', "~1"))
                } else {
                    format!("{here}/{index}")
                };
                span(b, at, child, out)?;
                index += 1;
                ws(at);
                if b.get(*at)? == &b',' {
                    *at += 1;
                }
            }
        }
        b'"' => skip_string(b, at)?,
        _ => {
            while b
                .get(*at)
                .is_some_and(|c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace())
            {
                *at += 1;
            }
        }
    }
    out.push((here, *at));
    Some(())
}

fn skip_string(b: &[u8], at: &mut usize) -> Option<()> {
    *at += 1;
    loop {
        match b.get(*at)? {
            b'\\' => *at += 2,
            b'"' => {
                *at += 1;
                return Some(());
            }
            _ => *at += 1,
        }
    }
}

// The offset by which a stream must have rejected `text`, if its defect is
// one the schema decides early.
fn deadline(text: &str, whole: &Rejection) -> Option<usize> {
    whole
        .errors
        .iter()
        .filter(|e| e.stage == Stage::Schema && decided_early(e.code))
        .filter_map(|e| {
            let pointer = if e.code == "missing_key" {
                e.pointer.rsplit_once('/').map_or("", |(parent, _)| parent)
            } else {
                e.pointer.as_str()
            };
            end_of(text, pointer)
        })
        .min()
}

/// Generated documents: how many were rejected, and how many of those a
/// stream rejected before their last byte.
#[derive(Debug, Default)]
struct Tally {
    rejected: usize,
    early: usize,
    deadlines: usize,
    /// Valid generations that break a rule.
    rules: usize,
}

fn generated(case: &Case, tape: &[u32], tally: &mut Tally) -> Result<(), TestCaseError> {
    let (doc, mutation) = generate(&case.schema, tape, case.decide);
    if doc.has_duplicate_key() {
        return Ok(());
    }
    let text = doc.text();
    let head = tape.first().copied().unwrap_or(0) as usize;
    // Two random multi-splits and every split in two.
    let mut cuts: Vec<Vec<usize>> = (0..2)
        .map(|k| {
            let step = 1 + (head >> (4 * k)) % 7;
            (1..text.len())
                .filter(|i| (i * 31 + head).is_multiple_of(step + 1))
                .collect()
        })
        .collect();
    // Every split in two of a short document, 64 of a long one.
    let step = (text.len() / 64).max(1);
    cuts.extend((0..=text.len()).step_by(step).map(|i| vec![i]));
    check_splits(case, &text, &cuts).map_err(TestCaseError::fail)?;
    let escaped = escaped(&text);
    check_splits(case, &escaped, &[(1..escaped.len()).collect()]).map_err(TestCaseError::fail)?;
    // One byte at a time: the rejection comes by the end of the offending
    // value (a rule's: the end of the object holding its fields).
    let bytes: Vec<usize> = (1..text.len()).collect();
    let pieces = pieces(&text, &bytes);
    let streamed = (case.stream)(&pieces);
    let Some(whole) = &streamed.check.rejection else {
        return Ok(());
    };
    let at = streamed
        .rejected
        .as_ref()
        .map(|(i, _)| starts(&pieces)[*i])
        .unwrap_or(usize::MAX);
    if mutation.is_none() {
        // A valid generation: only its rules can fail.
        if whole.stage() != Some(Stage::Rule) {
            return Ok(());
        }
        let deadline = whole
            .errors
            .iter()
            .filter_map(|e| {
                let parent = e.pointer.rsplit_once('/').map_or("", |(parent, _)| parent);
                end_of(&text, parent)
            })
            .min();
        if let Some(deadline) = deadline {
            tally.rules += 1;
            prop_assert!(
                at <= deadline,
                "{}: {text}: rejected at {at}, the object holding the rule ends at {deadline}: {:?}",
                case.name,
                triples(whole)
            );
        }
        return Ok(());
    }
    tally.rejected += 1;
    tally.early += usize::from(
        streamed
            .rejected
            .as_ref()
            .is_some_and(|(i, _)| i + 1 < pieces.len()),
    );
    if whole.stage() != Some(Stage::Schema) {
        return Ok(());
    }
    if let Some(deadline) = deadline(&text, whole) {
        tally.deadlines += 1;
        prop_assert!(
            at <= deadline,
            "{}: {text}: rejected at {at}, the defect ends at {deadline}: {mutation:?} {:?}",
            case.name,
            triples(whole)
        );
    }
    Ok(())
}

#[test]
fn generated_documents_stream_exactly_and_reject_by_the_end_of_the_defect() {
    for (i, case) in cases().iter().enumerate() {
        // Each document is streamed at some hundred splits: 50 per contract
        // (100 for the one with every field type) keep this under a minute
        // of a debug build, and still stop most defects early.
        let n = if case.name == "everything" { 100 } else { 50 };
        let config = Config {
            cases: n,
            rng_seed: RngSeed::Fixed(0x57ea_0000 + i as u64),
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        let tally = std::cell::RefCell::new(Tally::default());
        let result = runner.run(&proptest::collection::vec(any::<u32>(), 300), |tape| {
            generated(case, &tape, &mut tally.borrow_mut())
        });
        if let Err(e) = result {
            panic!("{e}");
        }
        let tally = tally.into_inner();
        eprintln!("{:<18} {tally:?}", case.name);
        // Most single-defect documents are stopped before their end.
        assert!(tally.early * 2 > tally.rejected, "{}: {tally:?}", case.name);
    }
}

// `stream_with(&ctx)` is `check_with` at finish: the business stage runs
// there, on every shipped line, however the line is split.
#[test]
fn stream_with_runs_the_business_stage_at_finish() {
    use contract_examples::close_ticket::{CloseTicket, TicketContext};
    use contract_runtime::Contract;
    let ctx = TicketContext::demo("demo-a");
    for line in shipped("close-ticket") {
        let whole = CloseTicket::check_with(&line, &ctx);
        for size in [1, 3, 7] {
            let cuts: Vec<usize> = (size..line.len()).step_by(size).collect();
            let mut stream = CloseTicket::stream_with(&ctx);
            let mut rejected = false;
            for piece in pieces(&line, &cuts) {
                rejected |= matches!(
                    stream.push(piece),
                    contract_runtime::stream::Progress::Rejected(_)
                );
            }
            let finish = stream.finish();
            assert!(!rejected || whole.is_reject(), "{line}");
            assert_eq!(finish.kind(), whole.kind(), "{line}");
            assert_eq!(finish.rejection(), whole.rejection(), "{line}");
        }
    }
    // Ticket 8 belongs to another tenant: only the business stage says so.
    let line = &shipped("close-ticket")[1];
    let mut stream = CloseTicket::stream_with(&ctx);
    assert_eq!(
        stream.push(line),
        contract_runtime::stream::Progress::Pending
    );
    let outcome = stream.finish();
    assert_eq!(
        outcome.rejection().unwrap().errors[0].stage,
        Stage::Business
    );
}
