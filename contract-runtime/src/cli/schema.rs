//! `--schema CONTRACT [--provider P [--request]]`: the contract's full JSON
//! Schema, or the schema a provider takes (or, with `--request`, the
//! request fragment that carries it), with what the export left to the
//! local checks on stderr.
use std::io::{self, Write};

use crate::schema::{self, Export, Provider};
use serde_json::Value;

use super::args::SchemaOutput;
use super::entry::Entry;
use super::failure::{Failure, finish, usage};

/// `--schema CONTRACT [--provider P [--request]]`; returns the exit code.
pub(super) fn run_schema(
    entry: &Entry,
    provider: Option<Provider>,
    output: SchemaOutput,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let full = entry.schema();
    let Some(provider) = provider else {
        let schema = serde_json::to_string_pretty(&full).map_err(io::Error::other)?;
        writeln!(stdout, "{schema}")?;
        return Ok(0);
    };
    let export = schema::export_schema(&full, provider).map_err(|e| usage(e.to_string()))?;
    match output {
        SchemaOutput::Schema => write_export(&export, stdout, stderr),
        SchemaOutput::Request => {
            // The contract's type name, as the schema's title says it.
            let name = full
                .get("title")
                .and_then(Value::as_str)
                .unwrap_or(entry.name());
            let fragment = schema::request_fragment(&export, name);
            write_export(
                &Export {
                    schema: fragment,
                    ..export
                },
                stdout,
                stderr,
            )
        }
    }
}

/// `--schema CONTRACT --provider P` for any full schema: the export's
/// schema on `stdout`, what it leaves out and makes required on `stderr`
/// (see the module docs); returns the exit code. When the provider cannot
/// take the schema, the reason is one line on `stderr`, nothing goes to
/// `stdout`, and the code is 2.
pub fn schema_for(
    full: &Value,
    provider: Provider,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let result = export(full, provider, stdout, stderr);
    finish(result, "contract-check", stderr)
}

/// Exports `full` for `provider` and writes it; a schema the provider
/// cannot take is a usage error.
fn export(
    full: &Value,
    provider: Provider,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let export = schema::export_schema(full, provider).map_err(|e| usage(e.to_string()))?;
    write_export(&export, stdout, stderr)
}

fn write_export(
    export: &Export,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let pretty = serde_json::to_string_pretty(&export.schema).map_err(io::Error::other)?;
    writeln!(stdout, "{pretty}")?;
    stdout.flush()?;
    for line in export_notes(export) {
        writeln!(stderr, "{line}")?;
    }
    Ok(0)
}

/// The stderr lines of `--schema --provider`: one per dropped keyword, then
/// one per property made required, then one per `allOf` of `when` rules
/// lowered into the schema.
pub fn export_notes(export: &Export) -> Vec<String> {
    let dropped = export.dropped.iter().map(|d| {
        let (pointer, keyword) = (&d.pointer, &d.keyword);
        // An annotation (`description` beside a `$ref`) needs no check.
        if d.enforced_by.starts_with("nothing") {
            format!("dropped {pointer} ({keyword}): {}", d.enforced_by)
        } else {
            format!(
                "dropped {pointer} ({keyword}): still checked locally by {}",
                d.enforced_by
            )
        }
    });
    let required = export.made_required.iter().map(|p| {
        format!(
            "made required {p}: the contract lets this key be absent; the provider needs it present"
        )
    });
    let lowered = export.lowered.iter().map(|p| {
        format!(
            "lowered {p}: the `when` rules are enforced during generation (anyOf of one closed object per condition)"
        )
    });
    dropped.chain(required).chain(lowered).collect()
}
