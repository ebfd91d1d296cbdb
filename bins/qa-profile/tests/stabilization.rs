//! `stabilization`: a registered, non-production environment, and nothing else.

use crate::common;
use common::{add_production, check_table, set, Case};
use serde_json::json;

#[test]
fn stabilization_names_a_registered_non_production_environment() {
    check_table(&[
        Case {
            what: "staging",
            edit: |p| set(p, "/stabilization", json!({"env": "staging"})),
            errors: &[],
        },
        Case {
            what: "not a mapping",
            edit: |p| set(p, "/stabilization", json!("staging")),
            errors: &["stabilization"],
        },
        Case {
            what: "no env",
            edit: |p| set(p, "/stabilization", json!({})),
            errors: &["stabilization.env"],
        },
        Case {
            what: "unregistered",
            edit: |p| set(p, "/stabilization", json!({"env": "preview"})),
            errors: &["stabilization.env"],
        },
        Case {
            what: "production",
            edit: |p| {
                add_production(p);
                set(p, "/stabilization", json!({"env": "prod"}))
            },
            errors: &["stabilization.env"],
        },
    ]);
}

#[test]
fn unknown_keys_under_stabilization_are_errors() {
    check_table(&[Case {
        what: "envs",
        edit: |p| set(p, "/stabilization", json!({"env": "qa", "runs": 3})),
        errors: &["stabilization.runs"],
    }]);
}
