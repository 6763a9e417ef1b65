//! The shipped patches of the `settings` seed (`examples/data/settings.patch.jsonl`,
//! `settings.merge-patch.jsonl`), run through the whole `contract-check`
//! command line with `--patch` / `--merge-patch`, give exactly their
//! `.expected.jsonl` (regenerate with `BLESS=1`, then review the diff);
//! each line is named with its outcome and first error, and decided as the
//! full candidate it stands for is.
use std::ffi::OsString;
use std::path::PathBuf;

use contract_examples::cli;
use contract_examples::settings::Settings;
use contract_runtime::{Contract, json};
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/data")
        .join(name)
}

fn run(form: &str) -> String {
    let args: Vec<OsString> = vec![
        "settings".into(),
        data(&format!("settings.{form}.jsonl")).into(),
        "--baseline".into(),
        data("settings.baseline.json").into(),
        "--edit".into(),
        "disable_email".into(),
        format!("--{form}").into(),
    ];
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = cli::main_with(args, &mut stdout, &mut stderr);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&stderr));
    String::from_utf8(stdout).unwrap()
}

fn matches_expected(form: &str) {
    let stdout = run(form);
    let path = data(&format!("settings.{form}.expected.jsonl"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &stdout).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with BLESS=1)", path.display()));
    assert_eq!(stdout, expected);
}

#[test]
fn settings_patches_match_expected_output() {
    matches_expected("patch");
}

#[test]
fn settings_merge_patches_match_expected_output() {
    matches_expected("merge-patch");
}

/// Each line's outcome and first error code, as `examples/data/README.md`
/// describes them.
fn named(form: &str, cases: &[(&str, &str, Option<&str>)]) {
    let out = run(form);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), cases.len(), "{form}");
    for (line, (what, outcome, code)) in lines.iter().zip(cases) {
        assert_eq!(line["outcome"], *outcome, "{form}: {what}");
        assert_eq!(line["errors"][0]["code"].as_str(), *code, "{form}: {what}");
    }
}

#[test]
fn each_shipped_patch_is_decided_as_named() {
    named(
        "patch",
        &[
            ("email off", "accept", None),
            ("email off, {\"patch\": [..]} form", "accept", None),
            ("empty patch", "accept", None),
            ("test guard holds", "accept", None),
            (
                "test guard fails (a stale view)",
                "reject",
                Some("test_failed"),
            ),
            ("overreach", "reject", Some("change_not_allowed")),
            ("email 0", "reject", Some("invalid_type")),
            ("email removed", "reject", Some("missing_key")),
            (
                "a path the document lacks",
                "reject",
                Some("path_not_found"),
            ),
            ("a channel added", "reject", Some("change_not_allowed")),
            ("a move changes both ends", "reject", Some("unknown_key")),
            ("an extra member", "reject", Some("invalid_patch")),
            ("a pointer without /", "reject", Some("invalid_patch")),
            ("an unchanged replace", "accept", None),
            (
                "one operation, not an array",
                "reject",
                Some("invalid_patch"),
            ),
            ("all or nothing", "reject", Some("path_not_found")),
            ("the root replaced, only email different", "accept", None),
            ("a copy adds a key", "reject", Some("unknown_key")),
            ("truncated", "reject", Some("unexpected_end")),
            ("duplicate value", "reject", Some("duplicate_key")),
        ],
    );
    named(
        "merge-patch",
        &[
            ("email off", "accept", None),
            ("empty", "accept", None),
            ("same value", "accept", None),
            ("overreach", "reject", Some("change_not_allowed")),
            ("email 0", "reject", Some("invalid_type")),
            ("null removes email", "reject", Some("missing_key")),
            (
                "an array replaced whole",
                "reject",
                Some("change_not_allowed"),
            ),
            ("an unknown member", "reject", Some("unknown_key")),
            ("null removes the parent", "reject", Some("missing_key")),
            (
                "a JSON Patch as a merge patch replaces the root",
                "reject",
                Some("invalid_type"),
            ),
            ("truncated", "reject", Some("unexpected_end")),
        ],
    );
}

/// Every shipped patch that applies is decided as the full candidate it
/// stands for.
#[test]
fn each_shipped_patch_is_decided_as_its_full_candidate() {
    let text = std::fs::read_to_string(data("settings.baseline.json")).unwrap();
    let baseline = json::parse(text.as_bytes(), &Settings::LIMITS).unwrap();
    let policy = Settings::DISABLE_EMAIL;
    for line in std::fs::read_to_string(data("settings.patch.jsonl"))
        .unwrap()
        .lines()
    {
        if let Ok(full) = policy.apply_patch(&baseline, line) {
            assert_eq!(
                policy.check_patch(&baseline, line),
                policy.check(&baseline, &full),
                "{line}"
            );
        }
    }
    for line in std::fs::read_to_string(data("settings.merge-patch.jsonl"))
        .unwrap()
        .lines()
    {
        if let Ok(full) = policy.apply_merge_patch(&baseline, line) {
            assert_eq!(
                policy.check_merge_patch(&baseline, line),
                policy.check(&baseline, &full),
                "{line}"
            );
        }
    }
}

#[test]
fn the_patch_export_is_printed() {
    let base = |form: &str, provider: Option<&str>| {
        let mut args: Vec<OsString> = vec![
            "--schema".into(),
            "settings".into(),
            "--edit".into(),
            "disable_email".into(),
            "--baseline".into(),
            data("settings.baseline.json").into(),
            format!("--{form}").into(),
        ];
        if let Some(p) = provider {
            args.extend(["--provider".into(), p.into()]);
        }
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let code = cli::main_with(args, &mut stdout, &mut stderr);
        (
            code,
            String::from_utf8(stdout).unwrap(),
            String::from_utf8(stderr).unwrap(),
        )
    };
    let (code, out, _) = base("patch", Some("openai"));
    assert_eq!(code, 0);
    let schema: Value = serde_json::from_str(&out).unwrap();
    let baseline = serde_json::from_str(contract_examples::settings::BASELINE).unwrap();
    let export = Settings::DISABLE_EMAIL
        .patch_schema_for(&baseline, contract_runtime::schema::Provider::OpenAi)
        .unwrap();
    assert_eq!(schema, export.schema);
    let (code, out, err) = base("merge-patch", Some("openai"));
    assert_eq!(code, 0);
    assert!(out.contains("\"notifications\""));
    assert!(err.contains("made required"), "{err}");
    let (code, out, _) = base("patch", None);
    assert_eq!(code, 0);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap(),
        Settings::DISABLE_EMAIL.patch_schema(&baseline)
    );
}

#[test]
fn patch_options_are_checked() {
    let usage = |args: &[&str]| {
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let code = cli::main_with(args.iter().map(OsString::from), &mut stdout, &mut stderr);
        (code, String::from_utf8(stderr).unwrap())
    };
    let (code, err) = usage(&["settings", "--patch"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--patch needs --baseline FILE --edit POLICY"),
        "{err}"
    );
    let (code, err) = usage(&["settings", "--patch", "--merge-patch"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be combined"), "{err}");
    let (code, err) = usage(&["--schema", "settings", "--merge-patch"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs --edit POLICY --baseline FILE"), "{err}");
    let (code, err) = usage(&["--schema", "settings", "--edit", "disable_email"]);
    assert_eq!(code, 2);
    assert!(err.contains("add --patch or --merge-patch"), "{err}");
}
