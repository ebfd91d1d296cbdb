//! Checks that cannot run are unverified with the reason, never a pass: blocked and
//! unsupported routes, unrouted checks, uncaptured targets, kinds without a checker.

use crate::common;

use common::server::Server;
use common::{directory_target, only_observation, qa_check, run_in, url_target, Stream};
use qa_records::acceptance::{CheckDecision, TargetStatus};
use qa_testkit::Repo;
use serde_json::{json, Value};

fn run(stream: &Stream, flags: &[&str]) -> Value {
    only_observation(
        &qa_check()
            .invocation()
            .args(flags)
            .stdin(stream.bytes())
            .run(),
    )
}

fn site() -> (Repo, Stream) {
    let repo = Repo::new();
    repo.write("site/index.html", "Welcome");
    let mut stream = Stream::default();
    stream.target(&directory_target(&repo, "site", &[]));
    (repo, stream)
}

#[test]
fn a_blocked_route_is_unverified_naming_the_missing_flag() {
    let server = Server::start();
    let mut stream = Stream::default();
    stream.target(&url_target(&server.url("/"), TargetStatus::Captured, None));
    let spec = stream.check(json!({"id": "h", "kind": "http", "status": 200}));
    stream.route(
        &spec,
        "h",
        CheckDecision::Blocked,
        "network access was not allowed",
        &["--allow-network"],
    );
    let obs = run(&stream, &["--allow-network"]);
    assert_eq!(obs["status"], "unverified");
    assert_eq!(
        obs["reason"],
        "network access was not allowed (missing --allow-network)"
    );
    assert_eq!(server.requests(), 0);
}

#[test]
fn an_unsupported_route_is_unverified_with_its_reason() {
    let (_repo, mut stream) = site();
    let spec = stream.check(json!({"id": "m", "kind": "mcp", "tool": "set_volume"}));
    stream.route(
        &spec,
        "m",
        CheckDecision::Unsupported,
        "an mcp check needs a url target",
        &[],
    );
    let obs = run(&stream, &["--allow-network"]);
    assert_eq!(obs["status"], "unverified");
    assert_eq!(obs["check_kind"], "mcp");
    assert_eq!(obs["reason"], "an mcp check needs a url target");
}

#[test]
fn a_check_of_an_unknown_kind_routed_runnable_is_still_unverified_here() {
    let (_repo, mut stream) = site();
    stream.routed(json!({"id": "b", "kind": "smoke", "page": "/"}));
    let obs = run(&stream, &["--allow-network"]);
    assert_eq!(obs["status"], "unverified");
    assert_eq!(obs["reason"], "no smoke checker in this build");
}

#[test]
fn a_browser_check_missing_its_fields_is_unverified_naming_them() {
    let (_repo, mut stream) = site();
    stream.routed(json!({"id": "b", "kind": "browser", "page": "/"}));
    let obs = run(&stream, &["--allow-network"]);
    assert_eq!(obs["status"], "unverified");
    assert_eq!(obs["reason"], "invalid browser check: missing field `tool`");
}

#[test]
fn an_unrouted_check_is_unverified_and_says_to_run_qa_route() {
    let (repo, mut stream) = site();
    stream.check(json!({"id": "f", "kind": "file", "path": "index.html", "contains": "Welcome"}));
    let obs = only_observation(&run_in(&repo, &stream, &[]));
    assert_eq!(obs["status"], "unverified");
    assert_eq!(obs["reason"], "not routed: run qa-route");
}

#[test]
fn a_scenario_route_for_the_same_subject_does_not_count_as_a_check_route() {
    let (_repo, mut stream) = site();
    let spec = stream
        .check(json!({"id": "f", "kind": "file", "path": "index.html", "contains": "Welcome"}));
    // A change-flow route shape: it is skipped, not taken as this check's route.
    stream.push(
        qa_records::Kind::Route,
        vec![spec.clone()],
        json!({"subject": spec, "decision": "required", "reason": "x", "evidence": {"direct": 1, "supporting": 0, "contextual": 0},
               "action": {"kind": "review-scenario", "risk": "low", "approval": "required", "executes_code": false, "writes": [], "network": false, "preconditions": ["x"]},
               "command": null, "additional_commands": []}),
    );
    let obs = run(&stream, &[]);
    assert_eq!(obs["reason"], "not routed: run qa-route");
}

#[test]
fn a_blocked_url_target_leaves_its_checks_unverified() {
    let mut stream = Stream::default();
    stream.target(&url_target(
        "http://127.0.0.1:9/",
        TargetStatus::Blocked,
        Some("needs --allow-network"),
    ));
    stream.routed(json!({"id": "h", "kind": "http", "status": 200}));
    let obs = run(&stream, &["--allow-network"]);
    assert_eq!(obs["status"], "unverified");
    assert_eq!(
        obs["reason"],
        "target not captured (blocked): needs --allow-network"
    );
}

#[test]
fn a_failed_target_capture_leaves_its_checks_unverified() {
    let mut stream = Stream::default();
    stream.target(&url_target(
        "http://127.0.0.1:9/",
        TargetStatus::Failed,
        Some("redirect to /login rejected"),
    ));
    stream.routed(json!({"id": "h", "kind": "http", "status": 200}));
    let obs = run(&stream, &["--allow-network"]);
    assert_eq!(
        obs["reason"],
        "target not captured (failed): redirect to /login rejected"
    );
}

#[test]
fn without_a_target_record_checks_are_unverified() {
    let mut stream = Stream::default();
    stream.routed(json!({"id": "f", "kind": "file", "path": "index.html", "contains": "x"}));
    let obs = run(&stream, &[]);
    assert_eq!(obs["status"], "unverified");
    assert_eq!(
        obs["reason"],
        "target not captured: no `target` record: run qa-fetch"
    );
}

#[test]
fn the_observation_derives_from_the_check_its_route_and_its_target() {
    let (repo, mut stream) = site();
    let spec = stream
        .check(json!({"id": "f", "kind": "file", "path": "index.html", "contains": "Welcome"}));
    let route = stream.route(&spec, "f", CheckDecision::Runnable, "ok", &[]);
    let run = run_in(&repo, &stream, &[]);
    let records = common::records(&run, 0);
    let target = qa_testkit::of_kind(&records, "target")[0]["id"].clone();
    let observation = qa_testkit::of_kind(&records, "observation")[0];
    assert_eq!(observation["from"], json!([spec, route, target]));
    assert_eq!(observation["data"]["status"], "pass");
}
