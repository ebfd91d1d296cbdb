//! The golden profile every rule test starts from, edits to it, and what validation found.
#![allow(dead_code)] // each test file uses its own subset

use qa_profile::Findings;
use serde_json::Value;

/// The complete, valid profile in fixtures/golden.yaml (two apps, qa and staging).
pub fn golden() -> Value {
    let bytes = include_bytes!("../fixtures/golden.yaml");
    qa_profile::yaml::parse(bytes).expect("the golden profile parses")
}

/// Sets the value at JSON `pointer` (its parent must exist).
pub fn set(profile: &mut Value, pointer: &str, value: Value) {
    let (parent, key) = pointer.rsplit_once('/').expect("a pointer");
    match profile.pointer_mut(parent).expect("the parent exists") {
        Value::Object(map) => {
            map.insert(key.to_string(), value);
        }
        Value::Array(items) => {
            let i: usize = key.parse().expect("an index");
            if i == items.len() {
                items.push(value);
            } else {
                items[i] = value;
            }
        }
        other => panic!("{parent} is not a container: {other}"),
    }
}

/// Removes the key at JSON `pointer`, keeping the order of the others.
pub fn remove(profile: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').expect("a pointer");
    profile
        .pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .expect("the parent is a mapping")
        .shift_remove(key);
}

/// A production environment that satisfies every production rule, added as `prod`, with
/// the mutation block production needs.
pub fn add_production(profile: &mut Value) {
    set(
        profile,
        "/environments/prod",
        serde_json::json!({
            "kind": "production",
            "test_account": "qa-runner@shop.example.com, own tenant, no admin",
            "apps": {"storefront": "https://shop.example.com"},
            "sha_source": {"url": "https://shop.example.com/version.json", "json_path": "commit"}
        }),
    );
    set(
        profile,
        "/mutation",
        serde_json::json!({"write_signatures": [{"method": "POST", "url": "/api/"}]}),
    );
}

/// What validation finds in the golden profile after `edit`.
pub fn findings(edit: impl FnOnce(&mut Value)) -> Findings {
    let mut profile = golden();
    edit(&mut profile);
    qa_profile::check(&profile, None).findings
}

/// The paths of the errors found after `edit`, in order.
pub fn errors(edit: impl FnOnce(&mut Value)) -> Vec<String> {
    findings(edit).errors.into_iter().map(|e| e.path).collect()
}

/// The paths of the warnings found after `edit`, in order.
pub fn warnings(edit: impl FnOnce(&mut Value)) -> Vec<String> {
    findings(edit)
        .warnings
        .into_iter()
        .map(|w| w.path)
        .collect()
}

/// One row of a rule table: an edit to the golden profile and the error paths it must
/// produce (empty: the edited profile is valid).
pub struct Case {
    pub what: &'static str,
    pub edit: fn(&mut Value),
    pub errors: &'static [&'static str],
}

/// Checks every row, naming the failing one.
pub fn check_table(cases: &[Case]) {
    for case in cases {
        let found = findings(case.edit);
        let paths: Vec<&str> = found.errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            paths, case.errors,
            "{}: errors were {:#?}",
            case.what, found.errors
        );
    }
}

/// The message of the first error at `path` after `edit`.
pub fn message_at(edit: impl FnOnce(&mut Value), path: &str) -> String {
    findings(edit)
        .errors
        .into_iter()
        .find(|e| e.path == path)
        .unwrap_or_else(|| panic!("no error at {path}"))
        .message
}
