//! A small driver for profiling one side of the decode benchmark on one
//! contract and case, without criterion around it (for callgrind, which
//! counts instructions repeatably on a noisy machine):
//!
//! ```sh
//! cargo bench -p contract-tests --bench decode_profile --no-run
//! valgrind --tool=callgrind --callgrind-out-file=cg.out \
//!     target/release/deps/decode_profile-HASH invoice valid ours 2000
//! callgrind_annotate --inclusive=yes cg.out | head -60
//! ```
//!
//! Arguments: `CONTRACT CASE SIDE [ITERATIONS]` with CONTRACT a key of
//! `benches/documents.json`, CASE `valid`, `one_error` or `many_errors`,
//! SIDE `ours`, `first` (`from_json_first(doc, 1)`), `a` or `b`; it prints
//! the documents, bytes and iterations. `PROFILE_DOC=I` keeps only the I-th
//! valid document (from 0).
//! CONTRACT `step` (the union group) takes CASE `tag_first`, `tag_middle`
//! or `tag_last` (`Step`), or `probe_first`, `probe_middle` or `probe_last`
//! (the probe union `Plan`, longer documents), or `shared_first` or
//! `shared_last` (`Move`, whose variants share their first member), and
//! SIDE `ours` or `a`.
//! Subtract a run with 0 iterations (the setup: loading the documents,
//! building B's validator for side `b`) before dividing by the documents decoded. Run by
//! `cargo bench` (which passes `--bench`), it decodes everything once and
//! exits, so it costs nothing there.
use std::hint::black_box;

use contract_runtime::Contract;

mod contracts;

use contract_examples::step::Step;
use contracts::step::probe::Plan;
use contracts::step::shared::Move;
use contracts::{
    Case, CloseTicketCase, DOCUMENTS, File, InvoiceCase, SettingsCase, TicketExtractionCase,
    TriageCase, VacationCase, b_errors, b_valid, step, validator,
};

fn run<C: Case>(file: &File, case: &str, side: &str, iterations: usize, quiet: bool) {
    let docs = &file.contracts[C::KEY];
    // `PROFILE_DOC=I` keeps only the I-th valid document (from 0), to see
    // one document's cost.
    let only: Option<usize> = std::env::var("PROFILE_DOC")
        .ok()
        .and_then(|i| i.parse().ok());
    let set: Vec<&str> = match case {
        "valid" => docs
            .valid
            .iter()
            .enumerate()
            .filter(|(i, _)| only.is_none_or(|o| o == *i))
            .map(|(_, d)| d.as_str())
            .collect(),
        "one_error" => vec![docs.one_error.as_str()],
        "many_errors" => vec![docs.many_errors.as_str()],
        other => panic!("unknown case `{other}`: valid, one_error or many_errors"),
    };
    // Only side `b` reads the validator: building it for the others would
    // swamp their profiles (the N = 0 subtraction cancels it, an annotation
    // does not).
    let validator = (side == "b").then(validator::<C::Ours>);
    let valid = case == "valid";
    for _ in 0..iterations {
        for doc in &set {
            let doc = black_box(*doc);
            match side {
                "ours" => {
                    let _ = black_box(C::Ours::from_json(doc).map_err(|r| r.errors.len()));
                }
                "first" => {
                    let _ = black_box(C::Ours::from_json_first(doc, 1).map_err(|r| r.errors.len()));
                }
                "a" => {
                    black_box(serde_json::from_str::<C::A>(doc).is_ok());
                }
                "b" if valid => {
                    black_box(
                        b_valid::<C>(validator.as_ref().expect("built for b"), doc).is_some(),
                    );
                }
                "b" => {
                    black_box(b_errors::<C>(validator.as_ref().expect("built for b"), doc).len());
                }
                other => panic!("unknown side `{other}`: ours, first, a or b"),
            }
        }
    }
    if quiet {
        return;
    }
    let bytes: usize = set.iter().map(|d| d.len()).sum();
    println!(
        "{} {case} {side}: {} documents, {bytes} bytes, {iterations} iterations",
        C::KEY,
        set.len()
    );
}

fn run_union(case: &str, side: &str, iterations: usize, quiet: bool) {
    // Which union: `Step` (0), the probe `Plan` (1), `Move` (2).
    let (set, which): (&[&str], u8) = match case {
        "tag_first" => (&step::TAG_FIRST, 0),
        "tag_middle" => (&step::TAG_MIDDLE, 0),
        "tag_last" => (&step::TAG_LAST, 0),
        "probe_first" => (&step::probe::TAG_FIRST, 1),
        "probe_middle" => (&step::probe::TAG_MIDDLE, 1),
        "probe_last" => (&step::probe::TAG_LAST, 1),
        "shared_first" => (&step::shared::TAG_FIRST, 2),
        "shared_last" => (&step::shared::TAG_LAST, 2),
        other => panic!(
            "unknown case `{other}` for step: tag_first, tag_middle, tag_last, probe_first, probe_middle, probe_last, shared_first or shared_last"
        ),
    };
    for _ in 0..iterations {
        for doc in set {
            let doc = black_box(*doc);
            match (side, which) {
                ("ours", 0) => {
                    black_box(Step::from_json(doc).is_ok());
                }
                ("a", 0) => {
                    black_box(serde_json::from_str::<step::serde_a::Step>(doc).is_ok());
                }
                ("ours", 1) => {
                    black_box(Plan::from_json(doc).is_ok());
                }
                ("a", 1) => {
                    black_box(serde_json::from_str::<step::probe::serde_a::Plan>(doc).is_ok());
                }
                ("ours", _) => {
                    black_box(Move::from_json(doc).is_ok());
                }
                ("a", _) => {
                    black_box(serde_json::from_str::<step::shared::serde_a::Move>(doc).is_ok());
                }
                (other, _) => panic!("unknown side `{other}` for step: ours or a"),
            }
        }
    }
    if !quiet {
        let bytes: usize = set.iter().map(|d| d.len()).sum();
        println!(
            "step {case} {side}: {} documents, {bytes} bytes, {iterations} iterations",
            set.len()
        );
    }
}

fn dispatch(file: &File, contract: &str, case: &str, side: &str, iterations: usize, quiet: bool) {
    match contract {
        "close_ticket" => run::<CloseTicketCase>(file, case, side, iterations, quiet),
        "settings" => run::<SettingsCase>(file, case, side, iterations, quiet),
        "triage" => run::<TriageCase>(file, case, side, iterations, quiet),
        "ticket_extraction" => run::<TicketExtractionCase>(file, case, side, iterations, quiet),
        "vacation" => run::<VacationCase>(file, case, side, iterations, quiet),
        "invoice" => run::<InvoiceCase>(file, case, side, iterations, quiet),
        "step" => run_union(case, side, iterations, quiet),
        other => panic!("unknown contract `{other}`"),
    }
}

fn main() {
    let file: File = serde_json::from_str(DOCUMENTS).expect("benches/documents.json");
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a.starts_with("--")) {
        // `cargo bench` runs every bench target with `--bench`: a smoke run.
        for contract in file.contracts.keys() {
            for case in ["valid", "one_error", "many_errors"] {
                for side in ["ours", "a", "b"] {
                    dispatch(&file, contract, case, side, 1, true);
                }
            }
        }
        for case in [
            "tag_first",
            "tag_middle",
            "tag_last",
            "probe_first",
            "probe_middle",
            "probe_last",
            "shared_first",
            "shared_last",
        ] {
            for side in ["ours", "a"] {
                run_union(case, side, 1, true);
            }
        }
        println!("decode_profile: every contract, case and side ran once (see the file's docs)");
        return;
    }
    let [contract, case, side, rest @ ..] = args.as_slice() else {
        panic!("usage: decode_profile CONTRACT CASE SIDE [ITERATIONS]");
    };
    let iterations = rest
        .first()
        .map_or(1000, |n| n.parse().expect("ITERATIONS is a number"));
    dispatch(&file, contract, case, side, iterations, false);
}
