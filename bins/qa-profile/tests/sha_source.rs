//! `sha_source`: how the deployed build is identified.

use crate::common;
use common::{check_table, message_at, remove, set, warnings, Case};
use serde_json::json;

#[test]
fn sha_source_is_required_with_an_http_url() {
    check_table(&[
        Case {
            what: "missing",
            edit: |p| remove(p, "/environments/qa/sha_source"),
            errors: &["environments.qa.sha_source"],
        },
        Case {
            what: "a string",
            edit: |p| {
                set(
                    p,
                    "/environments/qa/sha_source",
                    json!("https://qa.x.com/v"),
                )
            },
            errors: &["environments.qa.sha_source"],
        },
        Case {
            what: "no url",
            edit: |p| remove(p, "/environments/qa/sha_source/url"),
            errors: &["environments.qa.sha_source.url"],
        },
        Case {
            what: "file url",
            edit: |p| {
                set(
                    p,
                    "/environments/qa/sha_source/url",
                    json!("file:///version.json"),
                )
            },
            errors: &["environments.qa.sha_source.url"],
        },
    ]);
}

#[test]
fn exactly_one_of_json_path_or_regex() {
    check_table(&[
        Case {
            what: "json_path",
            edit: |_| {},
            errors: &[],
        },
        Case {
            what: "both",
            edit: |p| set(p, "/environments/qa/sha_source/regex", json!("v=(\\w+)")),
            errors: &["environments.qa.sha_source"],
        },
        Case {
            what: "neither",
            edit: |p| remove(p, "/environments/qa/sha_source/json_path"),
            errors: &["environments.qa.sha_source"],
        },
        Case {
            what: "blank counts as absent",
            edit: |p| set(p, "/environments/qa/sha_source/json_path", json!(" ")),
            errors: &["environments.qa.sha_source"],
        },
    ]);
}

#[test]
fn a_regex_compiles_as_javascript_with_a_capture_group() {
    check_table(&[
        Case {
            what: "one group",
            edit: |_| {},
            errors: &[],
        },
        Case {
            what: "a named group",
            edit: |p| {
                set(
                    p,
                    "/environments/staging/sha_source/regex",
                    json!("(?<sha>[0-9a-f]{40})"),
                )
            },
            errors: &[],
        },
        Case {
            what: "lookbehind",
            edit: |p| {
                set(
                    p,
                    "/environments/staging/sha_source/regex",
                    json!("(?<=build: )(\\w+)"),
                )
            },
            errors: &[],
        },
        Case {
            what: "no group",
            edit: |p| {
                set(
                    p,
                    "/environments/staging/sha_source/regex",
                    json!("[0-9a-f]{40}"),
                )
            },
            errors: &["environments.staging.sha_source.regex"],
        },
        Case {
            what: "only a non-capturing group",
            edit: |p| {
                set(
                    p,
                    "/environments/staging/sha_source/regex",
                    json!("(?:[0-9a-f]{40})"),
                )
            },
            errors: &["environments.staging.sha_source.regex"],
        },
        Case {
            what: "does not compile",
            edit: |p| {
                set(
                    p,
                    "/environments/staging/sha_source/regex",
                    json!("([0-9a-f]{40}"),
                )
            },
            errors: &["environments.staging.sha_source.regex"],
        },
    ]);
    assert!(message_at(
        |p| set(p, "/environments/staging/sha_source/regex", json!("(")),
        "environments.staging.sha_source.regex"
    )
    .starts_with("not a valid regular expression"));
}

#[test]
fn format_is_commit_or_build_id() {
    check_table(&[
        Case {
            what: "commit",
            edit: |p| set(p, "/environments/qa/sha_source/format", json!("commit")),
            errors: &[],
        },
        Case {
            what: "build-id",
            edit: |p| set(p, "/environments/qa/sha_source/format", json!("build-id")),
            errors: &[],
        },
        Case {
            what: "sha",
            edit: |p| set(p, "/environments/qa/sha_source/format", json!("sha")),
            errors: &["environments.qa.sha_source.format"],
        },
        Case {
            what: "empty",
            edit: |p| set(p, "/environments/qa/sha_source/format", json!(null)),
            errors: &["environments.qa.sha_source.format"],
        },
    ]);
}

#[test]
fn build_id_warns_and_commit_does_not() {
    assert_eq!(
        warnings(|p| set(p, "/environments/qa/sha_source/format", json!("build-id"))),
        ["environments.qa.sha_source.format"]
    );
    assert_eq!(
        warnings(|p| set(p, "/environments/qa/sha_source/format", json!("commit"))),
        Vec::<String>::new()
    );
}

// A regex qa-fetch matches against the deployed server's body: a pattern a backtracking
// matcher can take hours on is a warning (the profile stays valid).

fn regex_warnings(regex: &str) -> Vec<String> {
    let regex = regex.to_string();
    warnings(move |p| set(p, "/environments/staging/sha_source/regex", json!(regex)))
}

#[test]
fn a_regex_with_nested_quantifiers_warns() {
    for regex in [
        "build-((a+)+)$",
        "build-((a*)*)",
        "build-((a|aa)+)",
        r"v=((?:\w+\s?)*)",
    ] {
        assert_eq!(
            regex_warnings(regex),
            ["environments.staging.sha_source.regex"],
            "{regex}"
        );
        let found =
            common::findings(|p| set(p, "/environments/staging/sha_source/regex", json!(regex)));
        assert!(found.is_valid(), "a warning, not an error: {regex}");
        assert!(
            found.warnings[0].message.contains("exponential time"),
            "{}",
            found.warnings[0].message
        );
    }
}

#[test]
fn an_ordinary_regex_does_not_warn() {
    for regex in [
        r"assets/index-([A-Za-z0-9_-]+)\.js",
        r"(?<sha>[0-9a-f]{40})",
        r#""commit":\s*"([0-9a-f]{7,40})""#,
        r"v((?:\d+\.){2}\d+)",
        r"build-((?:ab)+)",
        r"env-((?:qa|staging)+)",
    ] {
        assert_eq!(regex_warnings(regex), Vec::<String>::new(), "{regex}");
    }
}
