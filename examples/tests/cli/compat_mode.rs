//! `--compat`: the changes between two schemas, and its own options.

use super::*;

#[test]
fn compat_lists_the_changes_between_the_shipped_versions() {
    let out = run(&["--compat", &data(V1), &data(V2)]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout,
        "\
breaking    backward  bound_tightened      /properties/clarification_question/maxLength  maxLength 500 → 300
breaking    forward   field_added          /properties/half_day                          `half_day` added
"
    );
    assert_eq!(
        lines(&out.stderr),
        [
            "VacationRequest (unversioned) → VacationRequest v2: 2 changes, 1 breaks backward (a new reader may reject old documents), 1 breaks forward (an old reader may reject new documents)"
        ]
    );
}

#[test]
fn compat_jsonl_is_one_object_per_change() {
    let out = run(&["--compat", &data(V1), &data(V2), "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(0));
    let printed: Vec<Value> = lines(&out.stdout)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let old: Value = serde_json::from_str(&std::fs::read_to_string(data(V1)).unwrap()).unwrap();
    let new: Value = serde_json::from_str(&std::fs::read_to_string(data(V2)).unwrap()).unwrap();
    let changes = compat::diff(&old, &new);
    assert_eq!(printed.len(), changes.len());
    for (line, change) in printed.iter().zip(&changes) {
        let keys: Vec<&str> = line
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "pointer",
                "kind",
                "detail",
                "breaking",
                "breaks_backward",
                "breaks_forward"
            ]
        );
        assert_eq!(line["pointer"], change.pointer.as_str());
        assert_eq!(line["kind"], change.kind.as_str());
        assert_eq!(line["detail"], change.detail.as_str());
        assert_eq!(line["breaking"], change.is_breaking());
        assert_eq!(line["breaks_backward"], change.breaks_backward);
        assert_eq!(line["breaks_forward"], change.breaks_forward);
    }
    assert_eq!(printed[0]["kind"], "bound_tightened");
    assert_eq!(printed[1]["kind"], "field_added");
}

#[test]
fn compat_the_other_way_round_swaps_the_directions() {
    let out = run(&["--compat", &data(V2), &data(V1)]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = lines(&out.stdout);
    assert_eq!(stdout.len(), 2, "{stdout:?}");
    assert!(
        stdout[0].starts_with("breaking    forward   bound_loosened"),
        "{stdout:?}"
    );
    assert!(
        stdout[1].starts_with("breaking    backward  field_removed"),
        "{stdout:?}"
    );
}

#[test]
fn compat_of_a_schema_with_itself_is_empty() {
    let out = run(&["--compat", &data(V2), &data(V2), "--fail-on-breaking"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert_eq!(
        lines(&out.stderr),
        ["VacationRequest v2 → VacationRequest v2: no changes"]
    );
}

#[test]
fn fail_on_breaking_exits_1_and_still_prints_the_changes() {
    let out = run(&["--compat", &data(V1), &data(V2), "--fail-on-breaking"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(lines(&out.stdout).len(), 2);
    assert_eq!(lines(&out.stderr).len(), 1);
}

#[test]
fn compat_table_is_the_default() {
    let default = run(&["--compat", &data(V1), &data(V2)]);
    let table = run(&["--compat", &data(V1), &data(V2), "--format", "table"]);
    assert_eq!(default.stdout, table.stdout);
}

#[test]
fn compat_with_a_missing_file() {
    let e = io_error(&["--compat", "/nonexistent/old.json", &data(V2)]);
    assert!(e.contains("cannot read OLD /nonexistent/old.json"), "{e}");
    let e = io_error(&["--compat", &data(V1), "/nonexistent/new.json"]);
    assert!(e.contains("cannot read NEW /nonexistent/new.json"), "{e}");
}

#[test]
fn compat_with_a_directory() {
    let e = io_error(&["--compat", env!("CARGO_MANIFEST_DIR"), &data(V2)]);
    assert!(e.contains("directory"), "{e}");
}

#[test]
fn compat_with_invalid_json() {
    for (name, contents) in [
        ("truncated", &b"{\"type\": \"object\""[..]),
        ("empty", b""),
        (
            "duplicate-key",
            b"{\"type\": \"object\", \"type\": \"string\"}",
        ),
        ("not-utf8", b"{\"title\": \"\xff\"}"),
        ("trailing", b"{} {}"),
    ] {
        let file = TempFile::new(&format!("invalid-{name}"), contents);
        let e = usage_error(&["--compat", file.path(), &data(V2)]);
        assert!(e.contains("is not valid JSON"), "{name}: {e}");
        assert!(e.contains(file.path()), "{name}: names the file: {e}");
    }
}

#[test]
fn compat_with_json_that_is_not_a_schema_object() {
    for (name, contents) in [
        ("array", &b"[1, 2]"[..]),
        ("bool", b"true"),
        ("string", b"\"x\""),
    ] {
        let file = TempFile::new(&format!("not-object-{name}"), contents);
        let e = usage_error(&["--compat", &data(V1), file.path()]);
        assert!(
            e.contains("NEW") && e.contains("expected an object"),
            "{name}: {e}"
        );
    }
}

#[test]
fn compat_of_a_model_output_file_is_refused() {
    // A JSON Lines file is not one JSON document.
    let e = usage_error(&["--compat", &data("vacation.jsonl"), &data(V2)]);
    assert!(
        e.contains("is not valid JSON") && e.contains("trailing_data"),
        "{e}"
    );
}

/// The limit of a schema file for `--compat`.
const MAX_SCHEMA_BYTES: usize = 16 << 20;

#[test]
fn a_schema_file_is_read_up_to_16_mib() {
    let v1 = std::fs::read_to_string(data(V1)).unwrap();
    let at_limit = TempFile::named("schema-at-limit", "v1.json", &padded(&v1, MAX_SCHEMA_BYTES));
    let out = run(&["--compat", at_limit.path(), &data(V2)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let over = TempFile::named("schema-over", "v1.json", &padded(&v1, MAX_SCHEMA_BYTES + 1));
    let e = usage_error(&["--compat", over.path(), &data(V2)]);
    // Refused for its size before it is parsed.
    assert!(e.contains("OLD") && e.contains("larger than"), "{e}");
    assert!(e.contains(&MAX_SCHEMA_BYTES.to_string()), "{e}");
    let e = usage_error(&["--compat", &data(V1), over.path()]);
    assert!(e.contains("NEW") && e.contains("larger than"), "{e}");
}

#[cfg(unix)]
#[test]
fn an_endless_schema_file_stops_at_16_mib() {
    let e = usage_error(&["--compat", "/dev/zero", &data(V2)]);
    assert!(e.contains("OLD /dev/zero"), "{e}");
    let e = usage_error(&["--compat", &data(V1), "/dev/zero"]);
    assert!(e.contains("NEW /dev/zero"), "{e}");
}

#[test]
fn compat_needs_two_files() {
    let e = usage_error(&["--compat", &data(V1)]);
    assert!(e.contains("--compat needs two files"), "{e}");
    let e = usage_error(&["--compat"]);
    assert!(e.contains("--compat needs a value"), "{e}");
    let e = usage_error(&["--compat", &data(V1), &data(V2), &data(V2)]);
    assert!(e.contains("unexpected argument"), "{e}");
}

#[test]
fn compat_takes_only_its_options() {
    let e = usage_error(&["--compat", &data(V1), &data(V2), "--provider", "openai"]);
    assert!(e.contains("--provider does not apply to --compat"), "{e}");
    let e = usage_error(&["--compat", &data(V1), &data(V2), "--context", "{}"]);
    assert!(e.contains("--context does not apply to --compat"), "{e}");
    let e = usage_error(&["--compat", &data(V1), &data(V2), "--schema", "vacation"]);
    assert!(e.contains("cannot be combined"), "{e}");
    let e = usage_error(&["--compat", &data(V1), &data(V2), "--format", "csv"]);
    assert!(e.contains("unknown --format"), "{e}");
}

#[test]
fn fail_on_breaking_needs_compat() {
    let e = usage_error(&["vacation", &data("vacation.jsonl"), "--fail-on-breaking"]);
    assert!(e.contains("--fail-on-breaking needs --compat"), "{e}");
}

#[test]
fn help_documents_the_exit_codes_and_the_limits() {
    let out = run(&["--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    for exit in ["Exit code: 0", "\n1 ", " 2 bad usage"] {
        assert!(help.contains(exit), "{exit:?} in {help}");
    }
    for limit in ["max_bytes", "4 MiB", "16 MiB", "64 KiB"] {
        assert!(help.contains(limit), "{limit:?} in {help}");
    }
}

#[test]
fn help_mentions_the_new_modes() {
    let out = run(&["--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(
        help.contains("--provider openai|gemini|anthropic"),
        "{help}"
    );
    assert!(help.contains("--compat OLD.json NEW.json"), "{help}");
}
