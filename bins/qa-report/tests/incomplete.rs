//! No vacuous pass: a stream without a `range` or `plan` record is one line and exit 2 in
//! every format, with no report folder; a stream that ends inside its flow is a report
//! that names the missing stages first and exits 2; a whole flow still passes.

use crate::common;

use common::acceptance::passing;
use common::{qa_report, sample, Stream};
use qa_records::acceptance::SourceKind;
use qa_records::change::{ActionKind, Decision, ScenarioKind};
use serde_json::Value;
use std::fs;
use std::process::{Command, Output, Stdio};

const FORMATS: [&str; 7] = [
    "text",
    "markdown",
    "json",
    "sarif",
    "github",
    "codequality",
    "agent",
];
const NO_RECORDS: &str = "qa-report: error: stdin: no records: did an upstream stage fail?\n";

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn an_empty_stream_is_one_line_and_exit_2_in_every_format() {
    for format in FORMATS {
        let out = qa_report(b"", &["--format", format]);
        assert_eq!(out.status.code(), Some(2), "{format}");
        assert_eq!(stderr(&out), NO_RECORDS, "{format}");
        assert!(out.stdout.is_empty(), "{format}: {}", stdout(&out));
    }
}

#[test]
fn an_empty_stream_leaves_no_report_folder_nor_its_parents() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("runs/latest");
    for format in FORMATS {
        let out = qa_report(
            b"",
            &["--format", format, "--out", out_dir.to_str().unwrap()],
        );
        assert_eq!(out.status.code(), Some(2), "{format}");
        assert_eq!(common::names(dir.path()), Vec::<String>::new(), "{format}");
    }
}

#[test]
fn an_empty_stream_into_an_existing_out_folder_adds_nothing_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = qa_report(b"", &["--out", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(dir.path().is_dir());
    assert_eq!(common::names(dir.path()), Vec::<String>::new());
}

#[test]
fn a_stream_without_range_or_plan_names_what_it_holds_and_exits_2() {
    let mut s = Stream::default();
    s.capability(
        qa_records::change::CapabilityName::ChangeIntent,
        qa_records::change::CapabilityStatus::NotApplicable,
    );
    for format in FORMATS {
        let out = qa_report(&s.bytes(), &["--format", format]);
        assert_eq!(out.status.code(), Some(2), "{format}");
        assert!(out.stdout.is_empty(), "{format}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(
                "no range or plan record in 1 record (capability 1): did an upstream stage fail?"
            ),
            "{err}"
        );
    }
}

/// `qa-intent --plan` on a missing plan writes nothing and fails; without `pipefail` the
/// pipeline's status is qa-report's, which must not be 0.
#[test]
fn a_failed_upstream_stage_piped_in_is_not_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let upstream = Command::new(qa_testkit::Program::built("qa-intent").path())
        .args(["--plan", "missing.json"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting qa-intent (build the workspace's binaries first)");
    let mut upstream = upstream;
    let pipe = upstream.stdout.take().unwrap();
    let report = Command::new(env!("CARGO_BIN_EXE_qa-report"))
        .args(["--out", "out"])
        .current_dir(dir.path())
        .stdin(pipe)
        .output()
        .unwrap();
    let first = upstream.wait().unwrap();
    assert_ne!(first.code(), Some(0));
    assert_eq!(report.status.code(), Some(2), "{}", stderr(&report));
    assert_eq!(stderr(&report), NO_RECORDS);
    assert!(!dir.path().join("out").exists());
}

#[test]
fn a_range_alone_is_a_report_naming_every_missing_stage_and_exit_2() {
    let mut s = Stream::default();
    s.range();
    for format in FORMATS {
        let out = qa_report(&s.bytes(), &["--format", format]);
        assert_eq!(out.status.code(), Some(2), "{format}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.contains("INCOMPLETE, not a pass")
                && text.contains("no records from qa-intent, qa-route, qa-trace"),
            "{format}: {text}"
        );
    }
}

#[test]
fn each_machine_format_marks_an_early_end_in_its_own_terms() {
    let mut s = Stream::default();
    s.range();
    let json: Value =
        serde_json::from_slice(&qa_report(&s.bytes(), &["--format", "json"]).stdout).unwrap();
    assert_eq!(
        json["missing_stages"],
        serde_json::json!(["qa-intent", "qa-route", "qa-trace"])
    );
    let sarif: Value =
        serde_json::from_slice(&qa_report(&s.bytes(), &["--format", "sarif"]).stdout).unwrap();
    let invocation = &sarif["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false, "{sarif:#}");
    assert_eq!(
        invocation["toolExecutionNotifications"][0]["level"],
        "error"
    );
    let github = stdout(&qa_report(&s.bytes(), &["--format", "github"]));
    assert!(
        github.starts_with("::error title=qapipe change report::qapipe: INCOMPLETE"),
        "{github}"
    );
    let agent: Value =
        serde_json::from_slice(&qa_report(&s.bytes(), &["--format", "agent"]).stdout).unwrap();
    assert_eq!(
        agent["missing_stages"],
        serde_json::json!(["qa-intent", "qa-route", "qa-trace"])
    );
}

#[test]
fn scenarios_without_any_trace_miss_qa_trace_only() {
    let mut s = Stream::default();
    s.range();
    let intent = s.intent("Refuse expired tokens", &[], &["src/auth.rs"]);
    let scenario = s.scenario(&intent, "Expired token", ScenarioKind::Failure, vec![]);
    s.route(
        &scenario,
        Decision::Required,
        ActionKind::ReviewScenario,
        None,
    );
    let out = qa_report(&s.bytes(), &["--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["missing_stages"], serde_json::json!(["qa-trace"]));
}

#[test]
fn an_early_end_with_out_writes_a_report_that_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Stream::default();
    s.range();
    let out = qa_report(&s.bytes(), &["--out", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let report: Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("report.json")).unwrap()).unwrap();
    assert!(report["summary"]
        .as_str()
        .unwrap()
        .starts_with("INCOMPLETE, not a pass"));
}

#[test]
fn a_whole_change_flow_passes_with_or_without_behaviour() {
    let out = qa_report(&sample().stream.bytes(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stdout(&out).contains("INCOMPLETE"));
    // qa-diff's range, qa-intent's graph diag and qa-route's capabilities: nothing to trace.
    let out = qa_report(&Stream::default().whole(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_plan_alone_is_incomplete_naming_every_missing_stage() {
    let mut s = Stream::default();
    s.plan();
    s.criterion("greets", SourceKind::Request, true);
    let out = qa_report(&s.bytes(), &["--format", "json"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["verdict"]["status"], "incomplete");
    let reasons = json["verdict"]["reasons"].to_string();
    assert!(
        reasons.contains("no records from qa-fetch --verify, qa-trace"),
        "{reasons}"
    );
}

#[test]
fn passing_checks_without_the_recapture_are_not_a_pass() {
    let mut s = passing();
    s.records.retain(|r| r.kind != "target.verify");
    let out = qa_report(&s.bytes(), &["--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["verdict"]["status"], "incomplete");
    assert!(json["verdict"]["reasons"]
        .to_string()
        .contains("qa-fetch --verify"));
    // The control: the whole flow passes.
    assert_eq!(qa_report(&passing().bytes(), &[]).status.code(), Some(0));
}

#[test]
fn an_acceptance_run_of_an_empty_stream_is_one_line_exit_2_and_no_run_folder() {
    let repo = tempfile::tempdir().unwrap();
    let out = qa_report(
        b"",
        &["--acceptance", "--repo", repo.path().to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), NO_RECORDS);
    assert!(!repo.path().join(".qa/acceptance").exists());
    assert!(!repo.path().join(".qa/acceptance.lock").exists());
}
