//! `mutation`: deny controls and request signatures for the write guard.

use crate::common;
use common::{check_table, message_at, set, Case};
use serde_json::{json, Value};

fn mutation(p: &mut Value) {
    set(
        p,
        "/mutation",
        json!({
            "deny_controls": {"text": ["^Wipe$"], "icons": ["fa-bomb"]},
            "write_signatures": [
                {"method": "POST", "url": "/graphql$", "body": "\"query\"\\s*:\\s*\"mutation", "note": "GraphQL mutation"},
                {"method": "*", "url": "/upload"}
            ],
            "allow_signatures": [{"method": "POST", "url": "/search"}]
        }),
    );
}

#[test]
fn a_well_formed_mutation_block_is_valid() {
    check_table(&[
        Case {
            what: "full",
            edit: mutation,
            errors: &[],
        },
        Case {
            what: "empty write_signatures without production",
            edit: |p| set(p, "/mutation", json!({"write_signatures": []})),
            errors: &[],
        },
    ]);
}

#[test]
fn unknown_keys_anywhere_in_mutation_are_errors() {
    check_table(&[
        Case {
            what: "misspelt list",
            edit: |p| {
                set(
                    p,
                    "/mutation",
                    json!({"write_signature": [{"method": "POST", "url": "x"}]}),
                )
            },
            errors: &["mutation.write_signature"],
        },
        Case {
            what: "deny_controls",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/deny_controls/labels", json!(["x"]))
            },
            errors: &["mutation.deny_controls.labels"],
        },
        Case {
            what: "a signature",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/write_signatures/0/headers", json!("x"))
            },
            errors: &["mutation.write_signatures[0].headers"],
        },
    ]);
}

#[test]
fn mutation_and_its_lists_have_the_right_shapes() {
    check_table(&[
        Case {
            what: "a string",
            edit: |p| set(p, "/mutation", json!("yes")),
            errors: &["mutation"],
        },
        Case {
            what: "signatures a mapping",
            edit: |p| {
                set(
                    p,
                    "/mutation",
                    json!({"write_signatures": {"method": "POST"}}),
                )
            },
            errors: &["mutation.write_signatures"],
        },
        Case {
            what: "a signature a string",
            edit: |p| set(p, "/mutation", json!({"write_signatures": ["POST /x"]})),
            errors: &["mutation.write_signatures[0]"],
        },
        Case {
            what: "deny_controls a list",
            edit: |p| set(p, "/mutation", json!({"deny_controls": ["x"]})),
            errors: &["mutation.deny_controls"],
        },
        Case {
            what: "text a string",
            edit: |p| set(p, "/mutation", json!({"deny_controls": {"text": "wipe"}})),
            errors: &["mutation.deny_controls.text"],
        },
        Case {
            what: "icons a string",
            edit: |p| {
                set(
                    p,
                    "/mutation",
                    json!({"deny_controls": {"icons": "fa-bomb"}}),
                )
            },
            errors: &["mutation.deny_controls.icons"],
        },
        Case {
            what: "a blank icon",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/deny_controls/icons/0", json!(""))
            },
            errors: &["mutation.deny_controls.icons[0]"],
        },
        Case {
            what: "a note not a string",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/write_signatures/0/note", json!(3))
            },
            errors: &["mutation.write_signatures[0].note"],
        },
    ]);
}

#[test]
fn a_method_is_an_uppercase_http_verb_or_a_star() {
    check_table(&[
        Case {
            what: "DELETE",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/write_signatures/0/method", json!("DELETE"))
            },
            errors: &[],
        },
        Case {
            what: "lowercase",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/write_signatures/0/method", json!("post"))
            },
            errors: &["mutation.write_signatures[0].method"],
        },
        Case {
            what: "FETCH",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/write_signatures/0/method", json!("FETCH"))
            },
            errors: &["mutation.write_signatures[0].method"],
        },
        Case {
            what: "missing",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/allow_signatures/0", json!({"url": "/search"}))
            },
            errors: &["mutation.allow_signatures[0].method"],
        },
    ]);
}

#[test]
fn url_is_required_and_every_pattern_compiles_as_javascript() {
    check_table(&[
        Case {
            what: "no url",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/write_signatures/1", json!({"method": "*"}))
            },
            errors: &["mutation.write_signatures[1].url"],
        },
        Case {
            what: "bad url",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/allow_signatures/0/url", json!("("))
            },
            errors: &["mutation.allow_signatures[0].url"],
        },
        Case {
            what: "bad body",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/write_signatures/0/body", json!("["))
            },
            errors: &["mutation.write_signatures[0].body"],
        },
        Case {
            what: "null body",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/write_signatures/0/body", json!(null))
            },
            errors: &["mutation.write_signatures[0].body"],
        },
        Case {
            what: "bad deny text",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/deny_controls/text/0", json!("("))
            },
            errors: &["mutation.deny_controls.text[0]"],
        },
        Case {
            what: "blank deny text",
            edit: |p| {
                mutation(p);
                set(p, "/mutation/deny_controls/text/0", json!(""))
            },
            errors: &["mutation.deny_controls.text[0]"],
        },
        // ECMAScript syntax Rust's regex crate refuses: lookaround, a literal brace.
        Case {
            what: "lookahead url",
            edit: |p| {
                mutation(p);
                set(
                    p,
                    "/mutation/write_signatures/1/url",
                    json!("/api/(?!read)"),
                )
            },
            errors: &[],
        },
        Case {
            what: "brace in body",
            edit: |p| {
                mutation(p);
                set(
                    p,
                    "/mutation/write_signatures/0/body",
                    json!("\"variables\":{"),
                )
            },
            errors: &[],
        },
    ]);
    assert!(message_at(
        |p| {
            mutation(p);
            set(p, "/mutation/allow_signatures/0/url", json!("("))
        },
        "mutation.allow_signatures[0].url"
    )
    .starts_with("does not compile"));
}

#[test]
fn every_write_guard_pattern_with_nested_quantifiers_warns() {
    for (pointer, path) in [
        (
            "/mutation/write_signatures/0/url",
            "mutation.write_signatures[0].url",
        ),
        (
            "/mutation/write_signatures/0/body",
            "mutation.write_signatures[0].body",
        ),
        (
            "/mutation/allow_signatures/0/url",
            "mutation.allow_signatures[0].url",
        ),
        (
            "/mutation/deny_controls/text/0",
            "mutation.deny_controls.text[0]",
        ),
    ] {
        let found = common::findings(|p| {
            mutation(p);
            set(p, pointer, json!("^/api/(a+)+$"));
        });
        assert!(found.is_valid(), "{:?}", found.errors);
        let warned: Vec<&str> = found.warnings.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(warned, [path]);
    }
}

#[test]
fn write_guard_patterns_without_nested_quantifiers_do_not_warn() {
    let found = common::findings(mutation);
    assert!(found.warnings.is_empty(), "{:?}", found.warnings);
}

#[test]
fn deny_text_alternatives_overlap_ignoring_case() {
    let found = common::findings(|p| {
        mutation(p);
        set(
            p,
            "/mutation/deny_controls/text/0",
            json!("^(Delete|del)+$"),
        );
    });
    let warned: Vec<&str> = found.warnings.iter().map(|w| w.path.as_str()).collect();
    assert_eq!(warned, ["mutation.deny_controls.text[0]"]);
}
