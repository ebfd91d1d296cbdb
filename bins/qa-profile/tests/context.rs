//! `context.sources`.

use crate::common;
use common::{check_table, set, Case};
use serde_json::json;

fn sources(p: &mut serde_json::Value, list: serde_json::Value) {
    set(p, "/context", json!({ "sources": list }));
}

#[test]
fn a_source_with_a_command_or_a_path_is_valid() {
    check_table(&[Case {
        what: "both kinds",
        edit: |p| {
            sources(
                p,
                json!([
                    {"name": "design", "description": "Design docs, read for UI work", "path": "docs/design/**/*.md"},
                    {"name": "model", "description": "The product model", "command": "npm run -s docs:model"}
                ]),
            )
        },
        errors: &[],
    }]);
}

#[test]
fn context_holds_a_non_empty_sources_list_and_nothing_else() {
    check_table(&[
        Case {
            what: "not a mapping",
            edit: |p| set(p, "/context", json!(["docs"])),
            errors: &["context"],
        },
        Case {
            what: "no sources",
            edit: |p| set(p, "/context", json!({})),
            errors: &["context.sources"],
        },
        Case {
            what: "empty sources",
            edit: |p| sources(p, json!([])),
            errors: &["context.sources"],
        },
        Case {
            what: "an unknown key",
            edit: |p| {
                set(
                    p,
                    "/context",
                    json!({"sources": [{"name": "a", "description": "x", "path": "d"}], "extra": 1}),
                )
            },
            errors: &["context.extra"],
        },
    ]);
}

#[test]
fn each_source_is_a_named_described_mapping_with_known_keys() {
    check_table(&[
        Case {
            what: "not a mapping",
            edit: |p| sources(p, json!(["docs"])),
            errors: &["context.sources[0]"],
        },
        Case {
            what: "an unknown key",
            edit: |p| {
                sources(
                    p,
                    json!([{"name": "a", "description": "x", "path": "d", "url": "x"}]),
                )
            },
            errors: &["context.sources[0].url"],
        },
        Case {
            what: "no name",
            edit: |p| sources(p, json!([{"description": "x", "path": "docs"}])),
            errors: &["context.sources[0].name"],
        },
        Case {
            what: "blank description",
            edit: |p| {
                sources(
                    p,
                    json!([{"name": "a", "description": " ", "path": "docs"}]),
                )
            },
            errors: &["context.sources[0].description"],
        },
        Case {
            what: "a name used twice",
            edit: |p| {
                sources(
                    p,
                    json!([{"name": "a", "description": "x", "path": "docs"}, {"name": "a", "description": "y", "path": "more"}]),
                )
            },
            errors: &["context.sources[1].name"],
        },
    ]);
}

#[test]
fn each_source_has_exactly_one_of_command_or_path() {
    check_table(&[
        Case {
            what: "neither",
            edit: |p| sources(p, json!([{"name": "a", "description": "x"}])),
            errors: &["context.sources[0]"],
        },
        Case {
            what: "both",
            edit: |p| {
                sources(
                    p,
                    json!([{"name": "a", "description": "x", "command": "ls", "path": "docs"}]),
                )
            },
            errors: &["context.sources[0]"],
        },
        Case {
            what: "a blank path is none",
            edit: |p| sources(p, json!([{"name": "a", "description": "x", "path": ""}])),
            errors: &["context.sources[0]"],
        },
    ]);
}

#[test]
fn env_files_are_never_context() {
    for path in [".env", ".env.local", "config/.env.production", "**/.env*"] {
        let found = common::errors(|p| {
            sources(p, json!([{"name": "a", "description": "x", "path": path}]))
        });
        assert_eq!(found, ["context.sources[0].path"], "{path}");
    }
    let fine = common::errors(|p| {
        sources(
            p,
            json!([{"name": "a", "description": "x", "path": "docs/environment.md"}]),
        )
    });
    assert_eq!(fine, Vec::<String>::new());
}
