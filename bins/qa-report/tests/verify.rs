//! qa-report --verify: envelopes, recomputed ids, `from` chains, and clear failures.

use qa_records::envelope::{Record, Src};
use qa_records::Kind;
use serde_json::json;
use std::process::Output;

use crate::common;

fn verify(input: &[u8], args: &[&str]) -> Output {
    let mut all = vec!["--verify"];
    all.extend_from_slice(args);
    common::qa_report(input, &all)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn record(kind: Kind, from: Vec<String>, data: serde_json::Value) -> Record {
    Record::new(kind, "test/0", from, Src::new(), data).unwrap()
}

/// A valid three-record chain.
fn chain() -> Vec<Record> {
    let a = record(Kind::Range, vec![], json!({"n": 1}));
    let b = record(Kind::Commit, vec![a.id.clone()], json!({"n": 2}));
    let c = record(
        Kind::File,
        vec![a.id.clone(), b.id.clone()],
        json!({"n": 3}),
    );
    vec![a, b, c]
}

fn lines(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in records {
        out.extend(r.to_line());
        out.push(b'\n');
    }
    out
}

#[test]
fn a_valid_stream_passes_with_a_summary_per_kind() {
    let out = verify(&lines(&chain()), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "qa-report: 3 records (commit 1, file 1, range 1); 0 problems\n"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn an_empty_stream_is_not_a_pass() {
    let out = verify(b"", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("0 records (none); 0 problems"));
    assert!(
        stderr(&out)
            .ends_with("qa-report: error: stdin: no records: did an upstream stage fail?\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn crlf_and_blank_lines_are_accepted() {
    let text = String::from_utf8(lines(&chain()))
        .unwrap()
        .replace('\n', "\r\n\r\n");
    let out = verify(text.as_bytes(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_tampered_record_is_reported_by_line() {
    let mut input = lines(&chain());
    let text = String::from_utf8(input.clone())
        .unwrap()
        .replacen("\"n\":2", "\"n\":20", 1);
    input = text.into_bytes();
    let out = verify(&input, &[]);
    assert_eq!(out.status.code(), Some(65));
    let err = stderr(&out);
    assert!(
        err.contains("qa-report: stdin line 2: commit record id sha256:"),
        "{err}"
    );
    assert!(err.contains("does not match its content"), "{err}");
}

#[test]
fn a_from_id_not_seen_earlier_is_a_broken_chain() {
    let mut records = chain();
    records.swap(0, 1);
    let out = verify(&lines(&records), &[]);
    assert_eq!(out.status.code(), Some(65));
    assert!(
        stderr(&out).contains("stdin line 1: commit record names sha256:"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("which does not appear earlier in the stream"));
}

#[test]
fn a_corrupt_line_is_reported_and_the_rest_still_checked() {
    let mut input = lines(&chain()[..1]);
    input.extend(b"{\"kind\": \"file\", oops\n");
    input.extend(lines(&chain()[1..]));
    let out = verify(&input, &[]);
    assert_eq!(out.status.code(), Some(65));
    let err = stderr(&out);
    assert!(err.contains("stdin line 2: not valid JSON"), "{err}");
    assert!(
        err.contains("3 records (commit 1, file 1, range 1); 1 problem\n"),
        "{err}"
    );
}

#[test]
fn a_missing_envelope_field_is_named() {
    let out = verify(
        br#"{"kind":"diag","v":1,"by":"x","from":[],"src":{},"data":{}}"#,
        &[],
    );
    assert_eq!(out.status.code(), Some(65));
    assert!(stderr(&out).contains("stdin line 1: envelope field `id` is missing"));
}

#[test]
fn a_newer_version_of_a_known_kind_is_refused_with_both_versions() {
    let mut r = record(Kind::File, vec![], json!({}));
    r.v = 2;
    let out = verify(&lines(&[r]), &[]);
    assert_eq!(out.status.code(), Some(65));
    assert!(
        stderr(&out).contains("record kind `file` is v2, newer than this build understands (v1)")
    );
}

#[test]
fn unknown_kinds_are_verified_like_any_other() {
    let mut r = record(Kind::Diag, vec![], json!({"x": 1}));
    r.kind = "x-team-note".into();
    let data: serde_json::Value = serde_json::from_str(r.data.get()).unwrap();
    r.id = qa_records::envelope::compute_id(&r.kind, r.v, &r.from, &r.src, &data).unwrap();
    let out = verify(&lines(&[r]), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("x-team-note 1"));
}

#[test]
fn floats_in_hashed_data_are_a_problem() {
    let line = format!(
        r#"{{"kind":"diag","v":1,"id":"sha256:{}","by":"x","from":[],"src":{{}},"data":{{"score":0.5}}}}"#,
        "0".repeat(64)
    );
    let out = verify(line.as_bytes(), &[]);
    assert_eq!(out.status.code(), Some(65));
    assert!(
        stderr(&out).contains("floating-point number at /data/score"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn problems_past_the_limit_are_counted_not_listed() {
    let input = b"x\ny\nz\nw\n";
    let out = verify(input, &["--max-problems", "2"]);
    let err = stderr(&out);
    assert_eq!(err.matches("not valid JSON").count(), 2, "{err}");
    assert!(err.contains("... and 2 more"));
    assert!(err.contains("4 problems"));
}

#[test]
fn reading_from_a_file_names_it_in_problems() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ndjson");
    std::fs::write(&path, b"not json\n").unwrap();
    let out = verify(b"", &["--in", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(65));
    assert!(stderr(&out).contains(&format!("{} line 1: not valid JSON", path.display())));
}

#[test]
fn a_missing_input_file_exits_66() {
    let out = verify(b"", &["--in", "/no/such/run.ndjson"]);
    assert_eq!(out.status.code(), Some(66));
    assert_eq!(stderr(&out).lines().count(), 1);
    assert!(stderr(&out).starts_with("qa-report: error: /no/such/run.ndjson: "));
}

#[test]
fn verify_cannot_be_combined_with_a_report_format() {
    let out = verify(&lines(&chain()), &["--format", "json"]);
    assert_eq!(out.status.code(), Some(64));
    assert!(
        stderr(&out).contains("cannot be used with"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn an_overlong_line_is_a_problem_not_a_crash() {
    let mut input = lines(&chain()[..1]);
    input.extend(vec![b'x'; 17 << 20]);
    input.push(b'\n');
    let out = verify(&input, &[]);
    assert_eq!(out.status.code(), Some(65));
    assert!(
        stderr(&out).contains("stdin line 2: longer than the 16777216-byte line limit"),
        "{}",
        stderr(&out)
    );
}
