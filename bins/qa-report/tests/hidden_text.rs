//! Bidirectional overrides and other control characters in source-derived text never
//! leave qa-report raw: not on stdout in any format, not in report.json, report.md,
//! report.sarif or junit.xml; JSON shows U+FFFD where one was, so a reader sees it.

use crate::common;

use common::{at, qa_report, Stream};
use qa_records::acceptance::{ObservationStatus, SourceKind};
use qa_records::change::{ActionKind, Decision, Relation, ScenarioKind};
use qa_records::untrusted::is_hidden;
use std::fs;

const FORMATS: [&str; 6] = ["text", "markdown", "json", "sarif", "github", "agent"];

/// A right-to-left override, a BEL, DEL, a C1 CSI and a first-strong isolate.
const TRICK: &str = "pay\u{202e}dlrow\u{7}\u{7f}\u{9b}2J\u{2068}x";

/// The hidden characters in `text`, other than the line breaks formats use themselves.
fn hidden_in(text: &str) -> Vec<char> {
    text.chars().filter(|&c| is_hidden(c)).collect()
}

fn change_stream() -> Vec<u8> {
    let mut s = Stream::default();
    s.commit(&"1".repeat(40), &format!("feat: {TRICK}"));
    let intent = s.intent(
        &format!("Intent {TRICK}"),
        &[],
        &[&format!("src/{TRICK}.rs")],
    );
    let scenario = s.scenario(
        &intent,
        &format!("Scenario {TRICK}"),
        ScenarioKind::Failure,
        vec![at("src/a.rs", 3, Relation::Direct, TRICK)],
    );
    s.route(
        &scenario,
        Decision::Required,
        ActionKind::ReviewScenario,
        None,
    );
    s.whole()
}

#[test]
fn no_change_report_format_carries_a_hidden_character() {
    for format in FORMATS {
        let out = qa_report(&change_stream(), &["--format", format]);
        assert_eq!(out.status.code(), Some(0), "{format}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(hidden_in(&text), Vec::<char>::new(), "{format}: {text}");
    }
}

#[test]
fn the_change_report_files_carry_none_and_json_marks_each_with_fffd() {
    let dir = tempfile::tempdir().unwrap();
    let out = qa_report(&change_stream(), &["--out", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    for file in ["report.json", "report.md", "report.sarif"] {
        let text = fs::read_to_string(dir.path().join(file)).unwrap();
        assert_eq!(hidden_in(&text), Vec::<char>::new(), "{file}");
    }
    let json = fs::read_to_string(dir.path().join("report.json")).unwrap();
    assert!(
        json.contains("Scenario pay\u{fffd}dlrow\u{fffd}\u{fffd}\u{fffd}2J\u{fffd}x"),
        "{json}"
    );
    // The saved stream is the evidence: kept as it came.
    let records = fs::read(dir.path().join("records.ndjson")).unwrap();
    assert_eq!(records, change_stream());
}

#[test]
fn ordinary_unicode_and_line_breaks_survive() {
    let mut s = Stream::default();
    let intent = s.intent("Grüße → 完了", &[], &["src/a.rs"]);
    s.scenario(&intent, "Ünïcode ok", ScenarioKind::Primary, vec![]);
    let out = qa_report(&s.whole(), &["--format", "json"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Grüße → 完了") && text.contains("Ünïcode ok"));
    assert!(!text.contains('\u{fffd}'));
}

#[test]
fn junit_and_the_acceptance_report_files_carry_no_hidden_character() {
    let repo = tempfile::tempdir().unwrap();
    let mut s = Stream::default();
    s.plan();
    s.criterion(&format!("greets{TRICK}"), SourceKind::Request, true);
    s.observed("home", &format!("greets{TRICK}"), ObservationStatus::Fail);
    let out = qa_report(
        &s.finished(),
        &["--acceptance", "--repo", repo.path().to_str().unwrap()],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(hidden_in(&stdout), Vec::<char>::new(), "{stdout}");
    let runs = repo.path().join(".qa/acceptance");
    let run = fs::read_dir(&runs).unwrap().next().unwrap().unwrap().path();
    for file in ["junit.xml", "report.json", "report.md"] {
        let text = fs::read_to_string(run.join(file)).unwrap();
        assert_eq!(hidden_in(&text), Vec::<char>::new(), "{file}: {text}");
        assert!(text.contains("greetspay\u{fffd}dlrow"), "{file}: {text}");
    }
}
