//! An empty range is its own outcome: the sentence that says why (HEAD is its base, or
//! behind it), on stdout and stderr, exit 3, never "no behaviour-bearing change found"
//! with exit 0, which a reader takes for "nothing to test".

use crate::common;

use common::qa_report;
use qa_testkit::{Repo, ToolStubs};
use serde_json::Value;

/// `main` with two commits and nothing else.
fn on_main() -> Repo {
    let mut r = Repo::new();
    r.write(
        "src/cart.js",
        "export const total = (items) => items.length;\n",
    );
    r.commit("feat: count the items");
    r.write(
        "src/cart.js",
        "export const total = (items) => items.length + 1;\n",
    );
    r.commit("fix: count the fee");
    r
}

fn report(r: &Repo, args: &[&str]) -> std::process::Output {
    qa_report(&r.change_flow(&ToolStubs::new(&[])), args)
}

#[test]
fn a_range_whose_head_is_its_base_exits_3_with_the_sentence_on_stdout_and_stderr() {
    let r = on_main();
    let head = &r.rev("HEAD")[..12];
    let out = report(&r, &[]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    let sentence = format!(
        "empty range: main and HEAD are the same commit ({head}); name a base (`--base`, `BASE=`) or commit work"
    );
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stdout.contains(&sentence), "{stdout}");
    assert_eq!(stderr.trim(), format!("qa-report: {sentence}"));
    assert!(
        !stdout.contains("no behaviour-bearing change found"),
        "{stdout}"
    );
}

#[test]
fn a_head_behind_its_base_is_named_behind_not_the_same_commit() {
    let r = on_main();
    r.git(&["checkout", "-q", "-b", "old", "HEAD~1"]);
    let out = report(&r, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    let behind = format!(
        "HEAD ({}) is behind its base main ({})",
        &r.rev("HEAD")[..12],
        &r.rev("main")[..12]
    );
    assert!(stderr.contains(&behind), "{stderr}");
    assert!(!stderr.contains("same commit"), "{stderr}");
}

#[test]
fn the_json_report_and_the_agent_line_name_the_empty_range() {
    let r = on_main();
    let json = report(&r, &["--format", "json"]);
    assert_eq!(json.status.code(), Some(3));
    let doc: Value = serde_json::from_slice(&json.stdout).expect("report.json");
    assert_eq!(doc["status"], "empty-range", "{doc:#}");
    assert!(doc["empty_range"]
        .as_str()
        .is_some_and(|s| s.starts_with("empty range: main and HEAD")));
    let agent = report(&r, &["--format", "agent"]);
    assert_eq!(agent.status.code(), Some(3));
    let line: Value = serde_json::from_slice(&agent.stdout).expect("agent line");
    assert_eq!(line["summary"], doc["empty_range"], "{line:#}");
    assert_eq!(line["empty_range"], doc["empty_range"], "{line:#}");
}

#[test]
fn a_branch_with_a_commit_past_its_base_is_no_empty_range() {
    let mut r = on_main();
    r.branch("feature");
    r.write(
        "src/cart.js",
        "export const total = (items) => items.length + 2;\n",
    );
    r.commit("fix: count two fees");
    let out = report(&r, &["--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).expect("report.json");
    assert_eq!(doc["status"], "complete");
    assert!(doc.get("empty_range").is_none(), "{doc:#}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
