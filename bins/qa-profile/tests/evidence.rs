//! `assertions` and `evidence`.

use crate::common;
use common::{check_table, remove, set, warnings, Case};
use serde_json::json;

#[test]
fn assertions_need_network_events_and_style() {
    check_table(&[
        Case {
            what: "missing",
            edit: |p| remove(p, "/assertions"),
            errors: &["assertions"],
        },
        Case {
            what: "no network_events",
            edit: |p| remove(p, "/assertions/network_events"),
            errors: &["assertions.network_events"],
        },
        Case {
            what: "bad style",
            edit: |p| set(p, "/assertions/style", json!("snapshot")),
            errors: &["assertions.style"],
        },
        Case {
            what: "forbidden with ui-state",
            edit: |p| {
                set(p, "/assertions/network_events", json!("forbidden"));
                set(p, "/assertions/style", json!("ui-state"))
            },
            errors: &[],
        },
        Case {
            what: "forbidden with mixed",
            edit: |p| set(p, "/assertions/network_events", json!("forbidden")),
            errors: &["assertions.style"],
        },
    ]);
}

#[test]
fn evidence_is_optional_and_its_extra_is_a_list_of_known_values() {
    check_table(&[
        Case {
            what: "absent",
            edit: |p| remove(p, "/evidence"),
            errors: &[],
        },
        Case {
            what: "not a mapping",
            edit: |p| set(p, "/evidence", json!("always")),
            errors: &["evidence"],
        },
        Case {
            what: "extra not a list",
            edit: |p| set(p, "/evidence/extra", json!("console_log")),
            errors: &["evidence.extra"],
        },
        Case {
            what: "unknown extra",
            edit: |p| set(p, "/evidence/extra", json!(["console_log", "har", "video"])),
            errors: &["evidence.extra", "evidence.extra"],
        },
        Case {
            what: "empty extra",
            edit: |p| set(p, "/evidence/extra", json!([])),
            errors: &[],
        },
    ]);
}

#[test]
fn capture_is_always_on_failure_or_off_and_empty_means_always() {
    check_table(&[
        Case {
            what: "empty",
            edit: |p| set(p, "/evidence/capture", json!(null)),
            errors: &[],
        },
        Case {
            what: "on-failure",
            edit: |p| set(p, "/evidence/capture", json!("on-failure")),
            errors: &[],
        },
        Case {
            what: "sometimes",
            edit: |p| set(p, "/evidence/capture", json!("sometimes")),
            errors: &["evidence.capture"],
        },
        Case {
            what: "a boolean",
            edit: |p| set(p, "/evidence/capture", json!(true)),
            errors: &["evidence.capture"],
        },
    ]);
}

#[test]
fn thin_capture_modes_warn() {
    assert_eq!(
        warnings(|p| set(p, "/evidence/capture", json!("on-failure"))),
        ["evidence.capture"]
    );
    assert_eq!(
        warnings(|p| set(p, "/evidence/capture", json!("off"))),
        ["evidence.capture"]
    );
    assert_eq!(
        warnings(|p| set(p, "/evidence/capture", json!("always"))),
        Vec::<String>::new()
    );
}

#[test]
fn no_extra_evidence_with_network_assertions_forbidden_warns() {
    fn forbidden(p: &mut serde_json::Value) {
        set(p, "/assertions/network_events", json!("forbidden"));
        set(p, "/assertions/style", json!("ui-state"));
    }
    assert_eq!(
        warnings(|p| {
            forbidden(p);
            remove(p, "/evidence")
        }),
        ["evidence.extra"]
    );
    assert_eq!(
        warnings(|p| {
            forbidden(p);
            set(p, "/evidence/extra", json!([]))
        }),
        ["evidence.extra"]
    );
    assert_eq!(warnings(forbidden), Vec::<String>::new());
    assert_eq!(warnings(|p| remove(p, "/evidence")), Vec::<String>::new());
}
