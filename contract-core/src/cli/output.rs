//! How checking prints: one decision per input line as a JSON object
//! (`jsonl`) or as aligned columns (`table`), and the per-stage summary on
//! stderr at the end.
use std::io::{self, Write};

use serde_json::{Map, Value, json};

use super::args::{OutputFormat, Summary};
use super::checker::Decision;
use crate::OutcomeKind;
use crate::report::Report;

/// One output line for `decision` (see the module docs for the keys).
pub fn decision_json(line: u64, decision: &Decision) -> Value {
    let mut out = Map::new();
    out.insert("line".into(), json!(line));
    out.insert("outcome".into(), json!(decision.outcome.as_str()));
    out.insert(
        "errors".into(),
        serde_json::to_value(&decision.errors).unwrap_or(Value::Null),
    );
    if decision.omitted > 0 {
        out.insert("omitted".into(), json!(decision.omitted));
    }
    if decision.outcome == OutcomeKind::Review {
        let reasons: Vec<Value> = decision
            .reasons
            .iter()
            .map(|r| json!({"pointer": r.pointer, "code": r.code, "message": r.message}))
            .collect();
        out.insert("reasons".into(), Value::Array(reasons));
    }
    if let Some(changed) = &decision.changed {
        out.insert("changed".into(), json!(changed));
    }
    Value::Object(out)
}

/// Writes [`decision_json`]`(line, decision)` as `serde_json` serializes
/// it, byte for byte, without building the `Value`: the keys in the same
/// order, each string escaped by `serde_json` itself (a unit test compares
/// the two on random decisions).
pub(super) fn write_decision_json<W: Write + ?Sized>(
    out: &mut W,
    line: u64,
    decision: &Decision,
) -> io::Result<()> {
    out.write_all(b"{\"line\":")?;
    write_number(out, line)?;
    out.write_all(b",\"outcome\":")?;
    write_str(out, decision.outcome.as_str())?;
    out.write_all(b",\"errors\":[")?;
    for (i, e) in decision.errors.iter().enumerate() {
        out.write_all(if i == 0 {
            b"{\"stage\":"
        } else {
            b",{\"stage\":"
        })?;
        write_str(out, e.stage.as_str())?;
        out.write_all(b",\"pointer\":")?;
        write_str(out, &e.pointer)?;
        out.write_all(b",\"code\":")?;
        write_str(out, e.code)?;
        out.write_all(b",\"message\":")?;
        write_str(out, &e.message)?;
        if let Some(line) = e.line {
            out.write_all(b",\"line\":")?;
            write_number(out, line)?;
        }
        if let Some(column) = e.column {
            out.write_all(b",\"column\":")?;
            write_number(out, column)?;
        }
        out.write_all(b"}")?;
    }
    out.write_all(b"]")?;
    if decision.omitted > 0 {
        out.write_all(b",\"omitted\":")?;
        write_number(out, decision.omitted)?;
    }
    if decision.outcome == OutcomeKind::Review {
        out.write_all(b",\"reasons\":[")?;
        for (i, r) in decision.reasons.iter().enumerate() {
            out.write_all(if i == 0 {
                b"{\"pointer\":"
            } else {
                b",{\"pointer\":"
            })?;
            write_str(out, &r.pointer)?;
            out.write_all(b",\"code\":")?;
            write_str(out, r.code)?;
            out.write_all(b",\"message\":")?;
            write_str(out, &r.message)?;
            out.write_all(b"}")?;
        }
        out.write_all(b"]")?;
    }
    if let Some(changed) = &decision.changed {
        out.write_all(b",\"changed\":[")?;
        for (i, pointer) in changed.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            write_str(out, pointer)?;
        }
        out.write_all(b"]")?;
    }
    out.write_all(b"}")
}

/// A JSON string, quoted and escaped by `serde_json`. `?` converts its
/// error through `From<serde_json::Error> for io::Error`, which hands back
/// the writer's own error: a closed pipe stays `BrokenPipe`.
/// A string that needs no escape (most pointers, codes and messages) is
/// copied between its quotes as it is.
fn write_str<W: Write + ?Sized>(out: &mut W, s: &str) -> io::Result<()> {
    if needs_escape(s.as_bytes()) {
        return Ok(serde_json::to_writer(&mut *out, s)?);
    }
    out.write_all(b"\"")?;
    out.write_all(s.as_bytes())?;
    out.write_all(b"\"")
}

/// Whether `bytes` hold a byte that a JSON string escapes (and
/// `serde_json` does): a control character (below 0x20), `"` or `\`.
/// Eight bytes at a time; a false alarm only costs the slower path.
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // A byte of `x` is zero (or below `n`) where `x - n` borrows while `x`'s
    // top bit is clear: exact for "any byte", as the test below checks.
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_ne_bytes(word);
        let found = below(x, 0x20)
            | below(x ^ (ONES * u64::from(b'"')), 1)
            | below(x ^ (ONES * u64::from(b'\\')), 1);
        if found != 0 {
            return true;
        }
    }
    chunks
        .remainder()
        .iter()
        .any(|&b| b < 0x20 || b == b'"' || b == b'\\')
}

/// An unsigned integer, as `serde_json` writes it.
fn write_number<W: Write + ?Sized, N: serde::Serialize>(out: &mut W, n: N) -> io::Result<()> {
    Ok(serde_json::to_writer(&mut *out, &n)?)
}

const TABLE_HEADER: &str =
    "LINE   OUTCOME  STAGE     POINTER                   CODE                   MESSAGE";

/// What comes before the first decision: the column names of a table.
pub(super) fn write_header<W: Write + ?Sized>(out: &mut W, format: OutputFormat) -> io::Result<()> {
    match format {
        OutputFormat::Jsonl => Ok(()),
        OutputFormat::Table => writeln!(out, "{TABLE_HEADER}"),
    }
}

/// Writes the decision on input line `line` in `format` (generic, so a
/// `--jobs` worker writing into its `Vec` has its writes inlined).
pub(super) fn write_decision<W: Write + ?Sized>(
    out: &mut W,
    format: OutputFormat,
    line: u64,
    decision: &Decision,
) -> io::Result<()> {
    match format {
        OutputFormat::Jsonl => {
            write_decision_json(out, line, decision)?;
            out.write_all(b"\n")
        }
        OutputFormat::Table => table_rows(out, line, decision),
    }
}

fn table_rows<W: Write + ?Sized>(out: &mut W, line: u64, decision: &Decision) -> io::Result<()> {
    let mut rows: Vec<(&str, &str, &str, &str)> = Vec::new();
    for e in &decision.errors {
        rows.push((e.stage.as_str(), &e.pointer, e.code, &e.message));
    }
    for r in &decision.reasons {
        rows.push(("review", &r.pointer, r.code, &r.message));
    }
    for pointer in decision.changed.iter().flatten() {
        rows.push(("changed", pointer, "", ""));
    }
    let outcome = decision.outcome.as_str();
    if rows.is_empty() {
        return writeln!(out, "{line:<6} {outcome}");
    }
    for (i, (stage, pointer, code, message)) in rows.into_iter().enumerate() {
        let pointer = if pointer.is_empty() {
            "(root)"
        } else {
            pointer
        };
        let row = if i == 0 {
            format!("{line:<6} {outcome:<8} {stage:<9} {pointer:<25} {code:<22} {message}")
        } else {
            format!(
                "{:<6} {:<8} {stage:<9} {pointer:<25} {code:<22} {message}",
                "", ""
            )
        };
        writeln!(out, "{}", row.trim_end())?;
    }
    if decision.omitted > 0 {
        let errors = if decision.omitted == 1 {
            "error"
        } else {
            "errors"
        };
        writeln!(out, "{:<16}… and {} more {errors}", "", decision.omitted)?;
    }
    Ok(())
}

/// The summary after the last line: the contract's name and the per-stage
/// counts and rates, as text or as one JSON object ([`summary_json`]).
pub(super) fn write_summary(
    stderr: &mut dyn Write,
    summary: Summary,
    contract: &str,
    report: &Report,
) -> io::Result<()> {
    match summary {
        Summary::Text => writeln!(stderr, "{contract}: {report}"),
        Summary::Json => writeln!(stderr, "{}", summary_json(contract, report)),
    }
}

/// The `--summary json` object: `contract`, then the [`Report`]'s keys
/// (`read`, `parsed`, `schema_valid`, `rule_valid`, `accepted`,
/// `clarified`, `declined`, `reviewed`, `rejected` by stage, `rates`).
pub fn summary_json(contract: &str, report: &Report) -> Value {
    let mut out = Map::new();
    out.insert("contract".into(), json!(contract));
    if let Ok(Value::Object(counts)) = serde_json::to_value(report) {
        out.extend(counts);
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    // A test may unwrap: a panic here is a failure.
    #![allow(clippy::unwrap_used)]
    use std::borrow::Cow;

    use proptest::prelude::*;

    use super::*;
    use crate::{Error, Stage, Violation, ViolationKind};

    /// Text that needs every kind of escape: quotes, backslashes, every
    /// control character, DEL, non-ASCII and astral characters.
    fn text() -> impl Strategy<Value = String> {
        let pieces = prop_oneof![
            Just("\"".to_owned()),
            Just("\\".to_owned()),
            Just("/".to_owned()),
            Just("\u{7f}".to_owned()),
            Just("é".to_owned()),
            Just("\u{2028}".to_owned()),
            Just("😀".to_owned()),
            (0u8..0x20).prop_map(|b| char::from(b).to_string()),
            "[a-z ~/0-9]{0,12}",
            any::<char>().prop_map(String::from),
        ];
        proptest::collection::vec(pieces, 0..12).prop_map(|p| p.concat())
    }

    /// Codes are `&'static str`: drawn from a fixed list with the same
    /// troubles as [`text`].
    fn code() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "too_long",
            "",
            "quote\"d",
            "back\\slash",
            "tab\tnew\nline\u{1}",
            "ünïcode",
            "\u{7f}\u{2029}",
        ])
    }

    fn stage() -> impl Strategy<Value = Stage> {
        prop::sample::select(Stage::ALL.to_vec())
    }

    fn outcome() -> impl Strategy<Value = OutcomeKind> {
        prop::sample::select(vec![
            OutcomeKind::Accept,
            OutcomeKind::Clarify,
            OutcomeKind::Decline,
            OutcomeKind::Review,
            OutcomeKind::Reject,
        ])
    }

    fn error() -> impl Strategy<Value = Error> {
        let position = prop_oneof![Just(None), any::<usize>().prop_map(Some)];
        (
            stage(),
            text(),
            code(),
            (text(), any::<bool>()),
            position.clone(),
            position,
        )
            .prop_map(
                |(stage, pointer, code, (message, borrowed), line, column)| Error {
                    stage,
                    pointer: pointer.into(),
                    code,
                    message: if borrowed {
                        Cow::Borrowed("fixed \"text\"")
                    } else {
                        Cow::Owned(message)
                    },
                    line,
                    column,
                    expected: Cow::Borrowed("not written"),
                },
            )
    }

    fn violation() -> impl Strategy<Value = Violation> {
        (any::<bool>(), text(), code(), text()).prop_map(|(business, pointer, code, message)| {
            Violation {
                kind: if business {
                    ViolationKind::Business
                } else {
                    ViolationKind::Review
                },
                pointer,
                code,
                message,
            }
        })
    }

    /// Any decision, consistent or not: the writer must render whatever
    /// it is given as `decision_json` does.
    fn decision() -> impl Strategy<Value = Decision> {
        (
            outcome(),
            proptest::collection::vec(error(), 0..4),
            prop_oneof![Just(0usize), any::<usize>()],
            proptest::collection::vec(violation(), 0..3),
            proptest::option::of(proptest::collection::vec(text(), 0..4)),
        )
            .prop_map(|(outcome, errors, omitted, reasons, changed)| Decision {
                outcome,
                errors,
                omitted,
                reasons,
                changed,
            })
    }

    fn direct(line: u64, decision: &Decision) -> String {
        let mut out = Vec::new();
        write_decision_json(&mut out, line, decision).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// Every byte, at every place of a word and of the tail, alone
    /// among harmless bytes.
    #[test]
    fn needs_escape_finds_every_escaped_byte_anywhere() {
        for len in 1..=19 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = b;
                    let escaped = b < 0x20 || b == b'"' || b == b'\\';
                    assert_eq!(needs_escape(&bytes), escaped, "{b:#x} at {at} of {len}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn the_direct_writer_writes_what_serde_json_writes(
            line in any::<u64>(),
            decision in decision(),
        ) {
            let reference = serde_json::to_string(&decision_json(line, &decision)).unwrap();
            prop_assert_eq!(direct(line, &decision), reference);
        }
    }

    /// The fixed cases the random ones may miss: every outcome with
    /// nothing in it, and each optional key alone.
    #[test]
    fn every_optional_key_alone() {
        let mut decisions: Vec<Decision> = [
            OutcomeKind::Accept,
            OutcomeKind::Clarify,
            OutcomeKind::Decline,
            OutcomeKind::Review,
            OutcomeKind::Reject,
        ]
        .into_iter()
        .map(Decision::of)
        .collect();
        let mut omitted = Decision::of(OutcomeKind::Reject);
        omitted.omitted = 3;
        let mut changed = Decision::of(OutcomeKind::Accept);
        changed.changed = Some(vec![String::new(), "/a~1b".into()]);
        let mut parse = Decision::of(OutcomeKind::Reject);
        let mut e = Error::new(Stage::Parse, "", "syntax", "bad \u{0} byte");
        e.line = Some(1);
        e.column = Some(7);
        parse.errors = vec![e.clone(), e];
        decisions.extend([omitted, changed, parse]);
        for (i, decision) in decisions.iter().enumerate() {
            let reference = serde_json::to_string(&decision_json(i as u64, decision)).unwrap();
            assert_eq!(direct(i as u64, decision), reference);
        }
        assert_eq!(
            direct(0, &Decision::of(OutcomeKind::Review)),
            r#"{"line":0,"outcome":"review","errors":[],"reasons":[]}"#
        );
    }
}
