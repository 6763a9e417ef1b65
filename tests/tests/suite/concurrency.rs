//! Contracts, rejections and outcomes can cross threads, and decoding is
//! deterministic: a corpus decoded on eight threads at once gets the same
//! decisions as on one.
use contract_runtime::json::{self, Limits};
use contract_runtime::{
    Contract, Edit, EditPolicy, Error, Outcome, OutcomeKind, Rejection, Stage, Violation,
};

// The seed contracts as shipped.
use contract_examples::close_ticket::CloseTicket;
use contract_examples::settings::Settings;
use contract_examples::triage::Triage;
use contract_examples::vacation::VacationRequest as Vacation;

const fn assert_send_sync<T: Send + Sync>() {}

// Checked at compile time: a type that stops being Send + Sync fails the build.
const _: () = {
    assert_send_sync::<CloseTicket>();
    assert_send_sync::<Triage>();
    assert_send_sync::<Vacation>();
    assert_send_sync::<Settings>();
    assert_send_sync::<Rejection>();
    assert_send_sync::<Error>();
    assert_send_sync::<Stage>();
    assert_send_sync::<Violation>();
    assert_send_sync::<OutcomeKind>();
    assert_send_sync::<Outcome<Vacation>>();
    assert_send_sync::<Outcome<Triage>>();
    assert_send_sync::<EditPolicy<Settings>>();
    assert_send_sync::<Edit<Settings>>();
    assert_send_sync::<Limits>();
};

#[test]
fn contracts_rejections_and_outcomes_are_send_and_sync() {
    // The const block above is the check; this names it in the test list
    // and moves real values across threads.
    let outcome = Vacation::check("{}");
    let rejection = std::thread::spawn(move || outcome.rejection().cloned())
        .join()
        .unwrap()
        .unwrap();
    assert_eq!(rejection.errors[0].code, "missing_key");
}

/// One decision, comparable across runs: the outcome kind and every
/// error's stage, pointer and code (or the accepted value's JSON).
type Decision = (
    String,
    Vec<(Stage, String, &'static str)>,
    Option<String>,
    usize,
);

fn rejected(rejection: &Rejection) -> Decision {
    let errors = rejection
        .errors
        .iter()
        .map(|e| (e.stage, e.pointer.to_string(), e.code))
        .collect();
    ("reject".to_owned(), errors, None, rejection.omitted)
}

fn decision<T: Contract>(outcome: Outcome<T>) -> Decision {
    let kind = outcome.kind().as_str().to_owned();
    match outcome {
        Outcome::Reject(rejection) => rejected(&rejection),
        other => {
            let reasons = other
                .reasons()
                .iter()
                .map(|v| (Stage::Business, v.pointer.clone(), v.code))
                .collect();
            let value = other.value().map(|v| v.to_json().to_string());
            (kind, reasons, value, 0)
        }
    }
}

fn decide_all(doc: &str) -> Vec<Decision> {
    let baseline = serde_json::json!({"notifications":{"email":true},"retry_limit":3,"channels":["email","sms"]});
    let edit = match Settings::DISABLE_EMAIL.check(&baseline, doc) {
        Ok(edit) => Outcome::Accept(edit.value),
        Err(rejection) => Outcome::Reject(rejection),
    };
    let parsed = match json::parse(doc.as_bytes(), &Limits::default()) {
        Ok(value) => ("accept".to_owned(), Vec::new(), Some(value.to_string()), 0),
        Err(rejection) => rejected(&rejection),
    };
    vec![
        decision(CloseTicket::check(doc)),
        decision(Triage::check(doc)),
        decision(Vacation::check(doc)),
        decision(Settings::check(doc)),
        decision(edit),
        parsed,
    ]
}

/// A few hundred documents: the valid examples, and each one broken in
/// several ways (truncated, a byte changed, a key duplicated, a value
/// retyped).
fn corpus() -> Vec<String> {
    let valid = [
        r#"{"action":"close_ticket","ticket_id":7,"reason":"resolved by the customer"}"#,
        r#"{"categoria":"bug","prioridade":"alta","confianca":0.9,"motivo":"Erro 500 ao salvar"}"#,
        r#"{"status":"complete","start_date":"2027-06-01","end_date":"2027-06-12","clarification_question":null}"#,
        r#"{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":"Which dates?"}"#,
        r#"{"status":"not_a_request","start_date":null,"end_date":null,"clarification_question":null}"#,
        r#"{"status":"complete","start_date":"2027-06-12","end_date":"2027-06-01","clarification_question":"?"}"#,
        r#"{"notifications":{"email":false},"retry_limit":3,"channels":["email","sms"]}"#,
        r#"{"notifications":{"email":true},"retry_limit":9,"channels":["email","sms"]}"#,
    ];
    let mut docs: Vec<String> = Vec::new();
    for doc in valid {
        docs.push(doc.to_owned());
        for cut in (1..doc.len()).step_by(7) {
            docs.push(doc[..cut].to_owned());
        }
        for (i, _) in doc.char_indices().step_by(5) {
            let mut broken = doc.to_owned();
            broken.replace_range(i..=i, if i % 2 == 0 { "\"" } else { "7" });
            docs.push(broken);
        }
        docs.push(doc.replacen('{', r#"{"dup":1,"dup":2,"#, 1));
        docs.push(doc.replace("7", "\"7\"").replace("0.9", "true"));
        docs.push(doc.replace("null", "0"));
        docs.push(format!("\u{feff}{doc}"));
        docs.push(format!("{doc} {doc}"));
    }
    docs
}

#[test]
fn eight_threads_decide_like_one() {
    let docs = corpus();
    assert!(docs.len() > 200, "{}", docs.len());
    let expected: Vec<Vec<Decision>> = docs.iter().map(|d| decide_all(d)).collect();
    // Every kind of decision occurs in the corpus.
    let kinds: std::collections::BTreeSet<&str> = expected
        .iter()
        .flatten()
        .map(|(kind, _, _, _)| kind.as_str())
        .collect();
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["accept", "clarify", "decline", "reject"]
    );
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..8)
            .map(|t| {
                let docs = &docs;
                scope.spawn(move || {
                    // Each thread walks the corpus from a different place.
                    let n = docs.len();
                    let mut got = vec![Vec::new(); n];
                    for k in 0..n {
                        let i = (k + t * n / 8) % n;
                        got[i] = decide_all(&docs[i]);
                    }
                    got
                })
            })
            .collect();
        for worker in workers {
            assert_eq!(worker.join().unwrap(), expected);
        }
    });
}
