//! The triage contract (seed 002).
#![no_main]
use contract_fuzz::{Triage, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    decode::<Triage>(data, |t| {
        assert!((0.0..=1.0).contains(&t.confianca));
        assert!(t.motivo.chars().count() <= 500);
    });
});
