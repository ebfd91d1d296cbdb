//! `environments`: declared kinds, app URLs, evidence upload, and the hostname warnings.

use crate::common;
use common::{check_table, errors, message_at, remove, set, warnings, Case};
use serde_json::json;

#[test]
fn environments_need_at_least_one_mapping() {
    check_table(&[
        Case {
            what: "missing",
            edit: |p| remove(p, "/environments"),
            errors: &["environments"],
        },
        Case {
            what: "empty",
            edit: |p| set(p, "/environments", json!({})),
            errors: &["environments"],
        },
        Case {
            what: "not a mapping",
            edit: |p| set(p, "/environments/qa", json!("https://qa.x.com")),
            errors: &["environments.qa"],
        },
    ]);
}

#[test]
fn only_one_environment_is_a_warning() {
    assert_eq!(
        warnings(|p| remove(p, "/environments/staging")),
        ["environments"]
    );
    assert_eq!(warnings(|_| {}), Vec::<String>::new());
}

#[test]
fn kind_is_required_and_never_guessed() {
    check_table(&[
        Case {
            what: "staging",
            edit: |p| set(p, "/environments/qa/kind", json!("staging")),
            errors: &[],
        },
        Case {
            what: "missing",
            edit: |p| remove(p, "/environments/qa/kind"),
            errors: &["environments.qa.kind"],
        },
        Case {
            what: "empty",
            edit: |p| set(p, "/environments/qa/kind", json!(null)),
            errors: &["environments.qa.kind"],
        },
        Case {
            what: "undocumented",
            edit: |p| set(p, "/environments/qa/kind", json!("prod")),
            errors: &["environments.qa.kind"],
        },
    ]);
    assert!(message_at(
        |p| remove(p, "/environments/qa/kind"),
        "environments.qa.kind"
    )
    .starts_with("required"));
    assert!(message_at(
        |p| set(p, "/environments/qa/kind", json!("prod")),
        "environments.qa.kind"
    )
    .contains("\"prod\" is not one of"));
}

#[test]
fn environment_apps_are_declared_apps_at_http_urls() {
    check_table(&[
        Case {
            what: "missing",
            edit: |p| remove(p, "/environments/qa/apps"),
            errors: &["environments.qa.apps"],
        },
        Case {
            what: "empty",
            edit: |p| set(p, "/environments/qa/apps", json!({})),
            errors: &["environments.qa.apps"],
        },
        Case {
            what: "undeclared app",
            edit: |p| {
                set(
                    p,
                    "/environments/qa/apps/blog",
                    json!("https://blog.qa.x.com"),
                )
            },
            errors: &["environments.qa.apps.blog"],
        },
        Case {
            what: "ftp",
            edit: |p| set(p, "/environments/qa/apps/admin", json!("ftp://qa.x.com")),
            errors: &["environments.qa.apps.admin"],
        },
        Case {
            what: "no scheme",
            edit: |p| set(p, "/environments/qa/apps/admin", json!("qa.x.com")),
            errors: &["environments.qa.apps.admin"],
        },
        Case {
            what: "a space",
            edit: |p| {
                set(
                    p,
                    "/environments/qa/apps/admin",
                    json!("https://qa.x.com/a b"),
                )
            },
            errors: &["environments.qa.apps.admin"],
        },
        Case {
            what: "http with a port",
            edit: |p| {
                set(
                    p,
                    "/environments/qa/apps/admin",
                    json!("http://localhost:8080"),
                )
            },
            errors: &[],
        },
        Case {
            what: "undeclared and no URL",
            edit: |p| set(p, "/environments/qa/apps/blog", json!(3)),
            errors: &["environments.qa.apps.blog", "environments.qa.apps.blog"],
        },
    ]);
}

#[test]
fn allow_production_is_rejected() {
    assert_eq!(
        errors(|p| set(p, "/environments/qa/allow_production", json!(true))),
        ["environments.qa.allow_production"]
    );
    assert_eq!(
        errors(|p| set(p, "/environments/qa/allow_production", json!(false))),
        ["environments.qa.allow_production"]
    );
}

#[test]
fn evidence_upload_is_one_of_the_documented_values() {
    check_table(&[
        Case {
            what: "reference",
            edit: |p| set(p, "/environments/qa/evidence_upload", json!("reference")),
            errors: &[],
        },
        Case {
            what: "local",
            edit: |p| set(p, "/environments/qa/evidence_upload", json!("local")),
            errors: &[],
        },
        Case {
            what: "s3",
            edit: |p| set(p, "/environments/qa/evidence_upload", json!("s3")),
            errors: &["environments.qa.evidence_upload"],
        },
        Case {
            what: "empty",
            edit: |p| set(p, "/environments/qa/evidence_upload", json!(null)),
            errors: &["environments.qa.evidence_upload"],
        },
    ]);
}

#[test]
fn a_production_looking_url_on_another_kind_only_warns() {
    let found = common::findings(|p| {
        set(
            p,
            "/environments/qa/apps/storefront",
            json!("https://shop.com"),
        )
    });
    assert_eq!(found.errors, []);
    let paths: Vec<&str> = found.warnings.iter().map(|w| w.path.as_str()).collect();
    assert_eq!(paths, ["environments.qa.apps.storefront"]);
    assert!(
        found.warnings[0].message.contains("kind is qa"),
        "{}",
        found.warnings[0]
    );
}

#[test]
fn production_labels_warn_and_pre_production_labels_do_not() {
    for url in [
        "https://prod.shop.example.com",
        "https://live-shop.example.com",
        "https://www.shop.io/",
    ] {
        let paths = warnings(|p| set(p, "/environments/qa/apps/storefront", json!(url)));
        assert_eq!(paths, ["environments.qa.apps.storefront"], "{url}");
    }
    for url in [
        "https://qa.prod.example.com",
        "https://staging-live.example.com",
        "https://app.shop.example.com",
        "https://dev.shop.com",
    ] {
        assert_eq!(
            warnings(|p| set(p, "/environments/qa/apps/storefront", json!(url))),
            Vec::<String>::new(),
            "{url}"
        );
    }
}

#[test]
fn a_production_kind_is_not_warned_about_its_production_url() {
    let found = common::findings(|p| {
        common::add_production(p);
    });
    assert_eq!(found.errors, []);
    assert_eq!(found.warnings, []);
}
