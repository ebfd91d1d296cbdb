//! --in FILE: a source stage forwards an upstream stream before its own records.

use crate::common;
use common::*;

const UPSTREAM: &str = r#"{"kind":"x-profile-note","v":3,"id":"sha256:1111111111111111111111111111111111111111111111111111111111111111","by":"other/1","from":[],"src":{},"data":{"z":1,  "a":[2]}}"#;

fn repo() -> Repo {
    let mut r = Repo::new();
    r.write("a.txt", "a\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("a.txt", "a\nb\n");
    r.commit("feat: b");
    r
}

#[test]
fn upstream_records_come_first_byte_for_byte() {
    let r = repo();
    r.write_outside("up.ndjson", format!("{UPSTREAM}\r\n\n"));
    let run = r.qa_diff(&["--in", "../up.ndjson"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = String::from_utf8(run.stdout.clone()).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(UPSTREAM));
    assert!(lines.next().unwrap().starts_with(r#"{"kind":"range""#));
}

#[test]
fn a_malformed_upstream_line_exits_65_naming_file_and_line() {
    let r = repo();
    r.write_outside("up.ndjson", format!("{UPSTREAM}\n{{\"kind\":\n"));
    let run = r.qa_diff(&["--in", "../up.ndjson"], &[]);
    assert_eq!(run.code, 65);
    assert!(
        run.stderr
            .starts_with("qa-diff: error: ../up.ndjson line 2: not valid JSON"),
        "{}",
        run.stderr
    );
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        format!("{UPSTREAM}\n"),
        "what came before stays written"
    );
}

#[test]
fn a_missing_upstream_file_exits_66() {
    let r = repo();
    let run = r.qa_diff(&["--in", "../nope.ndjson"], &[]);
    assert_eq!(run.code, 66);
    assert!(
        run.stderr.starts_with("qa-diff: error: ../nope.ndjson: "),
        "{}",
        run.stderr
    );
}

#[test]
fn without_in_stdin_is_never_read() {
    let r = repo();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_qa-diff"))
        .current_dir(r.path())
        .env("HOME", r.home())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // stdin stays open and empty: a stage that read it would wait forever.
    let _stdin = child.stdin.take();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with(r#"{"kind":"range""#));
}
