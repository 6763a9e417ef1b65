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
//! the documents, bytes and iterations.
//! CONTRACT `step` (the union group) takes CASE `tag_first`, `tag_middle`
//! or `tag_last` (`Step`), or `probe_first`, `probe_middle` or `probe_last`
//! (the probe union `Plan`, longer documents), and SIDE `ours` or `a`.
//! Subtract a run with 0 iterations (the setup: loading the documents,
//! building B's validator) before dividing by the documents decoded. Run by
//! `cargo bench` (which passes `--bench`), it decodes everything once and
//! exits, so it costs nothing there.
use std::hint::black_box;

use contract_runtime::Contract;

mod contracts;

use contract_examples::step::Step;
use contracts::step::probe::Plan;
use contracts::{
    Case, CloseTicketCase, DOCUMENTS, File, InvoiceCase, SettingsCase, TicketExtractionCase,
    TriageCase, VacationCase, b_errors, b_valid, step, validator,
};

fn run<C: Case>(file: &File, case: &str, side: &str, iterations: usize, quiet: bool) {
    let docs = &file.contracts[C::KEY];
    let set: Vec<&str> = match case {
        "valid" => docs.valid.iter().map(String::as_str).collect(),
        "one_error" => vec![docs.one_error.as_str()],
        "many_errors" => vec![docs.many_errors.as_str()],
        other => panic!("unknown case `{other}`: valid, one_error or many_errors"),
    };
    let validator = validator::<C::Ours>();
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
                    black_box(b_valid::<C>(&validator, doc).is_some());
                }
                "b" => {
                    black_box(b_errors::<C>(&validator, doc).len());
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
    let (set, probe): (&[&str], bool) = match case {
        "tag_first" => (&step::TAG_FIRST, false),
        "tag_middle" => (&step::TAG_MIDDLE, false),
        "tag_last" => (&step::TAG_LAST, false),
        "probe_first" => (&step::probe::TAG_FIRST, true),
        "probe_middle" => (&step::probe::TAG_MIDDLE, true),
        "probe_last" => (&step::probe::TAG_LAST, true),
        other => panic!(
            "unknown case `{other}` for step: tag_first, tag_middle, tag_last, probe_first, probe_middle or probe_last"
        ),
    };
    for _ in 0..iterations {
        for doc in set {
            let doc = black_box(*doc);
            match (side, probe) {
                ("ours", false) => {
                    black_box(Step::from_json(doc).is_ok());
                }
                ("a", false) => {
                    black_box(serde_json::from_str::<step::serde_a::Step>(doc).is_ok());
                }
                ("ours", true) => {
                    black_box(Plan::from_json(doc).is_ok());
                }
                ("a", true) => {
                    black_box(serde_json::from_str::<step::probe::serde_a::Plan>(doc).is_ok());
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
