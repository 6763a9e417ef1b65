//! A closed stdout ends the run quietly, in every format and mode.

use super::*;

/// 20,000 vacation lines (the shipped 30, repeated) in a temporary file:
/// megabytes of output, far more than a pipe holds.
fn many_lines(test: &str) -> TempFile {
    let shipped = std::fs::read_to_string(data("vacation.jsonl")).unwrap();
    let mut contents = String::new();
    for line in shipped.lines().cycle().take(20_000) {
        contents.push_str(line);
        contents.push('\n');
    }
    TempFile::named(test, "many.jsonl", contents.as_bytes())
}

/// Runs the binary with stdout a pipe, reads one line, closes the pipe,
/// and waits: the reader went away as `| head -1` does.
fn run_and_close_stdout_after_one_line(args: &[&str]) -> (String, Output) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_contract-check"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    stdout.read_line(&mut first).unwrap();
    drop(stdout);
    (first, child.wait_with_output().unwrap())
}

#[test]
fn a_closed_stdout_ends_jsonl_output_quietly_with_exit_0() {
    let input = many_lines("closed-jsonl");
    let (first, out) = run_and_close_stdout_after_one_line(&["vacation", input.path()]);
    let first: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(first["line"], 1);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "", "nothing on stderr");
}

#[test]
fn a_closed_stdout_ends_table_output_quietly_with_exit_0() {
    let input = many_lines("closed-table");
    let (first, out) =
        run_and_close_stdout_after_one_line(&["vacation", input.path(), "--format", "table"]);
    assert!(first.starts_with("LINE"), "{first}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "", "nothing on stderr");
}

/// A writer whose reader has gone away.
struct ClosedPipe;

impl Write for ClosedPipe {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::ErrorKind::BrokenPipe.into())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Err(std::io::ErrorKind::BrokenPipe.into())
    }
}

#[test]
fn a_closed_pipe_keeps_its_error_kind_in_every_format() {
    let checker = registry::find("vacation")
        .unwrap()
        .checker(&runtime_cli::Setup::default())
        .unwrap();
    for format in [
        runtime_cli::OutputFormat::Jsonl,
        runtime_cli::OutputFormat::Table,
    ] {
        let mut input: &[u8] = b"{}\n";
        let mut report = contract_runtime::report::Report::new();
        let e = runtime_cli::run_lines(&checker, &mut input, &mut ClosedPipe, format, &mut report)
            .unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{format:?}");
    }
    let old: Value = serde_json::from_str(&std::fs::read_to_string(data(V1)).unwrap()).unwrap();
    let new: Value = serde_json::from_str(&std::fs::read_to_string(data(V2)).unwrap()).unwrap();
    let changes = compat::diff(&old, &new);
    assert!(!changes.is_empty());
    for format in [
        runtime_cli::OutputFormat::Jsonl,
        runtime_cli::OutputFormat::Table,
    ] {
        let e = runtime_cli::write_changes(&changes, format, &mut ClosedPipe).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{format:?}");
    }
}

#[test]
fn a_closed_stdout_is_exit_0_in_every_mode() {
    let many = many_lines("closed-every-mode");
    let input = many.path();
    let v1 = data(V1);
    let v2 = data(V2);
    let commands: [&[&str]; 8] = [
        &["vacation", input],
        &["vacation", input, "--format", "table"],
        &["--compat", &v1, &v2],
        &["--compat", &v1, &v2, "--format", "jsonl"],
        &["--schema", "vacation"],
        &["--schema", "vacation", "--provider", "openai"],
        &["--list"],
        &["--help"],
    ];
    for args in commands {
        let mut stderr = Vec::new();
        let code = cli::main_with(args.iter().copied(), &mut ClosedPipe, &mut stderr);
        assert_eq!(code, 0, "{args:?}");
        assert!(
            stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&stderr)
        );
    }
}
