//! Streaming: a random document pushed into `T::stream()` in random
//! pieces, for each fuzzed contract. `finish()` equals `T::check` on the
//! whole text, exactly (outcome, errors and their order), whether or not a
//! push rejected it; a document `T::check` does not reject is never
//! rejected by a push; an early rejection's errors are among the final ones
//! (unless the rest of the text breaks JSON or `max_bytes`, or, for a
//! rule's error, the schema); nothing panics.
//!
//! Input: byte 0 picks the contract, bytes 1–2 seed the cuts, the rest is
//! the document (invalid UTF-8 is replaced: pieces are `&str`).
#![no_main]
use contract_fuzz::{CloseTicket, Settings, Triage, VacationRequest};
use contract_runtime::stream::Progress;
use contract_runtime::{Contract, Outcome, Rejection, Stage};
use libfuzzer_sys::fuzz_target;

/// A tagged union, so that tags and variants are fuzzed too.
#[derive(Contract, Debug, PartialEq)]
#[contract(tag = "action", rename_all = "snake_case", max_bytes = 4096)]
enum Step {
    CloseTicket {
        #[contract(min = 1)]
        ticket_id: u64,
        #[contract(min_len = 1, max_len = 20)]
        reason: String,
    },
    Refund(Refund),
    #[contract(decline)]
    NoAction,
}

#[derive(Contract, Debug, PartialEq)]
#[contract(order(refund_cents <= order_total_cents))]
struct Refund {
    refund_cents: u32,
    order_total_cents: u32,
}

fn triples(r: &Rejection) -> Vec<(Stage, String, &'static str)> {
    r.errors.iter().map(|e| (e.stage, e.pointer.clone().into(), e.code)).collect()
}

fn same<T: Contract>(a: &Outcome<T>, b: &Outcome<T>) -> bool {
    a.kind() == b.kind()
        && a.rejection() == b.rejection()
        && a.reasons() == b.reasons()
        && a.value().map(Contract::to_json) == b.value().map(Contract::to_json)
}

fn run<T: Contract>(text: &str, mut seed: u32) {
    // Cuts at char boundaries, from a small linear congruential sequence:
    // pieces of 1 to 16 bytes, or the whole text in one.
    let mut pieces = Vec::new();
    let mut at = 0;
    while at < text.len() {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let mut end = (at + 1 + (seed >> 16) as usize % 16).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        pieces.push(&text[at..end]);
        at = end;
    }
    let mut stream = T::stream();
    let mut early: Option<Rejection> = None;
    for piece in &pieces {
        match stream.push(piece) {
            Progress::Rejected(r) => {
                // Every push after the first rejection returns it.
                match &early {
                    None => early = Some(r),
                    Some(first) => assert_eq!(&r, first, "a later push changed the rejection"),
                }
            }
            Progress::Pending => assert!(early.is_none(), "pending after a rejection"),
            _ => {}
        }
        let _ = stream.partial();
    }
    let finish = stream.finish();
    let check = T::check(text);
    assert!(same(&finish, &check), "finish != check");
    let Some(early) = early else {
        return;
    };
    let whole = check
        .rejection()
        .unwrap_or_else(|| panic!("false early reject: {early:?}; check {:?}", check.kind()));
    let early_t = triples(&early);
    let whole_t = triples(whole);
    // A parse error replaces every schema error; a schema error replaces a
    // rule's (the rule stage runs on a document with no schema error); a
    // text that goes on past `max_bytes` is `too_large` whatever came before.
    let replaced = (whole.stage() == Some(Stage::Parse) && early.stage() != Some(Stage::Parse))
        || (whole.stage() == Some(Stage::Schema) && early.stage() == Some(Stage::Rule))
        || whole.errors.iter().any(|e| e.code == "too_large");
    assert!(
        replaced || early_t.iter().all(|t| whole_t.contains(t)),
        "early {early_t:?} not among {whole_t:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (seed, doc) = match rest {
        [a, b, doc @ ..] => (u32::from(*a) << 8 | u32::from(*b), doc),
        _ => (0, rest),
    };
    let text = String::from_utf8_lossy(doc);
    match pick % 5 {
        0 => run::<CloseTicket>(&text, seed),
        1 => run::<Settings>(&text, seed),
        2 => run::<Triage>(&text, seed),
        3 => run::<VacationRequest>(&text, seed),
        _ => run::<Step>(&text, seed),
    }
});
