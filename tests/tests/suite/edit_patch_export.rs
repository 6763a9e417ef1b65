//! The patch exports (`patch_schema_for`, `merge_patch_schema_for`).
use contract_examples::settings::Settings;
use contract_runtime::schema::Provider;
use serde_json::Value;

fn seed_baseline() -> Value {
    serde_json::from_str(contract_examples::settings::BASELINE).unwrap()
}

#[test]
fn print_exports() {
    let b = seed_baseline();
    for p in Provider::ALL {
        let e = Settings::DISABLE_EMAIL.patch_schema_for(&b, p).unwrap();
        println!("{p:?} patch: {}", serde_json::to_string(&e).unwrap());
        let e = Settings::DISABLE_EMAIL
            .merge_patch_schema_for(&b, p)
            .unwrap();
        println!("{p:?} merge: {}", serde_json::to_string(&e).unwrap());
    }
}
