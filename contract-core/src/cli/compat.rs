//! `--compat OLD.json NEW.json`: reads two versions of a schema and renders
//! every change between them, as a table or as JSON lines, with a one-line
//! summary on stderr.
use std::io::{self, BufWriter, Write};
use std::path::Path;

use crate::compat::{self, Change};
use crate::json::{self, Limits};
use crate::{Rejection, schema};
use serde_json::{Value, json};

use super::args::{CompatArgs, OutputFormat};
use super::failure::{Failure, exit_code, usage};
use super::read::read_capped;

/// `--compat OLD.json NEW.json`: the changes on `stdout`, the summary on
/// `stderr`; returns the exit code.
pub(super) fn run_compat(
    args: &CompatArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let old = read_schema("OLD", &args.old)?;
    let new = read_schema("NEW", &args.new)?;
    let changes = compat::diff(&old, &new);
    let mut out = BufWriter::new(stdout);
    write_changes(&changes, args.format, &mut out)?;
    out.flush()?;
    drop(out);
    writeln!(stderr, "{}", compat_summary(&old, &new, &changes))?;
    let breaking = changes.iter().any(Change::is_breaking);
    Ok(exit_code(args.fail_on_breaking, breaking))
}

/// Limits for reading a schema file: larger and deeper than a model's
/// output may be, still bounded.
const SCHEMA_LIMITS: Limits = Limits {
    max_bytes: 16 << 20,
    max_depth: 256,
};

/// Reads one schema file for `--compat`: strict JSON (no duplicate keys),
/// and an object.
pub(super) fn read_schema(what: &str, path: &Path) -> Result<Value, Failure> {
    let bytes = read_capped(
        what,
        path,
        SCHEMA_LIMITS.max_bytes,
        "the limit for a schema file",
    )?;
    let value = json::parse(&bytes, &SCHEMA_LIMITS).map_err(|r| {
        usage(format!(
            "{what} {} is not valid JSON: {}",
            path.display(),
            first_error(&r)
        ))
    })?;
    if !value.is_object() {
        return Err(usage(format!(
            "{what} {} is not a JSON Schema: expected an object",
            path.display()
        ))
        .into());
    }
    Ok(value)
}

fn first_error(rejection: &Rejection) -> String {
    rejection
        .errors
        .first()
        .map_or_else(|| "rejected".to_owned(), ToString::to_string)
}

/// `backward`, `forward`, `both` or `-`.
pub fn direction(change: &Change) -> &'static str {
    match (change.breaks_backward, change.breaks_forward) {
        (true, true) => "both",
        (true, false) => "backward",
        (false, true) => "forward",
        (false, false) => "-",
    }
}

/// One `--compat --format jsonl` line.
pub fn change_json(change: &Change) -> Value {
    json!({
        "pointer": change.pointer,
        "kind": change.kind.as_str(),
        "detail": change.detail,
        "breaking": change.is_breaking(),
        "breaks_backward": change.breaks_backward,
        "breaks_forward": change.breaks_forward,
    })
}

/// Writes the changes, one per line, in `format`.
pub fn write_changes(
    changes: &[Change],
    format: OutputFormat,
    out: &mut dyn Write,
) -> io::Result<()> {
    let width = changes
        .iter()
        .map(|c| c.pointer.chars().count())
        .max()
        .unwrap_or(0);
    for change in changes {
        match format {
            OutputFormat::Jsonl => {
                serde_json::to_writer(&mut *out, &change_json(change))?;
                out.write_all(b"\n")?;
            }
            OutputFormat::Table => {
                let verdict = if change.is_breaking() {
                    "breaking"
                } else {
                    "compatible"
                };
                let row = format!(
                    "{verdict:<10}  {:<8}  {:<19}  {:<width$}  {}",
                    direction(change),
                    change.kind.as_str(),
                    change.pointer,
                    change.detail,
                );
                writeln!(out, "{}", row.trim_end())?;
            }
        }
    }
    Ok(())
}

/// The stderr summary of `--compat`.
pub fn compat_summary(old: &Value, new: &Value, changes: &[Change]) -> String {
    let name = |schema: &Value, fallback: &str| {
        let title = schema
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or(fallback);
        match schema::version(schema) {
            Some(v) => format!("{title} v{v}"),
            None => format!("{title} (unversioned)"),
        }
    };
    let (old_name, new_name) = (name(old, "OLD"), name(new, "NEW"));
    let header = format!("{old_name} → {new_name}");
    if changes.is_empty() {
        return format!("{header}: no changes");
    }
    let backward = changes.iter().filter(|c| c.breaks_backward).count();
    let forward = changes.iter().filter(|c| c.breaks_forward).count();
    let plural = if changes.len() == 1 { "" } else { "s" };
    format!(
        "{header}: {} change{plural}, {backward} breaks backward (a new reader may reject old documents), {forward} breaks forward (an old reader may reject new documents)",
        changes.len()
    )
}
