//! A recursive contract (a filter tree through `Vec`, `Box` and a tagged
//! union) and a generic one holding it (`Page<Filter>`).
#![no_main]
use contract_fuzz::{Filter, Page, decode, filter_invariant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    decode::<Filter>(data, filter_invariant);
    decode::<Page<Filter>>(data, |page| {
        assert!(page.items.len() <= 4);
        page.items.iter().for_each(filter_invariant);
    });
});
