//! `--schema --provider` and `--request`: exports and what stays checked locally.

use super::*;

#[test]
fn schema_for_a_provider_prints_the_export_and_what_stays_local() {
    let out = run(&["--schema", "vacation", "--provider", "openai"]);
    assert_eq!(out.status.code(), Some(0));
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let full = registry::find("vacation").unwrap().schema();
    let export = export_schema(&full, Provider::OpenAi).unwrap();
    assert_eq!(printed, export.schema);
    assert!(
        printed.get("allOf").is_none(),
        "OpenAI strict takes no allOf"
    );
    assert_eq!(
        lines(&out.stderr),
        [
            "dropped /properties/clarification_question/minLength (minLength): still checked locally by from_json, schema stage: `too_short`",
            "dropped /properties/clarification_question/maxLength (maxLength): still checked locally by from_json, schema stage: `too_long`",
            "dropped /allOf (allOf): still checked locally by from_json, rule stage: the `when` rules (`required` / `forbidden`)",
            "dropped /x-contract-rules (x-contract-rules): still checked locally by from_json, rule stage: `order`",
        ]
    );
}

#[test]
fn schema_for_gemini_says_which_when_rules_are_enforced_during_generation() {
    let out = run(&["--schema", "vacation", "--provider", "gemini"]);
    assert_eq!(out.status.code(), Some(0));
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed["anyOf"].as_array().map(Vec::len), Some(3));
    assert!(lines(&out.stderr).contains(&"lowered /allOf: the `when` rules are enforced during generation (anyOf of one closed object per condition)".to_owned()));
}

#[test]
fn request_prints_the_fragment_each_provider_takes() {
    let full = registry::find("vacation").unwrap().schema();
    for provider in [
        Provider::OpenAi,
        Provider::Gemini,
        Provider::Anthropic,
        Provider::Local,
    ] {
        let out = run(&[
            "--schema",
            "vacation",
            "--provider",
            provider.as_str(),
            "--request",
        ]);
        assert_eq!(out.status.code(), Some(0), "{provider}");
        let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
        let export = export_schema(&full, provider).unwrap();
        let schema = match provider {
            Provider::OpenAi | Provider::Local => {
                assert_eq!(printed["type"], "json_schema");
                assert_eq!(printed["json_schema"]["name"], "VacationRequest");
                assert_eq!(printed["json_schema"]["strict"], true);
                &printed["json_schema"]["schema"]
            }
            Provider::Gemini => {
                assert_eq!(printed["responseMimeType"], "application/json");
                &printed["responseJsonSchema"]
            }
            _ => {
                assert_eq!(printed["type"], "json_schema");
                &printed["schema"]
            }
        };
        assert_eq!(*schema, export.schema, "{provider}");
    }
}

#[test]
fn request_needs_a_provider() {
    assert!(
        usage_error(&["--schema", "vacation", "--request"]).contains("--request needs --provider")
    );
    assert!(usage_error(&["vacation", "--request"]).contains("--request needs --schema"));
}

#[test]
fn a_root_union_for_openai_is_refused_with_what_to_do() {
    let out = run(&["--schema", "step", "--provider", "openai"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(lines(&out.stderr)[0].contains("wrap the union in a struct field"));
}

#[test]
fn schema_for_every_contract_and_provider() {
    for entry in registry::contracts() {
        for provider in Provider::ALL {
            let args = ["--schema", entry.name(), "--provider", provider.as_str()];
            let out = run(&args);
            let export = match export_schema(&entry.schema(), provider) {
                Ok(export) => export,
                Err(error) => {
                    // A schema the provider cannot take (a root union for
                    // OpenAI): a usage error naming what to do instead.
                    assert_eq!(out.status.code(), Some(2), "{args:?}");
                    assert!(out.stdout.is_empty(), "{args:?}");
                    assert_eq!(lines(&out.stderr), [format!("contract-check: {error}")]);
                    continue;
                }
            };
            assert_eq!(out.status.code(), Some(0), "{args:?}");
            let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(printed, export.schema, "{args:?}");
            // Pretty-printed, ending with a newline.
            assert!(out.stdout.ends_with(b"}\n"), "{args:?}");
            let stderr = lines(&out.stderr);
            assert_eq!(
                stderr.len(),
                export.dropped.len() + export.made_required.len() + export.lowered.len(),
                "{args:?}: one line each: {stderr:?}"
            );
            for (line, dropped) in stderr.iter().zip(&export.dropped) {
                assert!(line.starts_with("dropped "), "{line}");
                assert!(line.contains(&dropped.pointer), "{line}");
                assert!(line.contains(&format!("({})", dropped.keyword)), "{line}");
                assert!(line.ends_with(&dropped.enforced_by), "{line}");
            }
        }
    }
}

#[test]
fn an_annotation_beside_a_ref_is_dropped_with_nothing_to_enforce() {
    let out = run(&["--schema", "settings", "--provider", "gemini"]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = lines(&out.stderr);
    assert_eq!(stderr.len(), 1, "{stderr:?}");
    assert!(
        stderr[0].starts_with(
            "dropped /properties/notifications/description (description): nothing to enforce"
        ),
        "{stderr:?}"
    );
}

#[test]
fn provider_names_are_case_insensitive() {
    let out = run(&["--schema", "triage", "--provider", "Anthropic"]);
    assert_eq!(out.status.code(), Some(0));
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(printed["properties"]["confianca"].get("minimum").is_none());
}

#[test]
fn made_required_properties_are_listed() {
    // The v2 vacation contract has an `optional` key; OpenAI strict needs
    // every key present.
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = runtime_cli::schema_for(
        &vacation::v2::VacationRequest::json_schema(),
        Provider::OpenAi,
        &mut stdout,
        &mut stderr,
    );
    assert_eq!(code, 0);
    let printed: Value = serde_json::from_slice(&stdout).unwrap();
    assert!(
        printed["required"]
            .as_array()
            .unwrap()
            .contains(&"half_day".into())
    );
    let stderr = lines(&stderr);
    assert_eq!(
        stderr.last().unwrap(),
        "made required /properties/half_day: the contract lets this key be absent; the provider needs it present"
    );
}

/// A contract with a map: OpenAI strict and Anthropic cannot take it.
#[derive(Contract, Debug)]
struct Labels {
    labels: BTreeMap<String, String>,
}

#[test]
fn an_export_error_is_one_line_and_exit_code_2() {
    for provider in [Provider::OpenAi, Provider::Anthropic] {
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let code =
            runtime_cli::schema_for(&Labels::json_schema(), provider, &mut stdout, &mut stderr);
        assert_eq!(code, 2, "{provider}");
        assert!(stdout.is_empty(), "{provider}: nothing on stdout");
        let stderr = lines(&stderr);
        assert_eq!(stderr.len(), 1, "{provider}: {stderr:?}");
        assert!(
            stderr[0].starts_with(&format!("contract-check: {provider} cannot take")),
            "{stderr:?}"
        );
        assert!(stderr[0].contains("/properties/labels"), "{stderr:?}");
    }
    // Gemini takes a map.
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = runtime_cli::schema_for(
        &Labels::json_schema(),
        Provider::Gemini,
        &mut stdout,
        &mut stderr,
    );
    assert_eq!(code, 0);
}

#[test]
fn unknown_provider() {
    let e = usage_error(&["--schema", "vacation", "--provider", "bard"]);
    assert!(e.contains("unknown provider `bard`"), "{e}");
    assert!(e.contains("openai, gemini, anthropic"), "{e}");
}

#[test]
fn provider_without_schema() {
    let e = usage_error(&["vacation", &data("vacation.jsonl"), "--provider", "openai"]);
    assert!(e.contains("--provider needs --schema"), "{e}");
}

#[test]
fn provider_without_its_value() {
    let e = usage_error(&["--schema", "vacation", "--provider"]);
    assert!(e.contains("--provider needs a value"), "{e}");
}

#[test]
fn provider_given_twice() {
    let e = usage_error(&[
        "--schema",
        "vacation",
        "--provider",
        "openai",
        "--provider",
        "gemini",
    ]);
    assert!(e.contains("--provider given twice"), "{e}");
}

#[test]
fn schema_takes_no_check_options() {
    let e = usage_error(&["--schema", "vacation", "--format", "jsonl"]);
    assert!(e.contains("--format does not apply to --schema"), "{e}");
    let e = usage_error(&["--schema", "vacation", "--fail-on-reject"]);
    assert!(e.contains("--fail-on-reject does not apply"), "{e}");
}

#[test]
fn list_takes_no_other_option() {
    let e = usage_error(&["--list", "--provider", "openai"]);
    assert!(e.contains("--provider does not apply to --list"), "{e}");
    let e = usage_error(&["--list", "--schema", "vacation"]);
    assert!(e.contains("cannot be combined"), "{e}");
}
