//! How checking prints: one decision per input line as a JSON object
//! (`jsonl`) or as aligned columns (`table`), and the per-stage summary on
//! stderr at the end.
use std::io::{self, Write};

use serde_json::{Map, Value, json};

use super::args::{Format, Summary};
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

const TABLE_HEADER: &str =
    "LINE   OUTCOME  STAGE     POINTER                   CODE                   MESSAGE";

/// What comes before the first decision: the column names of a table.
pub(super) fn write_header<W: Write + ?Sized>(out: &mut W, format: Format) -> io::Result<()> {
    match format {
        Format::Jsonl => Ok(()),
        Format::Table => writeln!(out, "{TABLE_HEADER}"),
    }
}

/// Writes the decision on input line `line` in `format` (generic, so a
/// `--jobs` worker writing into its `Vec` has its writes inlined).
pub(super) fn write_decision<W: Write + ?Sized>(
    out: &mut W,
    format: Format,
    line: u64,
    decision: &Decision,
) -> io::Result<()> {
    match format {
        Format::Jsonl => {
            // `?` converts through `From<serde_json::Error> for io::Error`,
            // which hands back the writer's own error: a closed pipe
            // stays `BrokenPipe`.
            serde_json::to_writer(&mut *out, &decision_json(line, decision))?;
            out.write_all(b"\n")
        }
        Format::Table => table_rows(out, line, decision),
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
        writeln!(out, "{:<16}… and {} more errors", "", decision.omitted)?;
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
