//! `--format codequality`: the GitLab Code Quality report (Code Climate JSON) of the change
//! findings SARIF and GitHub annotations show, valid against schema/codequality.schema.json,
//! with fingerprints that survive line shifts.

use crate::common;

use common::{at, qa_report, rendered, sample, Stream};
use qa_records::change::{ActionKind, Decision, Relation, ScenarioKind};
use serde_json::Value;

fn issues(stream: &[u8]) -> Vec<Value> {
    let out = rendered(stream, &["--format", "codequality"]);
    let value: Value = serde_json::from_str(&out).unwrap();
    qa_testkit::documents::assert_valid("codequality.schema.json", &value);
    value.as_array().unwrap().clone()
}

/// A stream with one required scenario titled `title` on evidence at `file:line`.
fn one_required(title: &str, file: &str, line: u32) -> Vec<u8> {
    let mut s = Stream::default();
    s.range();
    let intent = s.intent("Refuse expired tokens", &[], &[file]);
    let sc = s.scenario(
        &intent,
        title,
        ScenarioKind::Failure,
        vec![at(file, line, Relation::Direct, "if expired {")],
    );
    s.route(&sc, Decision::Required, ActionKind::ReviewScenario, None);
    s.trace(&sc);
    s.whole()
}

fn located(issue: &Value) -> (&str, u64) {
    (
        issue["location"]["path"].as_str().unwrap(),
        issue["location"]["lines"]["begin"].as_u64().unwrap(),
    )
}

#[test]
fn a_required_scenario_is_a_major_issue_and_a_recommended_one_minor() {
    let issues = issues(&sample().stream.whole());
    let summary: Vec<(&str, &str, (&str, u64))> = issues
        .iter()
        .map(|i| {
            (
                i["severity"].as_str().unwrap(),
                i["check_name"].as_str().unwrap(),
                located(i),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("major", "qapipe/failure", ("src/auth.rs", 42)),
            ("minor", "qapipe/primary", ("src/auth.rs", 40)),
            ("minor", "qapipe/state-transition", ("src/upload.rs", 10)),
        ]
    );
    assert!(issues[0]["description"]
        .as_str()
        .unwrap()
        .starts_with("required failure scenario: Expired token is refused"));
}

#[test]
fn a_review_only_scenario_is_not_an_issue() {
    let out = rendered(&sample().stream.whole(), &["--format", "codequality"]);
    assert!(!out.contains("Token expiring exactly now"), "{out}");
}

#[test]
fn a_change_without_required_or_recommended_scenarios_is_an_empty_array() {
    let mut s = Stream::default();
    s.range();
    assert_eq!(rendered(&s.whole(), &["--format", "codequality"]), "[]\n");
}

#[test]
fn a_fingerprint_survives_an_edit_that_moves_the_evidence_lines() {
    let before = issues(&one_required("Expired token is refused", "src/auth.rs", 42));
    let after = issues(&one_required("Expired token is refused", "src/auth.rs", 57));
    assert_eq!(located(&after[0]), ("src/auth.rs", 57));
    assert_eq!(before[0]["fingerprint"], after[0]["fingerprint"]);
}

#[test]
fn another_title_or_file_is_another_fingerprint() {
    let base = issues(&one_required("Expired token is refused", "src/auth.rs", 42));
    let retitled = issues(&one_required("Revoked token is refused", "src/auth.rs", 42));
    let moved = issues(&one_required(
        "Expired token is refused",
        "src/session.rs",
        42,
    ));
    assert_ne!(base[0]["fingerprint"], retitled[0]["fingerprint"]);
    assert_ne!(base[0]["fingerprint"], moved[0]["fingerprint"]);
}

#[test]
fn two_alike_findings_get_fingerprints_of_their_own() {
    let mut s = Stream::default();
    s.range();
    let intent = s.intent("Refuse expired tokens", &[], &["src/auth.rs"]);
    for line in [3, 9] {
        let sc = s.scenario(
            &intent,
            "Expired token is refused",
            ScenarioKind::Failure,
            vec![at("src/auth.rs", line, Relation::Direct, "x")],
        );
        s.route(&sc, Decision::Required, ActionKind::ReviewScenario, None);
        s.trace(&sc);
    }
    let issues = issues(&s.whole());
    assert_eq!(issues.len(), 2);
    assert_ne!(issues[0]["fingerprint"], issues[1]["fingerprint"]);
}

#[test]
fn a_finding_on_commit_wording_sits_at_the_top_of_its_intents_first_file() {
    let mut s = Stream::default();
    s.range();
    let intent = s.intent(
        "Keep the receipt order",
        &[],
        &["src/receipt.rs", "README.md"],
    );
    let sc = s.scenario(
        &intent,
        "Keep the receipt order",
        ScenarioKind::Primary,
        vec![at("", 0, Relation::Direct, "Keep the receipt order")],
    );
    s.route(&sc, Decision::Recommended, ActionKind::ReviewScenario, None);
    s.trace(&sc);
    assert_eq!(located(&issues(&s.whole())[0]), ("src/receipt.rs", 1));
}

#[test]
fn a_stream_that_ends_early_is_a_blocker_issue_and_exit_2() {
    let mut s = Stream::default();
    s.range();
    let out = qa_report(&s.bytes(), &["--format", "codequality"]);
    assert_eq!(out.status.code(), Some(2));
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    qa_testkit::documents::assert_valid("codequality.schema.json", &value);
    let first = &value[0];
    assert_eq!(first["check_name"], "qapipe/incomplete");
    assert_eq!(first["severity"], "blocker");
    assert_eq!(located(first), (".", 1));
    let description = first["description"].as_str().unwrap();
    assert!(
        description.contains("INCOMPLETE, not a pass")
            && description.contains("qa-intent, qa-route, qa-trace"),
        "{description}"
    );
}

#[test]
fn control_characters_in_a_title_never_reach_the_report() {
    let issues = issues(&one_required(
        "Expired\ntoken\u{1b}[2J refused",
        "src/a.rs",
        1,
    ));
    let description = issues[0]["description"].as_str().unwrap();
    assert!(description.contains("[2J refused"), "{description}");
    assert!(
        !description.chars().any(char::is_control),
        "{description:?}"
    );
}

#[test]
fn the_same_stream_gives_the_same_bytes() {
    let stream = sample().stream.whole();
    assert_eq!(
        rendered(&stream, &["--format", "codequality"]),
        rendered(&stream, &["--format", "codequality"])
    );
}
