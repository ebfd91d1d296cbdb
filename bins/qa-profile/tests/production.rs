//! What `kind: production` demands: test account, local evidence, full capture, a write
//! guard with signatures.

use crate::common;
use common::{add_production, check_table, errors, message_at, remove, set, Case};
use serde_json::json;

#[test]
fn a_complete_production_environment_is_valid() {
    assert_eq!(errors(add_production), Vec::<String>::new());
}

#[test]
fn production_needs_a_test_account_of_twenty_characters_after_trimming() {
    check_table(&[
        Case {
            what: "exactly 20",
            edit: |p| {
                add_production(p);
                set(
                    p,
                    "/environments/prod/test_account",
                    json!("  12345678901234567890  "),
                )
            },
            errors: &[],
        },
        Case {
            what: "missing",
            edit: |p| {
                add_production(p);
                remove(p, "/environments/prod/test_account")
            },
            errors: &["environments.prod.test_account"],
        },
        Case {
            what: "null",
            edit: |p| {
                add_production(p);
                set(p, "/environments/prod/test_account", json!(null))
            },
            errors: &["environments.prod.test_account"],
        },
        Case {
            what: "19 after trimming",
            edit: |p| {
                add_production(p);
                set(
                    p,
                    "/environments/prod/test_account",
                    json!("   1234567890123456789   "),
                )
            },
            errors: &["environments.prod.test_account"],
        },
        Case {
            what: "not a string",
            edit: |p| {
                add_production(p);
                set(
                    p,
                    "/environments/prod/test_account",
                    json!(["qa-runner@shop.example.com, no admin"]),
                )
            },
            errors: &["environments.prod.test_account"],
        },
    ]);
}

#[test]
fn elsewhere_a_test_account_is_optional_but_checked_when_present() {
    check_table(&[
        Case {
            what: "absent",
            edit: |_| {},
            errors: &[],
        },
        Case {
            what: "long enough",
            edit: |p| {
                set(
                    p,
                    "/environments/qa/test_account",
                    json!("qa-runner@example.com, no admin"),
                )
            },
            errors: &[],
        },
        Case {
            what: "short",
            edit: |p| set(p, "/environments/qa/test_account", json!("qa-runner")),
            errors: &["environments.qa.test_account"],
        },
        Case {
            what: "null counts as present",
            edit: |p| set(p, "/environments/qa/test_account", json!(null)),
            errors: &["environments.qa.test_account"],
        },
    ]);
}

#[test]
fn production_evidence_stays_local() {
    check_table(&[
        Case {
            what: "local",
            edit: |p| {
                add_production(p);
                set(p, "/environments/prod/evidence_upload", json!("local"))
            },
            errors: &[],
        },
        Case {
            what: "tracker",
            edit: |p| {
                add_production(p);
                set(p, "/environments/prod/evidence_upload", json!("tracker"))
            },
            errors: &["environments.prod.evidence_upload"],
        },
        Case {
            what: "reference",
            edit: |p| {
                add_production(p);
                set(p, "/environments/prod/evidence_upload", json!("reference"))
            },
            errors: &["environments.prod.evidence_upload"],
        },
    ]);
    let message = message_at(
        |p| {
            add_production(p);
            set(p, "/environments/prod/evidence_upload", json!("reference"))
        },
        "environments.prod.evidence_upload",
    );
    assert!(message.starts_with("reference is refused"), "{message}");
}

#[test]
fn production_needs_capture_always() {
    check_table(&[
        Case {
            what: "absent means always",
            edit: |p| {
                add_production(p);
                remove(p, "/evidence/capture")
            },
            errors: &[],
        },
        Case {
            what: "on-failure",
            edit: |p| {
                add_production(p);
                set(p, "/evidence/capture", json!("on-failure"))
            },
            errors: &["evidence.capture"],
        },
        Case {
            what: "off",
            edit: |p| {
                add_production(p);
                set(p, "/evidence/capture", json!("off"))
            },
            errors: &["evidence.capture"],
        },
        Case {
            what: "off without production",
            edit: |p| set(p, "/evidence/capture", json!("off")),
            errors: &[],
        },
    ]);
}

#[test]
fn production_needs_a_mutation_block_with_a_write_signature() {
    check_table(&[
        Case {
            what: "no mutation",
            edit: |p| {
                add_production(p);
                remove(p, "/mutation")
            },
            errors: &["mutation"],
        },
        Case {
            what: "no write_signatures",
            edit: |p| {
                add_production(p);
                set(p, "/mutation", json!({"deny_controls": {"text": ["wipe"]}}))
            },
            errors: &["mutation.write_signatures"],
        },
        Case {
            what: "empty write_signatures",
            edit: |p| {
                add_production(p);
                set(p, "/mutation/write_signatures", json!([]))
            },
            errors: &["mutation.write_signatures"],
        },
        Case {
            what: "only allow_signatures",
            edit: |p| {
                add_production(p);
                set(
                    p,
                    "/mutation",
                    json!({"allow_signatures": [{"method": "POST", "url": "/search"}]}),
                )
            },
            errors: &["mutation.write_signatures"],
        },
        Case {
            what: "no mutation without production",
            edit: |p| remove(p, "/mutation"),
            errors: &[],
        },
    ]);
}

#[test]
fn a_production_environment_cannot_host_stabilization() {
    assert_eq!(
        errors(|p| {
            add_production(p);
            set(p, "/stabilization", json!({"env": "prod"}))
        }),
        ["stabilization.env"]
    );
}
