//! The top level: documented keys only, a project, the tracker, and the apps.

use crate::common;
use common::{check_table, errors, golden, message_at, remove, set, Case};
use serde_json::json;

#[test]
fn the_golden_profile_is_valid_without_warnings() {
    let found = qa_profile::check(&golden(), None).findings;
    assert_eq!(found.errors, []);
    assert_eq!(found.warnings, []);
}

#[test]
fn an_unknown_top_level_key_is_reported_at_its_own_name() {
    assert_eq!(
        errors(|p| set(p, "/reporting", json!({"x": 1}))),
        ["reporting"]
    );
    assert!(message_at(|p| set(p, "/reporting", json!(1)), "reporting")
        .starts_with("unknown top-level key"));
}

#[test]
fn every_documented_top_level_key_is_known() {
    // stabilization, context and mutation are optional and valid when well formed.
    assert_eq!(
        errors(|p| {
            set(p, "/stabilization", json!({"env": "staging"}));
            set(
                p,
                "/context",
                json!({"sources": [{"name": "d", "description": "docs", "path": "docs"}]}),
            );
            set(p, "/mutation", json!({}));
        }),
        Vec::<String>::new()
    );
}

#[test]
fn project_is_a_required_non_blank_string() {
    check_table(&[
        Case {
            what: "present",
            edit: |_| {},
            errors: &[],
        },
        Case {
            what: "missing",
            edit: |p| remove(p, "/project"),
            errors: &["project"],
        },
        Case {
            what: "blank",
            edit: |p| set(p, "/project", json!("  ")),
            errors: &["project"],
        },
        Case {
            what: "a number",
            edit: |p| set(p, "/project", json!(7)),
            errors: &["project"],
        },
    ]);
}

#[test]
fn tracker_is_clickup_or_none_and_defaults_to_clickup() {
    check_table(&[
        Case {
            what: "clickup",
            edit: |p| set(p, "/tracker", json!("clickup")),
            errors: &[],
        },
        Case {
            what: "empty means the default",
            edit: |p| set(p, "/tracker", json!(null)),
            errors: &[],
        },
        Case {
            what: "jira",
            edit: |p| set(p, "/tracker", json!("jira")),
            errors: &["tracker"],
        },
        Case {
            what: "wrong case",
            edit: |p| set(p, "/tracker", json!("None")),
            errors: &["tracker"],
        },
        Case {
            what: "the default needs clickup",
            edit: |p| remove(p, "/clickup"),
            errors: &["clickup"],
        },
    ]);
}

#[test]
fn apps_need_at_least_one_app_with_framework_spec_dir_and_repo() {
    check_table(&[
        Case {
            what: "missing",
            edit: |p| {
                remove(p, "/apps");
                remove(p, "/cross_app")
            },
            errors: &["apps"],
        },
        Case {
            what: "empty",
            edit: |p| {
                set(p, "/apps", json!({}));
                remove(p, "/cross_app")
            },
            errors: &["apps"],
        },
        Case {
            what: "not a mapping",
            edit: |p| set(p, "/apps/admin", json!("react")),
            errors: &["apps.admin"],
        },
        Case {
            what: "no framework",
            edit: |p| remove(p, "/apps/admin/framework"),
            errors: &["apps.admin.framework"],
        },
        Case {
            what: "blank spec_dir",
            edit: |p| set(p, "/apps/admin/spec_dir", json!("")),
            errors: &["apps.admin.spec_dir"],
        },
        Case {
            what: "repo not a string",
            edit: |p| set(p, "/apps/admin/repo", json!(1)),
            errors: &["apps.admin.repo"],
        },
        Case {
            what: "extra keys are allowed",
            edit: |p| set(p, "/apps/admin/port", json!(3000)),
            errors: &[],
        },
    ]);
}

#[test]
fn a_root_that_is_not_a_mapping_is_one_error() {
    let found = qa_profile::check(&json!(["a"]), None).findings;
    assert_eq!(found.errors.len(), 1);
    assert_eq!(
        found.errors[0].to_string(),
        "profile: must be a YAML mapping"
    );
}
