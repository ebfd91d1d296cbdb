//! The filter contract: forwarding byte for byte, what is appended and in which order,
//! decisions end to end, capability receipts, and bad input.

use crate::common;

use common::*;
use qa_records::change::{Confidence, Priority, Relation};
use qa_records::Record;
use serde_json::Value;

const UNKNOWN: &str = r#"{"kind":"x-note",  "v":3,"id":"sha256:0000000000000000000000000000000000000000000000000000000000000000","by":"x","from":[],"src":{},"data":{"b":1, "a":2}}"#;

fn rust_repo() -> Tree {
    let tree = Tree::new();
    tree.write("Cargo.toml", "[package]\nname = \"shop\"\n")
        .write("src/login.rs", "");
    tree
}

/// A scenario of `i` resting on one line of `src/login.rs`.
fn on_login(i: &Record, title: &str, priority: Priority, line: u32, relation: Relation) -> Record {
    scenario(i, title, priority, &[("src/login.rs", line, relation)])
}

#[test]
fn every_input_line_is_forwarded_byte_for_byte_before_the_new_records() {
    let tree = rust_repo();
    let i = intent(&["src/login.rs"], &[], Confidence::High);
    let s = on_login(&i, "expired", Priority::Critical, 3, Relation::Direct);
    let mut input = format!("{UNKNOWN}\r\n\n").into_bytes();
    input.extend(ndjson(&[&i, &s]));
    let run = qa_route(tree.path(), &Stubs::new(&["cargo"]), &input, &[]);
    run.records();
    let expected = [UNKNOWN.as_bytes().to_vec(), i.to_line(), s.to_line()];
    let lines: Vec<&[u8]> = run.output.stdout.split(|b| *b == b'\n').collect();
    for (n, want) in expected.iter().enumerate() {
        assert_eq!(lines[n], want.as_slice(), "line {n}");
    }
}

#[test]
fn routes_in_scenario_order_then_diags_then_capabilities_in_documented_order() {
    let tree = rust_repo();
    let i = intent(&["src/login.rs"], &[], Confidence::High);
    let a = on_login(&i, "a", Priority::Recommended, 3, Relation::Direct);
    let b = on_login(&i, "b", Priority::Critical, 4, Relation::Supporting);
    let run = qa_route(tree.path(), &Stubs::new(&[]), &ndjson(&[&i, &a, &b]), &[]);
    let records = run.records();
    let appended: Vec<(&str, String)> = records[3..]
        .iter()
        .map(|r| {
            let what = match r["kind"].as_str().unwrap() {
                "route" => r["data"]["subject"].as_str().unwrap().to_string(),
                "capability" => r["data"]["name"].as_str().unwrap().to_string(),
                _ => String::new(),
            };
            (r["kind"].as_str().unwrap(), what)
        })
        .collect();
    assert_eq!(
        appended,
        [
            ("route", a.id.clone()),
            ("route", b.id.clone()),
            ("diag", String::new()),
            ("capability", "change-intent".into()),
            ("capability", "behavior-impact".into()),
            ("capability", "scenario-routing".into()),
            ("capability", "repository-validation".into()),
            ("capability", "automation-drafting".into()),
        ]
    );
}

#[test]
fn a_route_derives_from_its_scenario_and_intent() {
    let tree = rust_repo();
    let stubs = Stubs::new(&["cargo"]);
    let routed = route_one(tree.path(), &stubs, "src/login.rs", &[], &[]);
    let route = of_kind(&routed.records, "route")[0];
    assert_eq!(
        route["from"],
        serde_json::json!([routed.scenario.id, routed.intent.id])
    );
}

#[test]
fn a_scenario_whose_intent_is_not_in_the_stream_is_routed_with_a_warning() {
    let tree = rust_repo();
    let i = intent(&["src/login.rs"], &[], Confidence::High);
    let s = on_login(&i, "a", Priority::Critical, 3, Relation::Direct);
    let records = qa_route(tree.path(), &Stubs::new(&["cargo"]), &ndjson(&[&s]), &[]).records();
    let route = of_kind(&records, "route")[0];
    assert_eq!(route["from"], serde_json::json!([s.id]));
    assert!(
        diags(&records)[0].contains("not earlier in the stream"),
        "{:?}",
        diags(&records)
    );
    assert_eq!(route["data"]["command"]["run"], "cargo test -p shop");
}

#[test]
fn decisions_follow_priority_and_located_evidence() {
    let tree = rust_repo();
    let i = intent(&["src/login.rs"], &[], Confidence::High);
    let required = scenario(
        &i,
        "r",
        Priority::Critical,
        &[
            ("src/login.rs", 3, Relation::Direct),
            ("src/login.rs", 9, Relation::Supporting),
        ],
    );
    let recommended = on_login(&i, "m", Priority::Recommended, 3, Relation::Direct);
    let review = scenario(
        &i,
        "v",
        Priority::Critical,
        &[
            ("", 0, Relation::Direct),
            ("src/login.rs", 1, Relation::Contextual),
        ],
    );
    let records = qa_route(
        tree.path(),
        &Stubs::new(&["cargo"]),
        &ndjson(&[&i, &required, &recommended, &review]),
        &[],
    )
    .records();
    let routes: Vec<&Value> = of_kind(&records, "route")
        .iter()
        .map(|r| &r["data"])
        .collect();
    assert_eq!(routes[0]["decision"], "required");
    assert_eq!(
        routes[0]["reason"],
        "critical; 1 direct and 1 supporting changed lines"
    );
    assert_eq!(routes[0]["action"]["risk"], "high");
    assert_eq!(routes[1]["decision"], "recommended");
    assert_eq!(routes[1]["action"]["risk"], "medium");
    // Wording and context only, but the intent changed a package with tests: its
    // package suite still runs.
    assert_eq!(routes[2]["decision"], "recommended");
    assert_eq!(
        routes[2]["reason"],
        "only commit wording and 1 contextual line; the tests of the package it changed still run"
    );
    assert_eq!(routes[2]["command"]["run"], "cargo test -p shop");
    assert_eq!(
        routes[2]["evidence"],
        serde_json::json!({"direct": 1, "supporting": 0, "contextual": 1})
    );
}

#[test]
fn a_wording_only_scenario_without_a_package_test_command_stays_review_only() {
    let tree = rust_repo();
    let i = intent(&["docs/guide.md"], &[], Confidence::High);
    let review = scenario(&i, "v", Priority::Critical, &[("", 0, Relation::Direct)]);
    let records = qa_route(
        tree.path(),
        &Stubs::new(&["cargo"]),
        &ndjson(&[&i, &review]),
        &[],
    )
    .records();
    let route = &of_kind(&records, "route")[0]["data"];
    assert_eq!(route["decision"], "review-only");
    assert_eq!(route["reason"], "only commit wording: a person decides");
    assert_eq!(route["action"]["kind"], "review-scenario");
    assert_eq!(route["command"], Value::Null);
}

#[test]
fn a_selected_command_makes_an_approved_networked_action() {
    let tree = rust_repo();
    let records = route_one(
        tree.path(),
        &Stubs::new(&["cargo"]),
        "src/login.rs",
        &[],
        &[],
    )
    .records;
    let action = &only_route(&records)["action"];
    assert_eq!(action["kind"], "run-repository-command");
    assert_eq!(action["approval"], "required");
    assert_eq!(action["executes_code"], true);
    assert_eq!(action["network"], true);
    assert_eq!(
        action["writes"],
        serde_json::json!(["build-artifacts", "dependencies"])
    );
}

#[test]
fn capability_receipts_reflect_the_stream() {
    let tree = rust_repo();
    let empty = qa_route(tree.path(), &Stubs::new(&[]), b"", &[]).records();
    assert_eq!(
        capability(&empty, "change-intent")["status"],
        "not-applicable"
    );
    assert_eq!(
        capability(&empty, "scenario-routing")["status"],
        "not-applicable"
    );
    assert_eq!(
        capability(&empty, "behavior-impact")["gap"],
        "no behavior graph in the stream"
    );
    assert_eq!(
        capability(&empty, "automation-drafting")["status"],
        "limited"
    );

    let i = intent(&["src/login.rs"], &[], Confidence::Medium);
    let s = on_login(&i, "a", Priority::Critical, 3, Relation::Direct);
    let node = r#"{"kind":"node","v":1,"id":"sha256:1111111111111111111111111111111111111111111111111111111111111111","by":"x","from":[],"src":{},"data":{}}"#;
    let mut input = ndjson(&[&i, &s]);
    input.extend(format!("{node}\n").into_bytes());
    let full = qa_route(tree.path(), &Stubs::new(&["cargo"]), &input, &[]).records();
    assert_eq!(capability(&full, "change-intent")["status"], "available");
    assert_eq!(capability(&full, "change-intent")["depth"], "deep");
    assert_eq!(capability(&full, "scenario-routing")["status"], "available");
    assert_eq!(capability(&full, "behavior-impact")["status"], "limited");
    assert_eq!(
        capability(&full, "repository-validation")["status"],
        "available"
    );
}

#[test]
fn the_same_input_gives_byte_identical_output() {
    let tree = rust_repo();
    let i = intent(&["src/login.rs"], &[], Confidence::High);
    let s = on_login(&i, "a", Priority::Critical, 3, Relation::Direct);
    let stubs = Stubs::new(&["cargo", "make"]);
    let first = qa_route(tree.path(), &stubs, &ndjson(&[&i, &s]), &[]);
    let second = qa_route(tree.path(), &stubs, &ndjson(&[&i, &s]), &[]);
    assert_eq!(first.code(), 0);
    assert_eq!(first.output.stdout, second.output.stdout);
}

#[test]
fn a_malformed_line_is_exit_65_naming_the_line() {
    let tree = rust_repo();
    let mut input = format!("{UNKNOWN}\n").into_bytes();
    input.extend_from_slice(b"{broken\n");
    let run = qa_route(tree.path(), &Stubs::new(&[]), &input, &[]);
    assert_eq!(run.code(), 65);
    assert!(run.stderr().contains("stdin line 2"), "{}", run.stderr());
}

#[test]
fn scenario_data_that_does_not_parse_is_exit_65_naming_line_and_kind() {
    let tree = rust_repo();
    let bad = qa_records::Record::new(
        qa_records::Kind::Scenario,
        "test/0",
        vec![],
        qa_records::envelope::Src::new(),
        serde_json::json!({"title": "no intent"}),
    )
    .unwrap();
    let mut input = format!("{UNKNOWN}\n").into_bytes();
    input.extend(ndjson(&[&bad]));
    let run = qa_route(tree.path(), &Stubs::new(&[]), &input, &[]);
    assert_eq!(run.code(), 65);
    assert!(
        run.stderr()
            .contains("stdin line 2: `scenario` record data"),
        "{}",
        run.stderr()
    );
}
