//! The verdict rules, table-driven over hand-built acceptance streams: a criterion
//! passes only when fully observed passing with its source found, fails on a failed
//! observation, and is otherwise unverified with every reason; the run is cancelled,
//! stale, fail, incomplete, and pass only when nothing is missing.

use crate::common;

use common::acceptance::passing;
use common::{qa_report, Stream};
use qa_records::acceptance::{CheckDecision, ObservationStatus as O, SourceKind, TargetStatus};
use serde_json::Value;

/// The JSON report of a saved acceptance stream, and qa-report's exit code.
fn judged(stream: &Stream) -> (Value, i32) {
    let out = qa_report(&stream.finished(), &["--format", "json"]);
    let code = out.status.code().unwrap();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (report, code)
}

struct Case {
    name: &'static str,
    build: fn(&mut Stream),
    status: &'static str,
    exit: i32,
    /// Each criterion id with its status.
    criteria: &'static [(&'static str, &'static str)],
    /// A reason the verdict or a criterion must give.
    reason: &'static str,
}

fn plan_with(s: &mut Stream, id: &str, kind: SourceKind) {
    s.plan();
    s.criterion(id, kind, true);
}

const CASES: &[Case] = &[
    Case {
        name: "every check of a request criterion passes",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            s.observed("home", "greets", O::Pass);
            s.observed("health", "greets", O::Pass);
        },
        status: "pass",
        exit: 0,
        criteria: &[("greets", "pass")],
        reason: "",
    },
    Case {
        name: "one failed observation fails its criterion and the run",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            s.observed("home", "greets", O::Pass);
            s.observed("health", "greets", O::Fail);
        },
        status: "fail",
        exit: 1,
        criteria: &[("greets", "fail")],
        reason: "check health failed: expected contains \"Welcome\", observed \"Welcome\" not found",
    },
    Case {
        name: "a failure outweighs a gap elsewhere",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            s.observed("home", "greets", O::Fail);
            s.criterion("footer", SourceKind::Spec, true);
        },
        status: "fail",
        exit: 1,
        criteria: &[("greets", "fail"), ("footer", "unverified")],
        reason: "criterion greets failed",
    },
    Case {
        name: "a criterion without checks is unverified",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            s.observed("home", "greets", O::Pass);
            s.criterion("footer", SourceKind::Spec, true);
        },
        status: "incomplete",
        exit: 2,
        criteria: &[("greets", "pass"), ("footer", "unverified")],
        reason: "criterion footer is unverified: no checks",
    },
    Case {
        name: "a quote not found leaves a passing check unverified",
        build: |s| {
            s.plan();
            s.criterion("refunds", SourceKind::Ticket, false);
            s.observed("refund-page", "refunds", O::Pass);
        },
        status: "incomplete",
        exit: 2,
        criteria: &[("refunds", "unverified")],
        reason: "quote not found in tickets/SHOP-12.md",
    },
    Case {
        name: "a blocked check names the missing flag",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            let route = s.check(
                "health",
                "greets",
                CheckDecision::Blocked,
                "needs the network",
                &["--allow-network"],
            );
            s.observe(&route, "health", "greets", O::Unverified, Some("blocked"));
        },
        status: "incomplete",
        exit: 2,
        criteria: &[("greets", "unverified")],
        reason: "check health is blocked: needs --allow-network",
    },
    Case {
        name: "an unsupported check says why",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            s.check(
                "tools",
                "greets",
                CheckDecision::Unsupported,
                "no mcp checker in this build",
                &[],
            );
        },
        status: "incomplete",
        exit: 2,
        criteria: &[("greets", "unverified")],
        reason: "check tools is unsupported: no mcp checker in this build",
    },
    Case {
        name: "an unverified observation gives its reason",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            let route = s.check("home", "greets", CheckDecision::Runnable, "file", &[]);
            s.observe(&route, "home", "greets", O::Unverified, Some("target not captured"));
        },
        status: "incomplete",
        exit: 2,
        criteria: &[("greets", "unverified")],
        reason: "check home is unverified: target not captured",
    },
    Case {
        name: "an errored observation is a gap, not a pass",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            let route = s.check("health", "greets", CheckDecision::Runnable, "http", &[]);
            s.observe(&route, "health", "greets", O::Error, Some("connection refused"));
        },
        status: "incomplete",
        exit: 2,
        criteria: &[("greets", "unverified")],
        reason: "check health errored: connection refused",
    },
    Case {
        name: "a routed check with no observation is a gap",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            s.check("home", "greets", CheckDecision::Runnable, "file", &[]);
        },
        status: "incomplete",
        exit: 2,
        criteria: &[("greets", "unverified")],
        reason: "check home has no observation",
    },
    Case {
        name: "inferred criteria alone cannot pass a run",
        build: |s| {
            plan_with(s, "guess", SourceKind::Inferred);
            s.observed("title", "guess", O::Pass);
        },
        status: "incomplete",
        exit: 2,
        criteria: &[("guess", "pass")],
        reason: "no request, ticket or spec criterion passed: inferred criteria cannot establish acceptance",
    },
    Case {
        name: "an inferred criterion passes beside a passing request criterion",
        build: |s| {
            plan_with(s, "guess", SourceKind::Inferred);
            s.observed("title", "guess", O::Pass);
            s.criterion("greets", SourceKind::Request, true);
            s.observed("home", "greets", O::Pass);
        },
        status: "pass",
        exit: 0,
        criteria: &[("guess", "pass"), ("greets", "pass")],
        reason: "",
    },
    Case {
        name: "a failing inferred criterion still fails the run",
        build: |s| {
            plan_with(s, "guess", SourceKind::Inferred);
            s.observed("title", "guess", O::Fail);
            s.criterion("greets", SourceKind::Request, true);
            s.observed("home", "greets", O::Pass);
        },
        status: "fail",
        exit: 1,
        criteria: &[("guess", "fail"), ("greets", "pass")],
        reason: "criterion guess failed",
    },
    Case {
        name: "a target changed during the run makes it stale",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            s.observed("home", "greets", O::Pass);
            s.verify(false);
        },
        status: "stale",
        exit: 2,
        criteria: &[("greets", "pass")],
        reason: "target site changed during the run",
    },
    Case {
        name: "an unchanged recapture keeps the pass",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            s.observed("home", "greets", O::Pass);
            s.verify(true);
        },
        status: "pass",
        exit: 0,
        criteria: &[("greets", "pass")],
        reason: "",
    },
    Case {
        name: "an upstream cancel event cancels the run with 130",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            s.observed("home", "greets", O::Pass);
            s.event("cancel", "SIGINT received");
        },
        status: "cancelled",
        exit: 130,
        criteria: &[("greets", "pass")],
        reason: "an upstream stage was cancelled: the report is partial",
    },
    Case {
        name: "a cancel event naming SIGTERM exits 143",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            s.event("cancel", "SIGTERM received");
        },
        status: "cancelled",
        exit: 143,
        criteria: &[("greets", "unverified")],
        reason: "criterion greets is unverified: no checks",
    },
    Case {
        name: "a cancelled observation cancels the run",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            let route = s.check("health", "greets", CheckDecision::Runnable, "http", &[]);
            s.observe(&route, "health", "greets", O::Cancelled, Some("SIGINT"));
        },
        status: "cancelled",
        exit: 130,
        criteria: &[("greets", "unverified")],
        reason: "check health was cancelled: SIGINT",
    },
    Case {
        name: "a deployed build that could not be read leaves the run incomplete",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            s.observed("home", "greets", O::Pass);
            s.build(TargetStatus::Failed, None, Some("regex `(a+)+$` did not finish within the 1 s timeout"));
        },
        status: "incomplete",
        exit: 2,
        criteria: &[("greets", "pass")],
        reason: "the deployed build of qa was not read: regex `(a+)+$` did not finish within the 1 s timeout",
    },
    Case {
        name: "a deployed build read passes with the run",
        build: |s| {
            plan_with(s, "greets", SourceKind::Request);
            s.observed("home", "greets", O::Pass);
            s.build(TargetStatus::Captured, Some("abc1234"), None);
        },
        status: "pass",
        exit: 0,
        criteria: &[("greets", "pass")],
        reason: "",
    },
    Case {
        name: "a plan without criteria is incomplete",
        build: |s| {
            s.plan();
        },
        status: "incomplete",
        exit: 2,
        criteria: &[],
        reason: "no criteria",
    },
];

#[test]
fn the_verdict_rules_hold_for_every_case() {
    for case in CASES {
        let mut stream = Stream::default();
        (case.build)(&mut stream);
        let (report, code) = judged(&stream);
        let verdict = &report["verdict"];
        assert_eq!(verdict["status"], case.status, "{}: {verdict:#}", case.name);
        assert_eq!(code, case.exit, "{}", case.name);
        assert_eq!(verdict["exit"], case.exit, "{}", case.name);
        let got: Vec<(String, String)> = verdict["criteria"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["id"].as_str().unwrap().to_string(),
                    c["status"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let want: Vec<(String, String)> = case
            .criteria
            .iter()
            .map(|(i, s)| (i.to_string(), s.to_string()))
            .collect();
        assert_eq!(got, want, "{}", case.name);
        let reasons = verdict.to_string();
        if case.reason.is_empty() {
            assert_eq!(verdict["reasons"], serde_json::json!([]), "{}", case.name);
        } else {
            let quoted = serde_json::to_string(case.reason).unwrap();
            let needle = &quoted[1..quoted.len() - 1];
            assert!(reasons.contains(needle), "{}: {reasons}", case.name);
        }
    }
}

#[test]
fn counts_add_up_to_the_criteria() {
    let mut s = Stream::default();
    plan_with(&mut s, "a", SourceKind::Request);
    s.observed("a1", "a", O::Pass);
    s.criterion("b", SourceKind::Request, true);
    s.observed("b1", "b", O::Fail);
    s.criterion("c", SourceKind::Request, true);
    let (report, _) = judged(&s);
    assert_eq!(
        report["verdict"]["counts"],
        serde_json::json!({"pass": 1, "fail": 1, "unverified": 1})
    );
}

#[test]
fn the_last_observation_of_a_check_is_its_final_one() {
    let mut s = Stream::default();
    plan_with(&mut s, "greets", SourceKind::Request);
    let route = s.check("home", "greets", CheckDecision::Runnable, "file", &[]);
    s.observe(&route, "home", "greets", O::Unverified, Some("first try"));
    s.observe(&route, "home", "greets", O::Pass, None);
    let (report, code) = judged(&s);
    assert_eq!(report["verdict"]["status"], "pass");
    assert_eq!(code, 0);
}

#[test]
fn the_same_saved_stream_gives_the_same_verdict_record() {
    let input = passing().bytes();
    let a = qa_report(&input, &["--format", "json"]);
    let b = qa_report(&input, &["--format", "json"]);
    let id = |out: &std::process::Output| {
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["verdict"]["id"].as_str().unwrap().to_string()
    };
    assert_eq!(id(&a), id(&b));
    assert!(id(&a).starts_with("sha256:"));
}

#[test]
fn a_skipped_check_is_a_gap_naming_the_shard_that_owns_it_never_a_pass() {
    let mut s = Stream::default();
    plan_with(&mut s, "greets", SourceKind::Request);
    s.observed("home", "greets", O::Pass);
    let route = s.check("health", "greets", CheckDecision::Runnable, "file", &[]);
    s.observe(&route, "health", "greets", O::Skipped, Some("shard 2/2"));
    let (report, code) = judged(&s);
    assert_eq!(report["verdict"]["status"], "incomplete");
    assert_eq!(code, 2);
    assert!(
        report["verdict"]
            .to_string()
            .contains("check health was skipped: shard 2/2"),
        "{:#}",
        report["verdict"]
    );
}

#[test]
fn a_skipped_observation_after_the_owning_shards_observation_does_not_replace_it() {
    let mut s = Stream::default();
    plan_with(&mut s, "greets", SourceKind::Request);
    let route = s.check("home", "greets", CheckDecision::Runnable, "file", &[]);
    s.observe(&route, "home", "greets", O::Pass, None);
    s.observe(&route, "home", "greets", O::Skipped, Some("shard 1/2"));
    let (report, code) = judged(&s);
    assert_eq!(
        report["verdict"]["status"], "pass",
        "{:#}",
        report["verdict"]
    );
    assert_eq!(code, 0);
}
