//! Literals of `min`, `max`, `equals` and `one_of` reach the schema exactly,
//! whatever their size.
use contract_runtime::Contract;
use serde_json::json;

#[derive(Contract, Debug)]
struct Wide {
    #[contract(max = 3000000000)]
    big: u64,
    #[contract(min = -3000000000)]
    low: i64,
    #[contract(one_of = [5000000000, 7])]
    pick: u64,
    #[contract(equals = 9007199254740993)]
    exact: u64,
}

#[test]
fn integer_literals_beyond_32_bits_are_exact_in_the_schema() {
    let schema = Wide::json_schema();
    let props = &schema["properties"];
    assert_eq!(props["big"]["maximum"], json!(3_000_000_000u64));
    assert_eq!(props["low"]["minimum"], json!(-3_000_000_000i64));
    assert_eq!(props["pick"]["enum"], json!([5_000_000_000u64, 7]));
    assert_eq!(props["exact"]["const"], json!(9_007_199_254_740_993u64));
}

#[test]
fn the_decoder_accepts_what_the_wide_schema_allows() {
    let doc = r#"{"big":3000000000,"low":-3000000000,"pick":5000000000,"exact":9007199254740993}"#;
    assert!(Wide::from_json(doc).is_ok());
    let over = r#"{"big":3000000001,"low":-3000000001,"pick":5000000001,"exact":9007199254740992}"#;
    let codes: Vec<_> = Wide::from_json(over)
        .unwrap_err()
        .errors
        .iter()
        .map(|e| (e.pointer.to_string(), e.code))
        .collect();
    assert_eq!(
        codes,
        [
            ("/big".to_string(), "above_maximum"),
            ("/low".to_string(), "below_minimum"),
            ("/pick".to_string(), "not_one_of"),
            ("/exact".to_string(), "not_equal"),
        ]
    );
}
