//! The shipped transcripts of the four APIs (`examples/data/*.sse`) read by
//! `contract_runtime::stream::sse`: the same deltas however the bytes are
//! split, the same reply and the same tool calls whichever API streamed
//! them, and each tool call's arguments decided by its contract.
use contract_examples::triage::TriageTool;
use contract_runtime::cli as runtime_cli;
use contract_runtime::schema::Api;
use contract_runtime::stream::sse::{Decoder, Delta, Output, decode};
use contract_runtime::tools::Tools;
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::examples_data::{data, replay, transcripts};

/// Every shipped transcript: its file name and API.
fn shipped() -> Vec<(String, Api)> {
    let mut files: Vec<(String, Api)> = std::fs::read_dir(data(""))
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter_map(|name| {
            let stem = name.strip_suffix(".sse")?;
            let api = stem.rsplit('.').next()?.parse().unwrap_or_default();
            Some((name, api))
        })
        .collect();
    files.sort();
    files
}

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(data(name)).unwrap()
}

/// The deltas of `body` fed in the pieces `cuts` (sorted offsets) make.
fn split_decode(api: Api, body: &[u8], cuts: &[usize]) -> Vec<Delta> {
    let mut decoder = Decoder::new(api);
    let mut deltas = Vec::new();
    let mut at = 0;
    for &cut in cuts.iter().chain(std::iter::once(&body.len())) {
        let cut = cut.clamp(at, body.len());
        deltas.extend(decoder.feed(&body[at..cut]).unwrap());
        at = cut;
    }
    deltas.extend(decoder.finish().unwrap());
    deltas
}

#[test]
fn every_transcript_gives_the_same_deltas_a_byte_at_a_time() {
    let files = shipped();
    assert!(files.len() >= 15, "{files:?}");
    for (name, api) in files {
        let body = bytes(&name);
        let whole = decode(api, &body).unwrap();
        assert!(!whole.is_empty(), "{name}");
        let cuts: Vec<usize> = (1..body.len()).collect();
        assert_eq!(split_decode(api, &body, &cuts), whole, "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    // Any split of any shipped transcript (offsets inside UTF-8 characters
    // and between a CR and its LF among them) gives the deltas of the whole.
    #[test]
    fn every_transcript_gives_the_same_deltas_at_any_split(
        fractions in prop::collection::vec(0.0f64..1.0, 0..40),
    ) {
        for (name, api) in shipped() {
            let body = bytes(&name);
            let mut cuts: Vec<usize> =
                fractions.iter().map(|f| (f * body.len() as f64) as usize).collect();
            cuts.sort_unstable();
            prop_assert_eq!(split_decode(api, &body, &cuts), decode(api, &body).unwrap(), "{}", name);
        }
    }
}

/// The text of the reply a transcript carries.
fn reply(deltas: &[Delta]) -> String {
    deltas
        .iter()
        .filter(|d| d.output == Output::Text)
        .map(|d| d.text.as_str())
        .collect()
}

#[test]
fn every_api_streams_the_same_reply_and_decides_it_the_same() {
    for case in ["vacation.clarify", "vacation.unknown-key"] {
        let chat = reply(&decode(Api::OpenAiChat, &bytes(&format!("{case}.sse"))).unwrap());
        let (_, chat_replay) = replay(case, "vacation", None);
        let chat_replay: Value = serde_json::from_str(&chat_replay).unwrap();
        for api in ["openai-responses", "anthropic", "gemini"] {
            let stem = format!("{case}.{api}");
            let deltas = decode(api.parse().unwrap(), &bytes(&format!("{stem}.sse"))).unwrap();
            assert_eq!(reply(&deltas), chat, "{stem}");
            let (code, out) = replay(&stem, "vacation", Some(api));
            assert_eq!(code, 0, "{stem}");
            let out: Value = serde_json::from_str(&out).unwrap();
            for key in ["outcome", "errors", "total_bytes"] {
                assert_eq!(out[key], chat_replay[key], "{stem}: {key}");
            }
        }
    }
    assert!(
        transcripts()
            .iter()
            .any(|(_, _, api)| api.as_deref() == Some("gemini"))
    );
}

/// A tool call of a transcript: its index, id, name and argument pieces.
type CallPieces = (usize, Option<String>, Option<String>, Vec<String>);

fn calls(deltas: &[Delta]) -> Vec<CallPieces> {
    let mut calls: Vec<CallPieces> = Vec::new();
    for delta in deltas {
        let Output::Call(call) = &delta.output else {
            continue;
        };
        match calls.iter_mut().find(|c| c.0 == call.index) {
            Some(c) => c.3.push(delta.text.clone()),
            None => calls.push((
                call.index,
                call.id.clone(),
                call.name.clone(),
                vec![delta.text.clone()],
            )),
        }
    }
    calls
}

// A two-tool-call response in each API's format: two calls of `triage`,
// told apart with their ids, with the same arguments in every API; the
// `triage` entry replays each call through `TriageTool::stream_call`
// (`<stem>.expected.jsonl`, compared in `examples_data`: the first call
// accepted, the second stopped at `"Bug"`'s `B`), and `--sse` with a reply's
// contract that checks no tool calls is a usage error saying what the
// transcript holds.
#[test]
fn two_tool_calls_are_told_apart_and_each_decided() {
    let mut arguments: Option<Vec<String>> = None;
    for api in ["", ".openai-responses", ".anthropic", ".gemini"] {
        let stem = format!("triage.two-calls{api}");
        let api_name = api.strip_prefix('.');
        let parsed: Api = api_name.map_or(Ok(Api::OpenAiChat), str::parse).unwrap();
        let deltas = decode(parsed, &bytes(&format!("{stem}.sse"))).unwrap();
        let calls = calls(&deltas);
        assert_eq!(calls.len(), 2, "{stem}");
        let (code, stdout) = replay(&stem, "triage", api_name);
        assert_eq!(code, 0, "{stem}");
        let lines: Vec<Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2, "{stem}: one line per call");
        for ((index, id, name, pieces), line) in calls.iter().zip(&lines) {
            assert_eq!(name.as_deref(), Some("triage"), "{stem}");
            assert_eq!(line["call"], json!(index), "{stem}");
            assert_eq!(line["id"], json!(id), "{stem}");
            let pieces: Vec<&str> = pieces.iter().map(String::as_str).collect();
            let stream = TriageTool::stream_call("triage").unwrap();
            let replayed = runtime_cli::replay(stream, &pieces);
            let decision = runtime_cli::decision_json(0, &replayed.decision);
            assert_eq!(line["outcome"], decision["outcome"], "{stem}");
            assert_eq!(line["errors"], decision["errors"], "{stem}");
            assert_eq!(line["read_bytes"], json!(replayed.read), "{stem}");
        }
        assert_eq!(lines[0]["outcome"], "accept", "{stem}");
        assert_eq!(
            lines[1]["errors"][0]["pointer"], "/arguments/categoria",
            "{stem}"
        );
        let whole: Vec<String> = calls.iter().map(|c| c.3.concat()).collect();
        match &arguments {
            None => arguments = Some(whole),
            Some(first) => assert_eq!(&whole, first, "{stem}: the same arguments in every API"),
        }
        let mut stderr = Vec::new();
        let mut args: Vec<std::ffi::OsString> = vec![
            "vacation".into(),
            "--sse".into(),
            data(&format!("{stem}.sse")).into(),
        ];
        if let Some(api) = api_name {
            args.extend(["--api".into(), api.into()]);
        }
        let code = contract_examples::cli::main_with(args, &mut Vec::new(), &mut stderr);
        let stderr = String::from_utf8(stderr).unwrap();
        assert_eq!(code, runtime_cli::EXIT_USAGE, "{stem}");
        assert!(
            stderr.contains("it holds 2 tool calls (triage, triage)"),
            "{stem}: {stderr}"
        );
        // It names the contract of the program that checks them.
        assert!(
            stderr.trim_end().ends_with(
                "not a reply, and this contract checks no tool calls: replay it with one that does (triage)"
            ),
            "{stem}: {stderr}"
        );
    }
}

// Read as the wrong API, a stream is a usage error that names the right one,
// not a reply of 0 bytes rejected as `unexpected_end`.
#[test]
fn a_transcript_read_as_the_wrong_api_names_the_right_one() {
    let mut stderr = Vec::new();
    let args: Vec<std::ffi::OsString> = vec![
        "vacation".into(),
        "--sse".into(),
        data("vacation.clarify.anthropic.sse").into(),
    ];
    let code = contract_examples::cli::main_with(args, &mut Vec::new(), &mut stderr);
    let stderr = String::from_utf8(stderr).unwrap();
    assert_eq!(code, runtime_cli::EXIT_USAGE, "{stderr}");
    assert!(stderr.contains("give --api anthropic"), "{stderr}");
}

// The async example (`cargo run -p contract-examples --example sse_stream`),
// compiled here as it is shipped.
#[allow(dead_code)]
#[path = "../../../examples/examples/sse_stream.rs"]
mod sse_stream;

// The example reads a body of any chunk size to the same end, and stops
// reading at the first rejection.
#[test]
fn the_async_example_stops_the_body_at_the_first_rejection() {
    let lines = sse_stream::run().unwrap();
    assert_eq!(
        lines[0],
        "vacation.clarify.anthropic.sse: read whole, clarify"
    );
    assert!(
        lines[1].starts_with("vacation.unknown-key.anthropic.sse: stopped at event 14 ("),
        "{}",
        lines[1]
    );
    let body: &'static [u8] =
        Box::leak(bytes("vacation.unknown-key.anthropic.sse").into_boxed_slice());
    for chunk in [1, 7, 64, 1000, body.len()] {
        let ended = sse_stream::block_on(sse_stream::check_body(
            Api::Anthropic,
            sse_stream::recorded(body, chunk),
        ))
        .unwrap();
        let sse_stream::Ended::Rejected {
            event,
            body_read,
            rejection,
        } = ended
        else {
            panic!("chunks of {chunk}: not rejected");
        };
        assert_eq!((event, rejection.errors[0].code), (14, "unknown_key"));
        assert!(
            body_read < body.len() || chunk == body.len(),
            "chunks of {chunk}"
        );
    }
    let body: &'static [u8] = Box::leak(bytes("vacation.clarify.gemini.sse").into_boxed_slice());
    let ended = sse_stream::block_on(sse_stream::check_body(
        Api::Gemini,
        sse_stream::recorded(body, 5),
    ))
    .unwrap();
    assert!(matches!(
        ended,
        sse_stream::Ended::Finished(contract_runtime::OutcomeKind::Clarify)
    ));
}

// `--schema NAME --request --api API` prints what `response_format_for(api)`
// gives: the Responses API's flat `text.format` among them; `--provider`
// still chooses the export (a local server behind the Chat Completions API).
#[test]
fn the_cli_prints_each_apis_request_fragment() {
    use contract_examples::vacation::VacationRequest;
    use contract_runtime::Contract;
    let cli = |args: &[&str]| {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
        let code = contract_examples::cli::main_with(args, &mut out, &mut err);
        (code, out, String::from_utf8(err).unwrap())
    };
    for api in Api::ALL {
        let (code, out, err) = cli(&["--schema", "vacation", "--request", "--api", api.as_str()]);
        assert_eq!(code, runtime_cli::EXIT_OK, "{api}: {err}");
        let printed: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            printed,
            VacationRequest::response_format_for(api).unwrap(),
            "{api}"
        );
    }
    let (_, out, _) = cli(&[
        "--schema",
        "vacation",
        "--request",
        "--api",
        "openai-responses",
    ]);
    let printed: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(printed["name"], "VacationRequest");
    assert_eq!(printed["strict"], true);
    assert!(printed.get("json_schema").is_none());
    let (code, out, err) = cli(&[
        "--schema",
        "vacation",
        "--provider",
        "local",
        "--request",
        "--api",
        "openai-chat",
    ]);
    assert_eq!(code, runtime_cli::EXIT_OK, "{err}");
    let printed: Value = serde_json::from_slice(&out).unwrap();
    let local =
        VacationRequest::json_schema_for(contract_runtime::schema::Provider::Local).unwrap();
    assert_eq!(printed["json_schema"]["schema"], local.schema);
    let (code, _, err) = cli(&["--schema", "vacation", "--api", "openai-responses"]);
    assert_eq!(code, runtime_cli::EXIT_USAGE);
    assert!(err.contains("--api with --schema needs --request"), "{err}");
    let (code, _, err) = cli(&["--schema", "vacation", "--request", "--api", "openai"]);
    assert_eq!(code, runtime_cli::EXIT_USAGE);
    assert!(err.contains("--api: unknown API `openai`"), "{err}");
}
