//! `json::parse` on arbitrary bytes: never a panic; a rejection is one
//! well-formed parse error; an accepted value re-serializes to a document
//! that parses to the same value.
#![no_main]
use contract_fuzz::assert_well_formed;
use contract_runtime::Stage;
use contract_runtime::json::{Limits, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = Limits::default();
    match parse(data, &limits) {
        Ok(value) => {
            let text = serde_json::to_string(&value).expect("a value serializes");
            let again = parse(
                text.as_bytes(),
                &Limits {
                    max_bytes: usize::MAX,
                    ..limits
                },
            )
            .expect("our own output parses");
            assert_eq!(again, value);
        }
        Err(rejection) => {
            assert_well_formed(&rejection);
            assert_eq!(rejection.errors[0].stage, Stage::Parse);
        }
    }
});
