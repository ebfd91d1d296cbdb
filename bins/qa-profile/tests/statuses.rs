//! `clickup` and `clickup.statuses`, and the `tracker: none` mode that ignores them.

use crate::common;
use common::{check_table, findings, message_at, remove, set, warnings, Case};
use serde_json::json;

#[test]
fn clickup_needs_a_space_and_checks_its_optional_keys() {
    check_table(&[
        Case {
            what: "not a mapping",
            edit: |p| set(p, "/clickup", json!("QA")),
            errors: &["clickup"],
        },
        Case {
            what: "no space",
            edit: |p| remove(p, "/clickup/space"),
            errors: &["clickup.space"],
        },
        Case {
            what: "plan_tier business",
            edit: |p| set(p, "/clickup/plan_tier", json!("business")),
            errors: &[],
        },
        Case {
            what: "plan_tier pro",
            edit: |p| set(p, "/clickup/plan_tier", json!("pro")),
            errors: &["clickup.plan_tier"],
        },
        Case {
            what: "bug_list and folder",
            edit: |p| {
                set(p, "/clickup/bug_list", json!("Bugs"));
                set(p, "/clickup/folder", json!("Features"))
            },
            errors: &[],
        },
        Case {
            what: "blank bug_list",
            edit: |p| set(p, "/clickup/bug_list", json!("")),
            errors: &["clickup.bug_list"],
        },
        Case {
            what: "empty folder",
            edit: |p| set(p, "/clickup/folder", json!(null)),
            errors: &["clickup.folder"],
        },
    ]);
}

#[test]
fn statuses_are_all_seven_or_none() {
    check_table(&[
        Case {
            what: "one missing",
            edit: |p| remove(p, "/clickup/statuses/retest"),
            errors: &["clickup.statuses.retest"],
        },
        Case {
            what: "empty mapping",
            edit: |p| set(p, "/clickup/statuses", json!({})),
            errors: &[
                "clickup.statuses.case_review",
                "clickup.statuses.approved_for_execution",
                "clickup.statuses.under_review",
                "clickup.statuses.approved",
                "clickup.statuses.rejected",
                "clickup.statuses.retest",
                "clickup.statuses.quarantined",
            ],
        },
        Case {
            what: "a blank name",
            edit: |p| set(p, "/clickup/statuses/retest", json!(" ")),
            errors: &["clickup.statuses.retest"],
        },
        Case {
            what: "an unknown key",
            edit: |p| set(p, "/clickup/statuses/blocked", json!("blocked")),
            errors: &["clickup.statuses.blocked"],
        },
        Case {
            what: "not a mapping",
            edit: |p| set(p, "/clickup/statuses", json!(["to do"])),
            errors: &["clickup.statuses"],
        },
        Case {
            what: "none",
            edit: |p| remove(p, "/clickup/statuses"),
            errors: &[],
        },
    ]);
}

#[test]
fn status_names_are_distinct_after_trimming_and_case_folding() {
    check_table(&[
        Case {
            what: "same after folding",
            edit: |p| set(p, "/clickup/statuses/retest", json!("  Rejected ")),
            errors: &["clickup.statuses"],
        },
        Case {
            what: "different",
            edit: |p| set(p, "/clickup/statuses/retest", json!("re-run")),
            errors: &[],
        },
    ]);
    let message = message_at(
        |p| set(p, "/clickup/statuses/retest", json!("REJECTED")),
        "clickup.statuses",
    );
    assert!(message.contains("both rejected and retest"), "{message}");
}

#[test]
fn undeclared_statuses_warn_that_the_canonical_names_are_assumed() {
    assert_eq!(
        warnings(|p| remove(p, "/clickup/statuses")),
        ["clickup.statuses"]
    );
    assert_eq!(warnings(|_| {}), Vec::<String>::new());
}

#[test]
fn tracker_none_ignores_the_clickup_block_with_a_warning() {
    fn none(p: &mut serde_json::Value) {
        set(p, "/tracker", json!("none"));
        set(p, "/environments/staging/evidence_upload", json!("local"));
    }
    let found = findings(|p| {
        none(p);
        set(p, "/clickup", json!({"nonsense": true}));
    });
    assert_eq!(found.errors, []);
    let paths: Vec<&str> = found.warnings.iter().map(|w| w.path.as_str()).collect();
    assert_eq!(paths, ["clickup"]);
    assert_eq!(
        warnings(|p| {
            none(p);
            remove(p, "/clickup")
        }),
        Vec::<String>::new()
    );
}

#[test]
fn tracker_none_warns_about_a_non_local_evidence_upload() {
    let paths = warnings(|p| {
        set(p, "/tracker", json!("none"));
        remove(p, "/clickup");
        set(p, "/environments/qa/evidence_upload", json!("reference"));
    });
    // staging's golden `tracker` and qa's `reference` are both ignored.
    assert_eq!(
        paths,
        [
            "environments.qa.evidence_upload",
            "environments.staging.evidence_upload"
        ]
    );
    let local = warnings(|p| {
        set(p, "/tracker", json!("none"));
        remove(p, "/clickup");
        set(p, "/environments/staging/evidence_upload", json!("local"));
    });
    assert_eq!(local, Vec::<String>::new());
    let message = findings(|p| {
        set(p, "/tracker", json!("none"));
        remove(p, "/clickup")
    })
    .warnings[0]
        .to_string();
    assert_eq!(message, "environments.staging.evidence_upload: tracker is ignored under tracker: none; evidence stays local");
}
