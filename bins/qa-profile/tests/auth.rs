//! `auth`: sign-in model, Playwright floor, IndexedDB storage state.

use crate::common;
use common::{check_table, message_at, remove, set, Case};
use serde_json::json;

#[test]
fn auth_and_its_model_are_required() {
    check_table(&[
        Case {
            what: "missing",
            edit: |p| remove(p, "/auth"),
            errors: &["auth"],
        },
        Case {
            what: "dev-handoff",
            edit: |p| set(p, "/auth/model", json!("dev-handoff")),
            errors: &[],
        },
        Case {
            what: "no model",
            edit: |p| remove(p, "/auth/model"),
            errors: &["auth.model"],
        },
        Case {
            what: "sso",
            edit: |p| set(p, "/auth/model", json!("sso")),
            errors: &["auth.model"],
        },
    ]);
}

#[test]
fn playwright_min_is_a_quoted_semver_at_least_1_51_0() {
    check_table(&[
        Case {
            what: "1.51.0",
            edit: |p| set(p, "/auth/playwright_min", json!("1.51.0")),
            errors: &[],
        },
        Case {
            what: "1.60 quoted",
            edit: |p| set(p, "/auth/playwright_min", json!("1.60")),
            errors: &[],
        },
        Case {
            what: "2.0.0-beta",
            edit: |p| set(p, "/auth/playwright_min", json!("2.0.0-beta")),
            errors: &[],
        },
        Case {
            what: "1.50.9",
            edit: |p| set(p, "/auth/playwright_min", json!("1.50.9")),
            errors: &["auth.playwright_min"],
        },
        Case {
            what: "missing",
            edit: |p| remove(p, "/auth/playwright_min"),
            errors: &["auth.playwright_min"],
        },
        Case {
            what: "not a version",
            edit: |p| set(p, "/auth/playwright_min", json!("latest")),
            errors: &["auth.playwright_min"],
        },
        Case {
            what: "a number",
            edit: |p| set(p, "/auth/playwright_min", json!(1.6)),
            errors: &["auth.playwright_min"],
        },
    ]);
}

#[test]
fn an_unquoted_version_gets_the_quoting_hint_with_what_yaml_read() {
    let profile = include_str!("fixtures/golden.yaml")
        .replace("playwright_min: \"1.52.0\"", "playwright_min: 1.60");
    let value = qa_profile::yaml::parse(profile.as_bytes()).unwrap();
    let found = qa_profile::check(&value, None).findings;
    assert_eq!(found.errors.len(), 1);
    assert!(
        found.errors[0]
            .message
            .starts_with("quote the version (\"1.6\")"),
        "{}",
        found.errors[0]
    );
    let below = message_at(
        |p| set(p, "/auth/playwright_min", json!("1.50")),
        "auth.playwright_min",
    );
    assert!(below.starts_with("must be >= 1.51.0"), "{below}");
}

#[test]
fn storage_state_must_keep_indexed_db() {
    check_table(&[
        Case {
            what: "missing",
            edit: |p| remove(p, "/auth/storage_state"),
            errors: &["auth.storage_state"],
        },
        Case {
            what: "false",
            edit: |p| set(p, "/auth/storage_state/indexed_db", json!(false)),
            errors: &["auth.storage_state.indexed_db"],
        },
        Case {
            what: "the string true",
            edit: |p| set(p, "/auth/storage_state/indexed_db", json!("true")),
            errors: &["auth.storage_state.indexed_db"],
        },
        Case {
            what: "absent",
            edit: |p| remove(p, "/auth/storage_state/indexed_db"),
            errors: &["auth.storage_state.indexed_db"],
        },
        Case {
            what: "dir optional",
            edit: |p| remove(p, "/auth/storage_state/dir"),
            errors: &[],
        },
        Case {
            what: "dir blank",
            edit: |p| set(p, "/auth/storage_state/dir", json!("")),
            errors: &["auth.storage_state.dir"],
        },
    ]);
}
