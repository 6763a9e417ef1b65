//! `--schema CONTRACT [--provider P [--request]]`: the contract's full JSON
//! Schema, or the schema a provider takes (or, with `--request`, the
//! request fragment that carries it; with `--api` too, in that API's
//! request, as [`Contract::response_format_for`](crate::Contract::response_format_for)
//! gives it), with what the export left to the local checks on stderr.
use std::io::{self, Write};

use crate::schema::{self, Api, Export, Provider};
use serde_json::Value;

use super::args::{BoundArgs, PatchSchemaArgs, SchemaOutput};
use super::bound::Bound;
use super::entry::{Entry, Setup};
use super::failure::{Failure, finish, usage};
use super::patch::PatchSchema;
use super::read::{read_source, read_text};

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
        SchemaOutput::Request(api) => {
            // The contract's type name, as the schema's title says it.
            let name = full
                .get("title")
                .and_then(Value::as_str)
                .unwrap_or(entry.name());
            let fragment = fragment(api, &export, name);
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

/// `--schema CONTRACT [--provider P [--request]] --context JSON [--source
/// FILE]`: as [`run_schema`], bound to the request's context; returns the
/// exit code. The stderr lines add one per member bound.
pub(super) fn run_bound(
    args: &BoundArgs<'_>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let bound = bound(args)?;
    let Some(provider) = args.provider else {
        let full = bound.schema().map_err(usage)?;
        let schema = serde_json::to_string_pretty(&full).map_err(io::Error::other)?;
        writeln!(stdout, "{schema}")?;
        return Ok(0);
    };
    let export = bound.export(provider).map_err(usage)?;
    match args.output {
        SchemaOutput::Schema => write_export(&export, stdout, stderr),
        SchemaOutput::Request(api) => {
            let full = args.contract.schema();
            let name = full
                .get("title")
                .and_then(Value::as_str)
                .unwrap_or(args.contract.name());
            let fragment = fragment(api, &export, name);
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

/// The request fragment that carries `export`: in `api`'s request, or
/// (no `--api`) in the request of the export's provider.
fn fragment(api: Option<Api>, export: &Export, name: &str) -> Value {
    match api {
        Some(api) => api.request_fragment(export, name),
        None => schema::request_fragment(export, name),
    }
}

/// `--grammar CONTRACT [--context JSON] [--source FILE]`: the llguidance
/// grammar of the request on `stdout`; returns the exit code.
pub(super) fn run_grammar(args: &BoundArgs<'_>, stdout: &mut dyn Write) -> Result<i32, Failure> {
    let grammar = bound(args)?.grammar().map_err(usage)?;
    stdout.write_all(grammar.as_bytes())?;
    stdout.flush()?;
    Ok(0)
}

/// Reads `--source` and binds the request's context.
fn bound(args: &BoundArgs<'_>) -> Result<Bound, Failure> {
    let source = read_source(args.source.as_deref())?;
    let setup = Setup {
        context: args.context.clone(),
        source,
        ..Setup::default()
    };
    Ok(args.contract.bound(&setup).map_err(|e| usage(e.0))?)
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
/// lowered into the schema, then one per member bound to the context.
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
    let bound = export.bound.iter().map(|p| {
        format!(
            "bound {p}: the context's values for this request, as an enum (only these members' values leave the process)"
        )
    });
    dropped
        .chain(required)
        .chain(lowered)
        .chain(bound)
        .collect()
}

/// `--schema CONTRACT --edit POLICY --baseline FILE --patch|--merge-patch
/// [--provider P]`: the schema on stdout, what the export leaves to the
/// check on stderr; returns the exit code.
pub(super) fn run_patch_schema(
    args: &PatchSchemaArgs<'_>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let baseline = read_text(
        "--baseline",
        &args.baseline,
        args.contract.limits().max_bytes,
        "the contract's max_bytes",
    )?;
    let setup = Setup {
        baseline: Some(baseline),
        edit: Some(args.edit.clone()),
        patch: args.form,
        ..Setup::default()
    };
    let schema = args
        .contract
        .patch_schema(&setup, args.provider)
        .map_err(|e| usage(e.0))?;
    let (value, notes) = match schema {
        PatchSchema::Full(value) => (value, Vec::new()),
        PatchSchema::Export(export) => {
            let notes = export_notes(&export);
            (export.schema, notes)
        }
    };
    let pretty = serde_json::to_string_pretty(&value).map_err(io::Error::other)?;
    writeln!(stdout, "{pretty}")?;
    stdout.flush()?;
    for line in notes {
        writeln!(stderr, "{line}")?;
    }
    Ok(0)
}
