//! A change stream that SIGINT or SIGTERM cuts after its `range` record is reported from
//! what was read, marked CANCELLED in every format, with its --out folder (report files
//! and SHA256SUMS) written, and exits 130 or 143; cut before any range, it is one line and
//! no folder. Every test runs the built binary on a real pipe or FIFO with a real signal.

use crate::common;

use common::sample;
use common::signals::{cut_after, finished_within, signal, spawn, BOUND};
use qa_records::hash::sha256_hex;
use serde_json::Value;
use std::fs::{self, File};
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The first `n` records of the sample change stream (a range first), each on its line:
/// a flow cut before qa-route and qa-trace wrote anything.
fn first_records(n: usize) -> Vec<u8> {
    let stream = sample().stream;
    assert_eq!(stream.records[0].kind, "range");
    let mut bytes = Vec::new();
    for record in &stream.records[..n] {
        bytes.extend(record.to_line());
        bytes.push(b'\n');
    }
    bytes
}

/// Lets the child read what was written and reach its blocking read.
const SETTLE: Duration = Duration::from_millis(500);

/// Runs qa-report with `args` on a stdin pipe that gets `bytes` and then stays open and
/// silent, and sends it `sig` (`-INT`, `-TERM`).
fn cut(args: &[&str], bytes: &[u8], sig: &str) -> Output {
    let mut child = spawn(args, Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    let out = cut_after(child, &mut stdin, bytes, SETTLE, &[sig]);
    drop(stdin);
    out
}

/// Every file SHA256SUMS lists has the digest it lists; returns the names.
fn sums_match(dir: &Path) -> Vec<String> {
    let sums = fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    let mut listed = Vec::new();
    for line in sums.lines() {
        let (digest, name) = line.split_once("  ").unwrap();
        assert_eq!(
            digest,
            sha256_hex(&fs::read(dir.join(name)).unwrap()),
            "{name}"
        );
        listed.push(name.to_string());
    }
    listed.sort();
    listed
}

#[test]
fn sigint_on_a_fifo_cut_mid_flow_gives_130_a_cancelled_report_and_a_valid_folder() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("stream.fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let out_dir = dir.path().join("report");
    let child = spawn(
        &[
            "--in",
            fifo.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ],
        Stdio::null(),
    );
    let bytes = first_records(4);
    let mut writer = File::options().write(true).open(&fifo).unwrap();
    let out = cut_after(child, &mut writer, &bytes, SETTLE, &["-INT"]);
    drop(writer);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("qapipe change report: CANCELLED\n"),
        "{text}"
    );
    assert!(
        text.contains("CANCELLED, not a pass: SIGINT stopped qa-report after 4 records"),
        "{text}"
    );
    assert_eq!(
        sums_match(&out_dir),
        [
            "records.ndjson",
            "report.html",
            "report.json",
            "report.md",
            "report.sarif"
        ]
    );
    // Nothing already read is lost: the folder keeps the stream as it came.
    assert_eq!(fs::read(out_dir.join("records.ndjson")).unwrap(), bytes);
    let json: Value =
        serde_json::from_slice(&fs::read(out_dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["status"], "cancelled");
    assert_eq!(json["cancelled"], "SIGINT");
    assert_eq!(json["records"]["range"], 1);
}

#[test]
fn sigterm_on_a_pipe_cut_mid_flow_gives_143_and_a_json_report_marked_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("report");
    let out = cut(
        &["--format", "json", "--out", out_dir.to_str().unwrap()],
        &first_records(5),
        "-TERM",
    );
    assert_eq!(out.status.code(), Some(143), "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["status"], "cancelled");
    assert_eq!(json["cancelled"], "SIGTERM");
    assert_eq!(
        json["missing_stages"],
        serde_json::json!(["qa-route", "qa-trace"])
    );
    assert_eq!(
        fs::read(out_dir.join("report.json")).unwrap(),
        out.stdout,
        "stdout and the folder hold the same report"
    );
    sums_match(&out_dir);
}

#[test]
fn every_format_marks_a_cut_report_cancelled() {
    let bytes = first_records(4);
    let cuts = [
        ("text", "qapipe change report: CANCELLED"),
        ("markdown", "CANCELLED"),
        ("sarif", "\"executionSuccessful\": false"),
        (
            "github",
            "::error title=qapipe change report::qapipe: CANCELLED",
        ),
        ("codequality", "qapipe/cancelled"),
        ("agent", "\"cancelled\":\"SIGINT\""),
    ];
    // Each cut waits out the settle and the read grace: run them side by side.
    std::thread::scope(|scope| {
        let runs: Vec<_> = cuts
            .iter()
            .map(|&(format, says)| {
                let bytes = &bytes;
                (
                    format,
                    says,
                    scope.spawn(move || cut(&["--format", format], bytes, "-INT")),
                )
            })
            .collect();
        for (format, says, run) in runs {
            let out = run.join().unwrap();
            assert_eq!(out.status.code(), Some(130), "{format}: {}", stderr(&out));
            assert!(stdout(&out).contains(says), "{format}: {}", stdout(&out));
            assert!(out.stderr.is_empty(), "{format}: {}", stderr(&out));
        }
    });
}

#[test]
fn the_codequality_report_of_a_cut_stream_is_valid_against_its_schema() {
    let out = cut(&["--format", "codequality"], &first_records(4), "-INT");
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let issues: Value = serde_json::from_slice(&out.stdout).unwrap();
    qa_testkit::documents::assert_valid("codequality.schema.json", &issues);
    assert_eq!(issues[0]["check_name"], "qapipe/cancelled");
    assert_eq!(issues[0]["severity"], "blocker");
}

#[test]
fn the_html_report_of_a_cut_stream_has_a_cancelled_banner() {
    let dir = tempfile::tempdir().unwrap();
    let out = cut(
        &["--out", dir.path().to_str().unwrap()],
        &first_records(4),
        "-INT",
    );
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let html = fs::read_to_string(dir.path().join("report.html")).unwrap();
    assert!(html.contains("banner v-cancelled"), "{html}");
    assert!(html.contains("<h1>CANCELLED</h1>"), "{html}");
    let md = fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(md.contains("CANCELLED"), "{md}");
}

#[test]
fn a_whole_stream_is_not_marked_cancelled() {
    // Negative control: the same records, the flow finished, no signal.
    let dir = tempfile::tempdir().unwrap();
    let out = common::qa_report(
        &sample().stream.whole(),
        &["--format", "json", "--out", dir.path().to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["status"], "complete");
    assert_eq!(json["cancelled"], Value::Null);
}

#[test]
fn a_signal_before_any_range_record_is_one_line_and_no_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("report");
    // A whole record, but not a range: the change flow never started.
    let stream = sample().stream;
    let not_range = stream.records.iter().find(|r| r.kind != "range").unwrap();
    let mut bytes = not_range.to_line();
    bytes.push(b'\n');
    let out = cut(&["--out", out_dir.to_str().unwrap()], &bytes, "-INT");
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("SIGINT received while reading stdin"));
    assert!(!out_dir.exists());
}

#[test]
fn a_closed_stdout_still_gives_the_folder_and_130() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn(&["--out", dir.path().to_str().unwrap()], Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    drop(child.stdout.take());
    let out = cut_after(child, &mut stdin, &first_records(4), SETTLE, &["-INT"]);
    drop(stdin);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    sums_match(dir.path());
}

#[test]
fn a_second_signal_does_not_hang_or_lose_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn(&["--out", dir.path().to_str().unwrap()], Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    let out = cut_after(
        child,
        &mut stdin,
        &first_records(4),
        SETTLE,
        &["-INT", "-INT"],
    );
    drop(stdin);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(stdout(&out).contains("CANCELLED"));
    let json: Value =
        serde_json::from_slice(&fs::read(dir.path().join("report.json")).unwrap()).unwrap();
    assert_eq!(json["status"], "cancelled");
    sums_match(dir.path());
}

#[test]
fn records_finished_after_the_signal_still_reach_the_cancelled_report() {
    // The upstream stages got the same signal and write what they finished: qa-report
    // reads on for its grace period, here to the stream's end.
    let whole = sample().stream.whole();
    let fourth = whole
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(3)
        .unwrap()
        .0;
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn(
        &["--format", "json", "--out", dir.path().to_str().unwrap()],
        Stdio::piped(),
    );
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&whole[..=fourth]).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(SETTLE);
    signal(&child, "-INT");
    stdin.write_all(&whole[fourth + 1..]).unwrap();
    drop(stdin);
    let out = finished_within(child, BOUND);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["status"], "cancelled");
    assert_eq!(json["missing_stages"], serde_json::json!([]));
    assert_eq!(fs::read(dir.path().join("records.ndjson")).unwrap(), whole);
    sums_match(dir.path());
}
