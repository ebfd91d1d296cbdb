//! The GitLab Code Quality report (the Code Climate JSON subset GitLab reads): one issue
//! per required (major) or recommended (minor) scenario at its first located evidence,
//! with a fingerprint that survives line shifts, so merge requests track it across runs.

use super::sarif::rule_id;
use crate::model::{IntentView, Report, ScenarioView};
use crate::plain::one_line;
use qa_records::change::Decision;
use qa_records::hash::sha256_hex;
use serde::Serialize;
use std::collections::HashMap;

/// What the fingerprint hashes is versioned: bump it if the hashed fields ever change.
pub const FINGERPRINT: &str = "qapipe/codequality/v1";

/// The check name of the one issue a stream that ends early gets.
pub const INCOMPLETE: &str = "qapipe/incomplete";

/// The check name of the one issue a stream a signal cut gets.
pub const CANCELLED: &str = "qapipe/cancelled";

/// Where an issue without a located file sits: the repository root.
const ROOT: &str = ".";

/// One Code Climate issue, with the fields GitLab reads.
#[derive(Debug, Serialize)]
pub struct Issue {
    pub description: String,
    pub check_name: String,
    pub fingerprint: String,
    pub severity: Severity,
    pub location: Location,
}

/// The GitLab severities qapipe gives (GitLab also reads info and critical).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A recommended scenario.
    Minor,
    /// A required scenario.
    Major,
    /// The flow ended early: the report is incomplete.
    Blocker,
}

#[derive(Debug, Serialize)]
pub struct Location {
    pub path: String,
    pub lines: Lines,
}

#[derive(Debug, Serialize)]
pub struct Lines {
    pub begin: u32,
}

/// The report as a pretty-printed JSON array of issues, ending with a newline.
pub fn render(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(&issues(report)).expect("issues are plain JSON");
    s.push('\n');
    s
}

/// The issues in the order GitHub annotations go: required first, then recommended, report
/// order within; a stream that ends early or that a signal cut adds one blocker first.
pub fn issues(report: &Report) -> Vec<Issue> {
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut out = Vec::new();
    if !report.finished() {
        // Never an empty, clean-looking report for a flow that did not finish.
        let check = if report.cancelled.is_some() {
            CANCELLED
        } else {
            INCOMPLETE
        };
        out.push(issue(
            one_line(&report.summary).into_owned(),
            check.to_string(),
            Severity::Blocker,
            (ROOT, 1),
            &[check, &report.missing_stages.join(",")],
            &mut seen,
        ));
    }
    for (intent, s) in report.by_decision() {
        let severity = match s.decision() {
            Some(Decision::Required) => Severity::Major,
            Some(Decision::Recommended) => Severity::Minor,
            _ => continue,
        };
        let check = rule_id(s.data.kind);
        let at = location(intent, s);
        let title = s.data.title.clone();
        out.push(issue(
            one_line(&s.finding(intent)).into_owned(),
            check.clone(),
            severity,
            at,
            &[&check, at.0, &title],
            &mut seen,
        ));
    }
    out
}

/// The first direct or supporting evidence with a line; else, as in SARIF, the top of the
/// first file its intent changed; else the repository root.
fn location<'a>(intent: &'a IntentView, s: &'a ScenarioView) -> (&'a str, u32) {
    s.locations()
        .first()
        .copied()
        .or_else(|| intent.data.files.first().map(|f| (f.as_str(), 1)))
        .unwrap_or((ROOT, 1))
}

/// An issue whose fingerprint is the SHA-256 of [`FINGERPRINT`] and `fields` (never a
/// line number, so an edit above it keeps it), numbered when the same fields recur.
fn issue(
    description: String,
    check_name: String,
    severity: Severity,
    (path, line): (&str, u32),
    fields: &[&str],
    seen: &mut HashMap<String, u32>,
) -> Issue {
    let mut key = String::from(FINGERPRINT);
    for field in fields {
        // Lengths first: no two field lists hash the same bytes.
        key.push_str(&format!("\0{}:{field}", field.len()));
    }
    let n = seen.entry(key.clone()).or_insert(0);
    *n += 1;
    if *n > 1 {
        key.push_str(&format!("\0#{n}"));
    }
    Issue {
        description,
        check_name,
        fingerprint: sha256_hex(key.as_bytes()),
        severity,
        location: Location {
            path: path.to_string(),
            lines: Lines { begin: line },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fingerprint(fields: &[&str], seen: &mut HashMap<String, u32>) -> String {
        issue(
            String::new(),
            String::new(),
            Severity::Minor,
            ("a", 1),
            fields,
            seen,
        )
        .fingerprint
    }

    #[test]
    fn a_fingerprint_is_64_hex_digits_and_depends_on_every_field() {
        let mut seen = HashMap::new();
        let a = fingerprint(&["qapipe/primary", "src/a.rs", "t"], &mut seen);
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        let b = fingerprint(&["qapipe/primary", "src/b.rs", "t"], &mut seen);
        assert_ne!(a, b);
    }

    #[test]
    fn fields_that_concatenate_alike_still_fingerprint_apart() {
        let mut seen = HashMap::new();
        let a = fingerprint(&["ab", "c"], &mut seen);
        let b = fingerprint(&["a", "bc"], &mut seen);
        assert_ne!(a, b);
    }

    #[test]
    fn a_repeated_finding_gets_a_fingerprint_of_its_own() {
        let mut seen = HashMap::new();
        let first = fingerprint(&["k", "p", "t"], &mut seen);
        let second = fingerprint(&["k", "p", "t"], &mut seen);
        assert_ne!(first, second);
        let mut again = HashMap::new();
        assert_eq!(fingerprint(&["k", "p", "t"], &mut again), first);
    }
}
