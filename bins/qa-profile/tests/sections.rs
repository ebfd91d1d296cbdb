//! `selectors`, `models` and `sandbox`.

use crate::common;
use common::{check_table, remove, set, Case};
use serde_json::json;

#[test]
fn selectors_need_a_testid_attribute() {
    check_table(&[
        Case {
            what: "missing",
            edit: |p| remove(p, "/selectors"),
            errors: &["selectors"],
        },
        Case {
            what: "no attribute",
            edit: |p| remove(p, "/selectors/testid_attribute"),
            errors: &["selectors.testid_attribute"],
        },
        Case {
            what: "blank policy_doc",
            edit: |p| set(p, "/selectors/policy_doc", json!("")),
            errors: &["selectors.policy_doc"],
        },
        Case {
            what: "policy_doc unchecked without a folder",
            edit: |p| set(p, "/selectors/policy_doc", json!("docs/missing.md")),
            errors: &[],
        },
    ]);
}

#[test]
fn a_policy_doc_missing_on_disk_warns_and_one_present_does_not() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("docs")).unwrap();
    std::fs::write(dir.path().join("docs/selectors.md"), "# selectors").unwrap();
    let warned = |doc: &str| {
        let mut p = common::golden();
        set(&mut p, "/selectors/policy_doc", json!(doc));
        let found = qa_profile::check(&p, Some(dir.path())).findings;
        found
            .warnings
            .into_iter()
            .map(|w| w.path)
            .collect::<Vec<_>>()
    };
    assert_eq!(warned("docs/selectors.md"), Vec::<String>::new());
    assert_eq!(warned("docs/selectors.md#naming"), Vec::<String>::new());
    assert_eq!(warned("docs/missing.md"), ["selectors.policy_doc"]);
}

#[test]
fn models_need_at_least_one_approved_model_id() {
    check_table(&[
        Case {
            what: "missing",
            edit: |p| remove(p, "/models"),
            errors: &["models"],
        },
        Case {
            what: "empty",
            edit: |p| set(p, "/models/generation_approved", json!([])),
            errors: &["models.generation_approved"],
        },
        Case {
            what: "a string",
            edit: |p| set(p, "/models/generation_approved", json!("claude-fable-5")),
            errors: &["models.generation_approved"],
        },
        Case {
            what: "a blank id",
            edit: |p| set(p, "/models/generation_approved/1", json!(" ")),
            errors: &["models.generation_approved"],
        },
        Case {
            what: "two ids",
            edit: |p| set(p, "/models/generation_approved/1", json!("claude-opus-5")),
            errors: &[],
        },
    ]);
}

#[test]
fn sandbox_mode_needs_env_var_and_value() {
    check_table(&[
        Case {
            what: "missing",
            edit: |p| remove(p, "/sandbox"),
            errors: &["sandbox.mode"],
        },
        Case {
            what: "no mode",
            edit: |p| set(p, "/sandbox", json!({})),
            errors: &["sandbox.mode"],
        },
        Case {
            what: "no env_var",
            edit: |p| remove(p, "/sandbox/mode/env_var"),
            errors: &["sandbox.mode.env_var"],
        },
        Case {
            what: "value not a string",
            edit: |p| set(p, "/sandbox/mode/value", json!(1)),
            errors: &["sandbox.mode.value"],
        },
    ]);
}
