//! The stream as a whole: one route and one trace per scenario, five capability receipts,
//! trace states that follow the routes, manual drafts with honest receipts, and
//! byte-identical output for the same repository state.

use crate::common;
use common::*;

/// The ledger fix (located, with `cargo` on PATH as a stub qa-route only looks up) and a
/// rename-only `feat` (commit wording only).
fn routed() -> (Repo, ToolStubs) {
    (ledger_and_rename(), ToolStubs::new(&["cargo"]))
}

#[test]
fn every_scenario_has_one_route_and_one_trace() {
    let (r, stubs) = routed();
    let s = flow(&r).path(stubs.path_var()).run();
    assert!(!s.scenarios().is_empty(), "{}", s.summary());
    for scenario in s.scenarios() {
        s.route_of(scenario);
        s.trace_of(scenario);
    }
    assert_eq!(s.of_kind("route").len(), s.scenarios().len());
    assert_eq!(s.of_kind("trace").len(), s.scenarios().len());
}

#[test]
fn each_run_has_one_receipt_per_capability() {
    let (r, stubs) = routed();
    let s = flow(&r).path(stubs.path_var()).run();
    let mut names: Vec<&str> = s
        .of_kind("capability")
        .iter()
        .filter_map(|c| c["data"]["name"].as_str())
        .collect();
    names.sort();
    assert_eq!(
        names,
        vec![
            "automation-drafting",
            "behavior-impact",
            "change-intent",
            "repository-validation",
            "scenario-routing",
        ]
    );
}

#[test]
fn a_located_scenario_with_a_command_is_traceable_up_to_a_not_run_execution() {
    let (r, stubs) = routed();
    let s = flow(&r).path(stubs.path_var()).run();
    let commanded: Vec<&serde_json::Value> = s
        .scenarios()
        .into_iter()
        .filter(|sc| is_located(sc) && s.route_of(sc)["data"]["command"].is_object())
        .collect();
    assert!(
        !commanded.is_empty(),
        "fixture: the ledger fix is located and cargo is on PATH:\n{}",
        s.summary()
    );
    for scenario in commanded {
        let trace = &s.trace_of(scenario)["data"];
        assert_eq!(trace["state"], "traceable", "{trace}");
        assert_eq!(trace["execution"], "not-run", "{trace}");
        let path = trace["path"].as_array().expect("path is an array");
        assert_eq!(
            path.last().map(|step| &step["step"]),
            Some(&serde_json::json!("execution")),
            "the path ends at the execution step: {trace}"
        );
        assert_eq!(
            path[0]["step"], "diff",
            "the path starts at the diff: {trace}"
        );
    }
}

#[test]
fn a_review_only_route_gives_a_review_only_trace() {
    // Without cargo on PATH the scenarios resting on commit wording cannot fall back to
    // their package's tests: they stay review-only.
    let (r, _) = routed();
    let no_runner = ToolStubs::new(&[]);
    let s = flow(&r).path(no_runner.path_var()).run();
    let review_only: Vec<&serde_json::Value> = s
        .scenarios()
        .into_iter()
        .filter(|sc| s.route_of(sc)["data"]["decision"] == "review-only")
        .collect();
    assert!(
        !review_only.is_empty(),
        "fixture: the rename proves nothing, so its scenarios rest on commit wording:\n{}",
        s.summary()
    );
    for scenario in review_only {
        assert_eq!(
            s.trace_of(scenario)["data"]["state"],
            "review-only",
            "{}",
            scenario["data"]
        );
    }
}

#[test]
fn manual_drafts_cover_every_routed_scenario_with_consistent_receipts() {
    let (r, stubs) = routed();
    let s = flow(&r).path(stubs.path_var()).draft_manual().run();
    assert!(!s.scenarios().is_empty(), "{}", s.summary());
    for scenario in s.scenarios() {
        s.route_of(scenario);
        let drafts = s.drafts_of(scenario);
        assert_eq!(
            drafts.len(),
            1,
            "one draft for {}",
            scenario["data"]["title"]
        );
        let d = &drafts[0]["data"];
        assert_eq!(d["format"], "manual");
        let (mapped, total) = (d["mapped"].as_u64(), d["total"].as_u64());
        let (Some(mapped), Some(total)) = (mapped, total) else {
            panic!("mapped and total are counts: {d}");
        };
        assert!(mapped <= total, "{d}");
        let items: Vec<&serde_json::Value> = d["steps"]
            .as_array()
            .into_iter()
            .chain(d["assertions"].as_array())
            .flatten()
            .collect();
        assert_eq!(
            total,
            items.len() as u64,
            "total counts steps and assertions: {d}"
        );
        let located = items.iter().filter(|i| !i["maps_to"].is_null()).count();
        assert_eq!(
            mapped, located as u64,
            "mapped counts items with maps_to: {d}"
        );
        match d["receipt"].as_str() {
            Some("compiled") => assert!(total > 0 && mapped == total, "{d}"),
            // Fully mapped yet short of compiled is honest: no assertion, say.
            Some("partial" | "not-compiled" | "review-only") => {}
            other => panic!("unknown receipt {other:?}"),
        }
    }
}

#[test]
fn without_the_draft_flag_there_are_no_drafts() {
    let (r, stubs) = routed();
    let s = flow(&r).path(stubs.path_var()).run();
    assert!(!s.scenarios().is_empty(), "{}", s.summary());
    assert!(s.of_kind("draft").is_empty());
}

#[test]
fn two_clones_give_byte_identical_streams() {
    let (r, stubs) = routed();
    let a = r.clone_repo();
    let b = r.clone_repo();
    let first = flow(&a).path(stubs.path_var()).run();
    let second = flow(&b).path(stubs.path_var()).run();
    assert!(!first.scenarios().is_empty(), "{}", first.summary());
    assert!(
        first.bytes == second.bytes,
        "the streams differ:\n{}\n---\n{}",
        String::from_utf8_lossy(&first.bytes),
        String::from_utf8_lossy(&second.bytes)
    );
}
