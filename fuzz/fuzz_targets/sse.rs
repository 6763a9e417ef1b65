//! The provider event-stream decoder (`contract_runtime::stream::sse`) on
//! any bytes in any split: never a panic, and the same deltas, then the
//! same error if any, whether the body comes whole, in random pieces or a
//! byte at a time.
//!
//! Input: byte 0 picks the API, bytes 1–2 seed the cuts, the rest is the
//! body.
#![no_main]
use contract_runtime::schema::Api;
use contract_runtime::stream::sse::{Decoder, Delta, Error};
use libfuzzer_sys::fuzz_target;

/// Every delta of `body` fed in the pieces `cuts` make, then the error
/// that ended it, if any.
fn decode(api: Api, body: &[u8], cuts: &[usize]) -> (Vec<Delta>, Option<Error>) {
    let mut decoder = Decoder::new(api);
    let mut deltas = Vec::new();
    let mut at = 0;
    for &cut in cuts.iter().chain(std::iter::once(&body.len())) {
        let cut = cut.clamp(at, body.len());
        match decoder.feed(&body[at..cut]) {
            Ok(d) => deltas.extend(d),
            Err(e) => return (deltas, Some(e)),
        }
        at = cut;
    }
    match decoder.finish() {
        Ok(d) => deltas.extend(d),
        Err(e) => return (deltas, Some(e)),
    }
    for delta in &deltas {
        assert!(!delta.text.is_empty(), "an empty delta");
        assert!(delta.event >= 1 && delta.event <= decoder.events());
    }
    (deltas, None)
}

fuzz_target!(|data: &[u8]| {
    let [pick, a, b, body @ ..] = data else {
        return;
    };
    let api = Api::ALL[usize::from(*pick) % Api::ALL.len()];
    let whole = decode(api, body, &[]);
    let mut seed = u32::from(*a) << 8 | u32::from(*b);
    let mut cuts = Vec::new();
    let mut at = 0usize;
    while at < body.len() {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        at += 1 + (seed >> 16) as usize % 24;
        cuts.push(at);
    }
    assert_eq!(decode(api, body, &cuts), whole, "random pieces");
    if body.len() <= 512 {
        let bytes: Vec<usize> = (1..body.len()).collect();
        assert_eq!(decode(api, body, &bytes), whole, "a byte at a time");
    }
});
