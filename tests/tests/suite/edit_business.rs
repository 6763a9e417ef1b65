//! An edit must pass the contract in full: with `check_with`, the business
//! stage runs on the candidate too, and blocked pointers are reported beside
//! its errors.
use contract_runtime::{Contract, Stage, Violation};
use serde_json::json;

struct Plans {
    allowed: Vec<&'static str>,
}

fn plan_exists(a: &Account, ctx: &Plans) -> Result<(), Violation> {
    if ctx.allowed.contains(&a.plan.as_str()) {
        Ok(())
    } else {
        Err(Violation::business("/plan", "unknown_plan", "no such plan"))
    }
}

#[derive(Contract, Debug)]
#[contract(context = Plans, check = plan_exists, edit(change_plan = ["/plan"]))]
struct Account {
    owner: String,
    plan: String,
}

fn plans() -> Plans {
    Plans {
        allowed: vec!["free", "pro"],
    }
}

#[test]
fn an_allowed_change_that_passes_the_business_stage_is_accepted() {
    let baseline = json!({"owner": "ana", "plan": "free"});
    let edit = Account::CHANGE_PLAN
        .check_with(&baseline, r#"{"owner":"ana","plan":"pro"}"#, &plans())
        .unwrap();
    assert_eq!(edit.changed, ["/plan"]);
    assert!(edit.reasons.is_empty());
}

#[test]
fn an_allowed_change_that_fails_the_business_stage_is_rejected() {
    let baseline = json!({"owner": "ana", "plan": "free"});
    let rejection = Account::CHANGE_PLAN
        .check_with(&baseline, r#"{"owner":"ana","plan":"gold"}"#, &plans())
        .unwrap_err();
    let got: Vec<_> = rejection
        .errors
        .iter()
        .map(|e| (e.stage, e.pointer.as_str(), e.code))
        .collect();
    assert_eq!(got, [(Stage::Business, "/plan", "unknown_plan")]);
    // Without the context the business stage does not run.
    assert!(
        Account::CHANGE_PLAN
            .check(&baseline, r#"{"owner":"ana","plan":"gold"}"#)
            .is_ok()
    );
}

#[test]
fn blocked_pointers_and_business_errors_are_reported_together() {
    let baseline = json!({"owner": "ana", "plan": "free"});
    let rejection = Account::CHANGE_PLAN
        .check_with(&baseline, r#"{"owner":"bob","plan":"gold"}"#, &plans())
        .unwrap_err();
    let got: Vec<_> = rejection
        .errors
        .iter()
        .map(|e| (e.stage, e.pointer.as_str()))
        .collect();
    assert_eq!(got, [(Stage::Business, "/plan"), (Stage::Edit, "/owner")]);
}
