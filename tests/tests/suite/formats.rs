//! `pattern`, `format = "email" | "uuid"` and `DateTime` fields: decoding,
//! codes and pointers, schemas, `order` by instant, round trips; and the
//! pattern matcher agreeing with an ECMA-262 matcher (`regress`, with the
//! `u` flag JSON Schema 2020-12 recommends) on generated strings.
use contract_runtime::{Contract, DateTime, OutcomeKind};
use proptest::prelude::*;
use serde_json::json;

#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(order(shipped_at <= delivered_at))]
struct Shipment {
    #[contract(pattern = "^[A-Z]{2}-[0-9]{4}$")]
    code: String,
    #[contract(pattern = r"^\d+(\.\d{1,2})?$")]
    amount: Option<String>,
    #[contract(format = "email")]
    contact: String,
    #[contract(format = "uuid")]
    id: Option<String>,
    shipped_at: DateTime,
    delivered_at: Option<DateTime>,
    checkpoints: Vec<DateTime>,
    #[contract(quarantine, pattern = "^[a-z]+$", max_len = 8)]
    note: Option<String>,
}

const VALID: &str = r#"{"code":"AB-1234","amount":"12.50","contact":"ana@example.com","id":"123e4567-e89b-12d3-a456-426614174000","shipped_at":"2027-06-01T09:30:00Z","delivered_at":"2027-06-01T11:30:00.5+02:00","checkpoints":["2027-06-01T10:00:00-00:00"],"note":"ok"}"#;

fn with(field: &str, json: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(VALID).unwrap();
    v[field] = serde_json::from_str(json).unwrap();
    v.to_string()
}

fn errors(raw: &str) -> Vec<(String, &'static str)> {
    match Shipment::from_json(raw) {
        Ok(_) => Vec::new(),
        Err(r) => r
            .errors
            .iter()
            .map(|e| (e.pointer.to_string(), e.code))
            .collect(),
    }
}

fn err(pointer: &str, code: &'static str) -> Vec<(String, &'static str)> {
    vec![(pointer.to_owned(), code)]
}

#[test]
fn a_valid_document_decodes() {
    let s = Shipment::from_json(VALID).unwrap();
    assert_eq!(s.code, "AB-1234");
    assert_eq!(s.shipped_at.offset_minutes(), 0);
    assert_eq!(s.delivered_at.unwrap().offset_minutes(), 120);
}

#[test]
fn pattern_is_a_search_anchored_only_by_the_pattern() {
    #[derive(Contract, Debug)]
    struct Loose {
        #[contract(pattern = "[0-9]{3}")]
        v: String,
    }
    assert!(Loose::from_json(r#"{"v":"order 123 today"}"#).is_ok());
    let r = Loose::from_json(r#"{"v":"12"}"#).unwrap_err();
    assert_eq!(
        (r.errors[0].pointer.as_str(), r.errors[0].code),
        ("/v", "pattern_mismatch")
    );
}

#[test]
fn a_string_without_a_match_is_pattern_mismatch_at_its_pointer() {
    assert_eq!(
        errors(&with("code", r#""ab-1234""#)),
        err("/code", "pattern_mismatch")
    );
    assert_eq!(
        errors(&with("code", r#""AB-12345""#)),
        err("/code", "pattern_mismatch")
    );
    assert_eq!(
        errors(&with("amount", r#""1.234""#)),
        err("/amount", "pattern_mismatch")
    );
    assert_eq!(errors(&with("amount", "null")), vec![]);
    let r = Shipment::from_json(&with("code", r#""x""#)).unwrap_err();
    assert_eq!(r.errors[0].stage, contract_runtime::Stage::Schema);
}

#[test]
fn pattern_digits_are_ascii_as_in_ecma_262() {
    // ARABIC-INDIC DIGIT THREE is a Unicode digit, not an ECMA-262 `\d`.
    assert_eq!(
        errors(&with("amount", "\"\u{663}\"")),
        err("/amount", "pattern_mismatch")
    );
}

#[test]
fn pattern_dot_matches_no_line_terminator() {
    #[derive(Contract, Debug)]
    struct Dotted {
        #[contract(pattern = "^a.c$")]
        v: String,
    }
    assert!(Dotted::from_json(r#"{"v":"abc"}"#).is_ok());
    assert!(Dotted::from_json(r#"{"v":"a\u00e9c"}"#).is_ok());
    for terminator in [r"\n", r"\r", r"\u2028", r"\u2029"] {
        let raw = format!(r#"{{"v":"a{terminator}c"}}"#);
        assert!(Dotted::from_json(&raw).is_err(), "{raw}");
    }
}

#[test]
fn a_quarantined_pattern_mismatch_becomes_a_review() {
    let outcome = Shipment::check(&with("note", r#""NOT LOWER""#));
    assert_eq!(outcome.kind(), OutcomeKind::Review);
    assert_eq!(outcome.value().unwrap().note, None);
}

#[test]
fn email_and_uuid_formats_have_their_codes() {
    assert_eq!(
        errors(&with("contact", r#""ana@""#)),
        err("/contact", "invalid_email")
    );
    assert_eq!(
        errors(&with("contact", r#""ana@-x.com""#)),
        err("/contact", "invalid_email")
    );
    assert_eq!(errors(&with("contact", r#""a@b""#)), vec![]);
    assert_eq!(
        errors(&with("id", r#""123e4567e89b12d3a456426614174000""#)),
        err("/id", "invalid_uuid")
    );
    assert_eq!(
        errors(&with("id", r#""123E4567-E89B-12D3-A456-426614174000""#)),
        vec![]
    );
    assert_eq!(errors(&with("id", "null")), vec![]);
    assert_eq!(errors(&with("id", "7")), err("/id", "invalid_type"));
}

#[test]
fn a_date_time_must_be_rfc3339_with_an_offset() {
    for bad in [
        r#""2027-06-01T09:30:00""#,
        r#""2027-06-01 09:30:00Z""#,
        r#""2027-02-29T09:30:00Z""#,
        r#""2027-06-01T24:00:00Z""#,
        r#""2016-12-31T23:59:60Z""#,
        r#""2027-06-01T09:30:00.1234567891Z""#,
        r#""2027-06-01""#,
    ] {
        assert_eq!(
            errors(&with("shipped_at", bad)),
            err("/shipped_at", "invalid_date_time"),
            "{bad}"
        );
    }
    assert_eq!(
        errors(&with("shipped_at", "1")),
        err("/shipped_at", "invalid_type")
    );
    assert_eq!(
        errors(&with(
            "checkpoints",
            r#"["2027-06-01T10:00:00Z","2027-06-01T10:00"]"#
        )),
        err("/checkpoints/1", "invalid_date_time")
    );
    assert_eq!(
        errors(&with("shipped_at", r#""2027-06-01t09:30:00z""#)),
        vec![]
    );
}

#[test]
fn order_between_date_times_compares_instants() {
    // 10:00+02:00 is 08:00Z: before the 09:30Z shipment although its clock reads later.
    let r =
        Shipment::from_json(&with("delivered_at", r#""2027-06-01T10:00:00+02:00""#)).unwrap_err();
    assert_eq!(
        (r.errors[0].pointer.as_str(), r.errors[0].code),
        ("/delivered_at", "order")
    );
    // 05:00-05:00 is 10:00Z: after it although its clock reads earlier.
    assert!(Shipment::from_json(&with("delivered_at", r#""2027-06-01T05:00:00-05:00""#)).is_ok());
    assert!(Shipment::from_json(&with("delivered_at", r#""2027-06-01T11:30:00+02:00""#)).is_ok());
}

#[test]
fn to_json_keeps_the_written_offset_and_precision() {
    let s = Shipment::from_json(VALID).unwrap();
    let json = s.to_json();
    assert_eq!(json["delivered_at"], "2027-06-01T11:30:00.5+02:00");
    assert_eq!(json["checkpoints"], json!(["2027-06-01T10:00:00-00:00"]));
    assert_eq!(Shipment::from_json(&json.to_string()).unwrap(), s);
}

#[test]
fn schemas_say_pattern_and_format() {
    let schema = Shipment::json_schema();
    let p = &schema["properties"];
    assert_eq!(
        p["code"],
        json!({"type": "string", "pattern": "^[A-Z]{2}-[0-9]{4}$"})
    );
    assert_eq!(p["amount"]["pattern"], r"^\d+(\.\d{1,2})?$");
    assert_eq!(p["contact"], json!({"type": "string", "format": "email"}));
    assert_eq!(
        p["id"],
        json!({"type": ["string", "null"], "format": "uuid"})
    );
    assert_eq!(
        p["shipped_at"],
        json!({"type": "string", "format": "date-time"})
    );
    assert_eq!(
        p["delivered_at"],
        json!({"type": ["string", "null"], "format": "date-time"})
    );
    assert_eq!(
        p["checkpoints"]["items"],
        json!({"type": "string", "format": "date-time"})
    );
}

fn date_time() -> impl Strategy<Value = DateTime> {
    (
        (0u16..=9999, 1u8..=12, 1u8..=31),
        (0u8..24, 0u8..60, 0u8..60),
        (0u8..=9, 0u32..1_000_000_000, -1439i16..=1439),
    )
        .prop_filter_map("valid", |((y, m, d), hms, (digits, frac, off))| {
            let unit = 10u32.pow(9 - u32::from(digits));
            let nanos = if digits == 0 { 0 } else { frac / unit * unit };
            DateTime::new(
                contract_runtime::Date::new(y, m, d)?,
                hms,
                nanos,
                digits,
                off,
            )
        })
}

proptest! {
    #[test]
    fn date_times_round_trip_through_json_as_written(
        at in date_time(),
        later in proptest::option::of(date_time()),
        points in prop::collection::vec(date_time(), 0..3),
    ) {
        let value = Shipment {
            code: "AB-1234".into(),
            amount: None,
            contact: "a@b".into(),
            id: None,
            shipped_at: at,
            delivered_at: later.filter(|l| *l >= at),
            checkpoints: points,
            note: None,
        };
        let text = value.to_json().to_string();
        let back = Shipment::from_json(&text).unwrap();
        prop_assert_eq!(back.to_json().to_string(), text);
        prop_assert_eq!(back, value);
    }
}

// ---------------------------------------------------------------- agreement with ECMA-262

/// One contract per pattern; the decision is "no `pattern_mismatch`".
macro_rules! pattern_cases {
    ($($name:ident = $pattern:literal;)*) => {
        $(
            #[derive(Contract, Debug)]
            #[allow(dead_code)]
            struct $name {
                #[contract(pattern = $pattern)]
                v: String,
            }
        )*
        /// Every pattern in the tests, with our decision for a string.
        const PATTERNS: &[(&str, fn(&str) -> bool)] = &[
            $(($pattern, |s| $name::from_json(&json!({ "v": s }).to_string()).is_ok()),)*
        ];
    };
}

pattern_cases! {
    Code = "^[A-Z]{2}-[0-9]{4}$";
    Amount = r"^\d+(\.\d{1,2})?$";
    Lower = "^[a-z]+$";
    Loose = "[0-9]{3}";
    Dotted = "^a.c$";
    Words = r"^\w+(-\w+)*$";
    Boundary = r"\bcat\b";
    NotBoundary = r"\Bcat";
    Alternatives = "^(?:red|green|blue)?$";
    Lazy = r"^<.+?>$";
    AnyLine = "^.*$";
    NonDigits = r"^\D*$";
    NonWord = r"^\W+$";
    Escapes = r"^[\-\]\\^.]\.\t?\x41\u00e9\u{1F600}?$";
    Negated = "^[^a-c]{2,}$";
    Unicode = "^[à-ÿ]+é$";
    SlashEscape = r"^a\/b$";
    Empty = "";
    DatePattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
}

/// Characters that tell the dialects apart where they could differ.
const TRICKY: &[char] = &[
    'a',
    'b',
    'c',
    'A',
    'Z',
    '0',
    '9',
    '_',
    '-',
    '.',
    ' ',
    '/',
    '\\',
    '<',
    '>',
    'é',
    'à',
    'ÿ',
    '\n',
    '\r',
    '\t',
    '\u{b}',
    '\u{c}',
    '\u{85}',
    '\u{a0}',
    '\u{2028}',
    '\u{2029}',
    '\u{feff}',
    '\u{663}',
    '\u{ff11}',
    'ǅ',
    'K',
    '\u{212a}',
    'ſ',
    '\u{1F600}',
    '\u{10ffff}',
];

fn tricky_string() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TRICKY), 0..10)
        .prop_map(|cs| cs.into_iter().collect())
}

/// Strings near a pattern: generated from it (with Unicode `\d`/`\w`, so
/// non-ASCII digits and letters appear), then perhaps edited with a tricky
/// character.
fn near(pattern: &'static str) -> impl Strategy<Value = String> {
    // proptest generates from patterns without anchors or boundaries.
    let bare = pattern.strip_prefix('^').unwrap_or(pattern);
    let bare = bare.strip_suffix('$').unwrap_or(bare);
    let bare = bare.replace(r"\b", "").replace(r"\B", "");
    let generated = proptest::string::string_regex(&bare).unwrap().boxed();
    (
        generated,
        any::<prop::sample::Index>(),
        prop::sample::select(TRICKY),
        0..3u8,
    )
        .prop_map(|(s, at, c, edit)| {
            let chars: Vec<char> = s.chars().collect();
            let i = if chars.is_empty() {
                0
            } else {
                at.index(chars.len())
            };
            let mut out = chars.clone();
            match edit {
                0 => {}
                1 => out.insert(i, c),
                _ if !out.is_empty() => out[i] = c,
                _ => out.push(c),
            }
            out.into_iter().collect()
        })
}

fn ecma(pattern: &str) -> regress::Regex {
    regress::Regex::with_flags(pattern, "u").unwrap()
}

#[test]
fn every_pattern_compiles_in_an_ecma_262_matcher() {
    for (pattern, _) in PATTERNS {
        assert!(
            regress::Regex::with_flags(pattern, "u").is_ok(),
            "{pattern}"
        );
    }
}

#[test]
fn a_quantifier_after_a_quantifier_is_an_ecma_262_syntax_error_and_a_lazy_one_is_not() {
    // The derive refuses the first list (`ui/formats/pattern-quantifier-after-quantifier`)
    // and keeps the second.
    for refused in ["^a++$", "a**", "a{2}{3}", "a?+", "a+??"] {
        assert!(
            regress::Regex::with_flags(refused, "u").is_err(),
            "{refused}"
        );
    }
    for kept in ["a+?", "a*?", "a??", "a{2}?", "(?:a+)+"] {
        assert!(regress::Regex::with_flags(kept, "u").is_ok(), "{kept}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn our_matcher_agrees_with_ecma_262_near_each_pattern(
        (i, s) in (0..PATTERNS.len()).prop_flat_map(|i| (Just(i), near(PATTERNS[i].0)))
    ) {
        let (pattern, ours) = PATTERNS[i];
        prop_assert_eq!(ours(&s), ecma(pattern).find(&s).is_some(), "{:?} on {:?}", pattern, s);
    }

    #[test]
    fn our_matcher_agrees_with_ecma_262_on_tricky_strings(i in 0..PATTERNS.len(), s in tricky_string()) {
        let (pattern, ours) = PATTERNS[i];
        prop_assert_eq!(ours(&s), ecma(pattern).find(&s).is_some(), "{:?} on {:?}", pattern, s);
    }
}

// ---------------------------------------------------------------- provider exports

/// `(pointer, enforced_by)` of each dropped `pattern`/`format`.
fn dropped_strings(provider: contract_runtime::schema::Provider) -> Vec<(String, String)> {
    Shipment::json_schema_for(provider)
        .unwrap()
        .dropped
        .into_iter()
        .filter(|d| d.keyword == "pattern" || d.keyword == "format")
        .map(|d| (d.pointer, d.enforced_by))
        .collect()
}

#[test]
fn openai_keeps_patterns_and_formats_and_anthropic_its_formats() {
    use contract_runtime::schema::Provider;
    assert_eq!(dropped_strings(Provider::OpenAi), vec![]);
    // Anthropic's client moves `pattern` into the description before sending
    // (`transform_schema`), so the export drops it and says it stays local;
    // the formats are kept, their exact syntax reported as local.
    let local = "from_json, schema stage: `pattern_mismatch`".to_owned();
    let anthropic = dropped_strings(Provider::Anthropic);
    let patterns: Vec<_> = anthropic
        .iter()
        .filter(|(p, _)| p.ends_with("/pattern"))
        .cloned()
        .collect();
    assert_eq!(
        patterns,
        vec![
            ("/properties/code/pattern".to_owned(), local.clone()),
            ("/properties/amount/pattern".to_owned(), local.clone()),
            ("/properties/note/pattern".to_owned(), local),
        ]
    );
    let formats: Vec<_> = anthropic
        .iter()
        .filter(|(p, _)| p.ends_with("/format"))
        .map(|(p, _)| p.as_str())
        .collect();
    assert_eq!(
        formats,
        [
            "/properties/contact/format",
            "/properties/id/format",
            "/properties/shipped_at/format",
            "/properties/delivered_at/format",
            "/properties/checkpoints/items/format",
        ]
    );
    let kept = Shipment::json_schema_for(Provider::Anthropic).unwrap();
    assert_eq!(kept.schema["properties"]["contact"]["format"], "email");
    let export = Shipment::json_schema_for(Provider::OpenAi).unwrap();
    assert_eq!(
        export.schema["properties"]["shipped_at"]["format"],
        "date-time"
    );
    assert_eq!(
        export.schema["properties"]["code"]["pattern"],
        "^[A-Z]{2}-[0-9]{4}$"
    );
}

#[test]
fn gemini_drops_patterns_and_the_email_and_uuid_formats_as_local_checks() {
    use contract_runtime::schema::Provider;
    let dropped = dropped_strings(Provider::Gemini);
    let enforced = |pointer: &str| {
        dropped
            .iter()
            .find(|(p, _)| p == pointer)
            .map(|(_, by)| by.clone())
            .unwrap_or_default()
    };
    assert!(enforced("/properties/code/pattern").contains("`pattern_mismatch`"));
    assert!(enforced("/properties/contact/format").contains("`invalid_email`"));
    assert!(enforced("/properties/id/format").contains("`invalid_uuid`"));
    let export = Shipment::json_schema_for(Provider::Gemini).unwrap();
    assert_eq!(
        export.schema["properties"]["shipped_at"]["format"],
        "date-time"
    );
}

#[test]
fn a_pathological_pattern_input_is_matched_in_linear_time() {
    // Exponential for a backtracking matcher; linear for ours.
    #[derive(Contract, Debug)]
    #[contract(max_bytes = 2_000_000)]
    struct Nested {
        #[contract(pattern = "^(a|a?)+$")]
        v: String,
    }
    let raw = format!(r#"{{"v":"{}!"}}"#, "a".repeat(100_000));
    let r = Nested::from_json(&raw).unwrap_err();
    assert_eq!(r.errors[0].code, "pattern_mismatch");
}

#[test]
fn a_pattern_at_the_derives_size_limit_compiles_and_matches_at_run_time() {
    // The largest `n` in `^(a{n}){1000}$` the derive accepts is 325 (326 is
    // refused, `ui/formats/pattern-too-large-to-compile`): the runtime must
    // compile all it accepts, or every value would be `pattern_mismatch`.
    #[derive(Contract, Debug)]
    #[contract(max_bytes = 1_000_000)]
    struct Large {
        #[contract(pattern = "^(a{325}){1000}$")]
        v: String,
    }
    let exact = format!(r#"{{"v":"{}"}}"#, "a".repeat(325_000));
    assert!(Large::from_json(&exact).is_ok());
    let short = format!(r#"{{"v":"{}"}}"#, "a".repeat(324_999));
    let r = Large::from_json(&short).unwrap_err();
    assert_eq!(
        (r.errors[0].pointer.as_str(), r.errors[0].code),
        ("/v", "pattern_mismatch")
    );
}

proptest! {
    #[test]
    fn any_string_in_any_checked_field_is_decided_without_panic(
        field in prop::sample::select(&["code", "amount", "contact", "id", "shipped_at", "delivered_at", "note"][..]),
        s in "\\PC{0,40}|[0-9TZtz:+.-]{0,40}",
    ) {
        let raw = with(field, &serde_json::to_string(&s).unwrap());
        match Shipment::from_json(&raw) {
            Ok(v) => prop_assert_eq!(Shipment::from_json(&v.to_json().to_string()).unwrap(), v),
            Err(r) => {
                let at = format!("/{field}");
                prop_assert!(r.errors.iter().all(|e| e.pointer == at || e.code == "order"), "{:?}", r.errors);
            }
        }
    }
}

// ---------------------------------------------------------------- patterns on items

/// `pattern` on a `Vec<String>`: every item must match.
#[derive(Contract, Debug, Clone, PartialEq)]
struct Parcel {
    #[contract(pattern = "^[A-Z]{2}$", max_len = 4)]
    countries: Vec<String>,
    #[contract(pattern = r"^\d{4}$")]
    codes: Option<Vec<String>>,
}

fn parcel_errors(raw: &str) -> Vec<(String, &'static str)> {
    match Parcel::from_json(raw) {
        Ok(_) => Vec::new(),
        Err(r) => r
            .errors
            .iter()
            .map(|e| (e.pointer.to_string(), e.code))
            .collect(),
    }
}

#[test]
fn a_pattern_on_a_vec_of_strings_checks_every_item_at_its_pointer() {
    let ok = Parcel::from_json(r#"{"countries":["FR","DE"],"codes":["0001"]}"#).unwrap();
    assert_eq!(ok.countries, ["FR", "DE"]);
    assert!(Parcel::from_json(r#"{"countries":[],"codes":null}"#).is_ok());
    let pm = |p: &str| (p.to_owned(), "pattern_mismatch");
    assert_eq!(
        parcel_errors(r#"{"countries":["FR","de","IT","ITA"],"codes":["1","2024","x"]}"#),
        [
            pm("/countries/1"),
            pm("/countries/3"),
            pm("/codes/0"),
            pm("/codes/2")
        ]
    );
    // The array's own bound and its items' pattern are both reported, in
    // the order of the text: the item, then the array's `]`.
    assert_eq!(
        parcel_errors(r#"{"countries":["FR","DE","IT","ES","pt"],"codes":null}"#),
        [pm("/countries/4"), ("/countries".to_owned(), "too_long")]
    );
    // A streamed document ends with the same errors.
    let mut stream = Parcel::stream();
    stream.push(r#"{"countries":["FR","de"],"codes":["12"]}"#);
    let outcome = stream.finish();
    let pointers: Vec<&str> = outcome
        .rejection()
        .unwrap()
        .errors
        .iter()
        .map(|e| e.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["/countries/1", "/codes/0"]);
}

#[test]
fn a_pattern_on_a_vec_of_strings_is_the_schema_items_pattern() {
    let schema = Parcel::json_schema();
    let p = &schema["properties"];
    assert_eq!(
        p["countries"],
        json!({"type": "array", "items": {"type": "string", "pattern": "^[A-Z]{2}$"}, "maxItems": 4})
    );
    assert_eq!(
        p["codes"],
        json!({"type": ["array", "null"], "items": {"type": "string", "pattern": r"^\d{4}$"}})
    );
    let export = Parcel::json_schema_for(contract_runtime::schema::Provider::Anthropic).unwrap();
    let dropped: Vec<&str> = export
        .dropped
        .iter()
        .filter(|d| d.keyword == "pattern")
        .map(|d| d.pointer.as_str())
        .collect();
    assert_eq!(
        dropped,
        [
            "/properties/countries/items/pattern",
            "/properties/codes/items/pattern"
        ]
    );
}
