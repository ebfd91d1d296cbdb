//! `cross_app`: required with more than one app.

use crate::common;
use common::{check_table, remove, set, Case};
use serde_json::json;

#[test]
fn cross_app_is_required_only_with_more_than_one_app() {
    check_table(&[
        Case {
            what: "two apps, missing",
            edit: |p| remove(p, "/cross_app"),
            errors: &["cross_app"],
        },
        Case {
            what: "one app, missing",
            edit: |p| {
                remove(p, "/apps/admin");
                remove(p, "/environments/qa/apps/admin");
                remove(p, "/cross_app");
            },
            errors: &[],
        },
    ]);
}

#[test]
fn the_propagation_window_is_an_integer_from_1_to_600() {
    check_table(&[
        Case {
            what: "1",
            edit: |p| set(p, "/cross_app/propagation_window_s", json!(1)),
            errors: &[],
        },
        Case {
            what: "600",
            edit: |p| set(p, "/cross_app/propagation_window_s", json!(600)),
            errors: &[],
        },
        Case {
            what: "90.0 is an integer",
            edit: |p| set(p, "/cross_app/propagation_window_s", json!(90.0)),
            errors: &[],
        },
        Case {
            what: "0",
            edit: |p| set(p, "/cross_app/propagation_window_s", json!(0)),
            errors: &["cross_app.propagation_window_s"],
        },
        Case {
            what: "601",
            edit: |p| set(p, "/cross_app/propagation_window_s", json!(601)),
            errors: &["cross_app.propagation_window_s"],
        },
        Case {
            what: "1.5",
            edit: |p| set(p, "/cross_app/propagation_window_s", json!(1.5)),
            errors: &["cross_app.propagation_window_s"],
        },
        Case {
            what: "a string",
            edit: |p| set(p, "/cross_app/propagation_window_s", json!("30")),
            errors: &["cross_app.propagation_window_s"],
        },
        Case {
            what: "missing",
            edit: |p| remove(p, "/cross_app/propagation_window_s"),
            errors: &["cross_app.propagation_window_s"],
        },
    ]);
}

#[test]
fn spec_home_is_a_declared_app() {
    check_table(&[
        Case {
            what: "admin",
            edit: |p| set(p, "/cross_app/spec_home", json!("admin")),
            errors: &[],
        },
        Case {
            what: "undeclared",
            edit: |p| set(p, "/cross_app/spec_home", json!("blog")),
            errors: &["cross_app.spec_home"],
        },
        Case {
            what: "missing",
            edit: |p| remove(p, "/cross_app/spec_home"),
            errors: &["cross_app.spec_home"],
        },
    ]);
}
