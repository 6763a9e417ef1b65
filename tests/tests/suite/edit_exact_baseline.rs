//! A baseline read from text through `json::parse` (the documented path,
//! and what `contract-check --baseline FILE` uses) holds every float as the
//! correctly rounded double: the identical candidate is no change, and its
//! fingerprint is another language's RFC 8785 key. (`serde_json::from_str`
//! without serde_json's `float_roundtrip` feature reads 3 of the 12 floats
//! below one ulp off, `0.029489407448267446` as `0.02948940744826745`; in
//! this test build a dev-dependency switches that feature on, so the
//! expected keys are fixed here rather than computed with serde_json.)
use contract_runtime::Contract;
use contract_runtime::cli::{self, EXIT_OK, entry};
use contract_runtime::fingerprint::{Fingerprint, canonical};
use contract_runtime::json;
use serde_json::Value;

/// A reading with 17-digit floats.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(edit(relabel = ["/label"]))]
pub struct Reading {
    /// A name.
    pub label: String,
    /// One float.
    pub weight: f64,
    /// More floats (an array changes as a whole).
    pub samples: Vec<f64>,
}

/// Floats whose shortest form has 17 significant digits.
const STORED: &str = r#"{"label":"a","weight":0.029489407448267446,"samples":[56.716832722996614,0.0016489136614645428,3002.8607611326906,1.9831748505867786,0.13371206826620874,1.2673733891876982,0.015507962340602588,1129.6498604130445,6.8603146378073525,2737.7298874183975,16.142971017626618]}"#;

/// `STORED` in RFC 8785 form and its SHA-256, both computed independently
/// of this crate with Python 3.11: `json.loads` (correctly rounded floats),
/// members sorted by hand, numbers written with `repr` (for these values
/// ECMAScript's `Number.prototype.toString` gives the same digits), and
/// `hashlib.sha256`.
const CANONICAL: &str = r#"{"label":"a","samples":[56.716832722996614,0.0016489136614645428,3002.8607611326906,1.9831748505867786,0.13371206826620874,1.2673733891876982,0.015507962340602588,1129.6498604130445,6.8603146378073525,2737.7298874183975,16.142971017626618],"weight":0.029489407448267446}"#;
const KEY: &str = "565b56f81b72fd2e930f9df4e6f127c9736d150e2149740b3f59e9befe2f742e";
/// The same with `"label":"b"` (Python 3.11, as above).
const RELABELLED_KEY: &str = "5faafb73ea9bef822996a56f91c66d5819b39ddb1a1127e679af9e37bdd5c721";

/// The baseline as the docs say to read it.
fn stored() -> Value {
    json::parse(STORED.as_bytes(), &Reading::LIMITS).unwrap()
}

fn relabelled() -> String {
    STORED.replacen(r#""label":"a""#, r#""label":"b""#, 1)
}

#[test]
fn a_17_digit_float_baseline_and_its_identical_candidate_are_no_change() {
    let edit = Reading::RELABEL.check(&stored(), STORED).unwrap();
    assert!(edit.changed.is_empty(), "{:?}", edit.changed);
    assert_eq!(edit.baseline, edit.candidate);
}

#[test]
fn a_17_digit_float_baseline_has_the_key_of_an_independent_jcs_implementation() {
    let baseline = stored();
    assert_eq!(canonical(&baseline), CANONICAL);
    assert_eq!(
        serde_json_canonicalizer::to_string(&baseline).unwrap(),
        CANONICAL
    );
    assert_eq!(Fingerprint::of(&baseline).to_string(), KEY);
    let edit = Reading::RELABEL.check(&baseline, &relabelled()).unwrap();
    assert_eq!(edit.changed, ["/label"]);
    assert_eq!(edit.baseline.to_string(), KEY);
    assert_eq!(edit.candidate.to_string(), RELABELLED_KEY);
    assert!(edit.apply_if_current(&stored()).is_ok());
}

#[test]
fn contract_check_reads_a_17_digit_float_baseline_file_exactly() {
    let dir = std::env::temp_dir().join(format!("edit-exact-baseline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (baseline, input) = (dir.join("baseline.json"), dir.join("in.jsonl"));
    std::fs::write(&baseline, STORED).unwrap();
    std::fs::write(&input, format!("{STORED}\n{}\n", relabelled())).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = cli::main_with(
        vec![entry::<Reading>("reading")],
        [
            "reading",
            input.to_str().unwrap(),
            "--baseline",
            baseline.to_str().unwrap(),
            "--edit",
            "relabel",
        ],
        &mut out,
        &mut err,
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let err = String::from_utf8(err).unwrap();
    assert_eq!(code, EXIT_OK, "{err}");
    let lines: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let changed: Vec<&Value> = lines.iter().map(|l| &l["changed"]).collect();
    assert_eq!(
        changed,
        [&serde_json::json!([]), &serde_json::json!(["/label"])]
    );
}
