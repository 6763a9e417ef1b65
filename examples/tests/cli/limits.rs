//! Size limits of the files read: baselines, sources, contexts.

use super::*;

#[test]
fn a_baseline_is_read_up_to_the_contracts_max_bytes() {
    let max = registry::find("settings").unwrap().limits().max_bytes;
    let baseline = std::fs::read_to_string(data("settings.baseline.json")).unwrap();

    let at_limit = TempFile::named("baseline-at-limit", "b.json", &padded(baseline.trim(), max));
    let out = run(&as_strs(&edit_args(at_limit.path())));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let over = TempFile::named("baseline-over", "b.json", &padded(baseline.trim(), max + 1));
    let e = usage_error(&as_strs(&edit_args(over.path())));
    // Refused for its size before the contract reads it.
    assert!(e.contains("--baseline") && e.contains("larger than"), "{e}");
    assert!(e.contains(&max.to_string()), "{e}");
}

#[cfg(unix)]
#[test]
fn an_endless_baseline_stops_at_the_contracts_max_bytes() {
    let e = usage_error(&as_strs(&edit_args("/dev/zero")));
    assert!(e.contains("--baseline /dev/zero"), "{e}");
}

const CLUSTERS: &str = r#"{"confirmed_clusters":["eu-west-1"]}"#;

#[test]
fn a_source_is_read_up_to_4_mib() {
    assert_eq!(runtime_cli::MAX_SOURCE_BYTES, 4 << 20);
    let source = std::fs::read_to_string(data("ticket-extraction.source.txt")).unwrap();

    let at_limit = TempFile::named(
        "source-at-limit",
        "s.txt",
        &padded(&source, runtime_cli::MAX_SOURCE_BYTES),
    );
    let out = run(&as_strs(&extraction_args(at_limit.path(), CLUSTERS)));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let over = TempFile::named(
        "source-over",
        "s.txt",
        &padded(&source, runtime_cli::MAX_SOURCE_BYTES + 1),
    );
    let e = usage_error(&as_strs(&extraction_args(over.path(), CLUSTERS)));
    assert!(
        e.contains("--source") && e.contains(&runtime_cli::MAX_SOURCE_BYTES.to_string()),
        "{e}"
    );
}

#[cfg(unix)]
#[test]
fn an_endless_source_stops_at_4_mib() {
    let e = usage_error(&as_strs(&extraction_args("/dev/zero", CLUSTERS)));
    assert!(e.contains("--source /dev/zero"), "{e}");
}

#[test]
fn a_context_is_at_most_64_kib() {
    assert_eq!(runtime_cli::MAX_CONTEXT_BYTES, 64 << 10);
    let source = data("ticket-extraction.source.txt");

    let at_limit = String::from_utf8(padded(CLUSTERS, runtime_cli::MAX_CONTEXT_BYTES)).unwrap();
    let out = run(&as_strs(&extraction_args(&source, &at_limit)));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let over = String::from_utf8(padded(CLUSTERS, runtime_cli::MAX_CONTEXT_BYTES + 1)).unwrap();
    let e = usage_error(&as_strs(&extraction_args(&source, &over)));
    assert!(
        e.contains("--context") && e.contains(&runtime_cli::MAX_CONTEXT_BYTES.to_string()),
        "{e}"
    );
}
