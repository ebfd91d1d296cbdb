//! Every read of an input qa-report does not control ends soon after SIGINT or SIGTERM
//! (exit 130 or 143) with one line, even while it blocks on an idle FIFO or pipe; devices
//! are refused as --in and an endless line from /dev/zero stops at the line limit.

use crate::common;

use common::signals::{cut_after, finished_within, signal, spawn as qa_report, BOUND};

use std::fs::File;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn mkfifo(dir: &Path) -> std::path::PathBuf {
    let fifo = dir.join("stream.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    fifo
}

/// Lets the child reach its blocking read.
fn settle() {
    std::thread::sleep(SETTLE);
}

const SETTLE: Duration = Duration::from_millis(300);

#[test]
fn verify_on_a_fifo_without_a_writer_exits_130_soon_after_sigint() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = mkfifo(dir.path());
    let child = qa_report(&["--verify", "--in", fifo.to_str().unwrap()], Stdio::null());
    settle();
    signal(&child, "-INT");
    let out = finished_within(child, BOUND);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("SIGINT received while reading"));
}

#[test]
fn verify_on_a_fifo_whose_writer_sends_nothing_exits_143_soon_after_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = mkfifo(dir.path());
    let child = qa_report(&["--verify", "--in", fifo.to_str().unwrap()], Stdio::null());
    // A writer that opens the FIFO and then stays silent: the read itself blocks.
    let writer = File::options().write(true).open(&fifo).unwrap();
    settle();
    signal(&child, "-TERM");
    let out = finished_within(child, BOUND);
    drop(writer);
    assert_eq!(out.status.code(), Some(143), "{}", stderr(&out));
    assert!(stderr(&out).contains("SIGTERM received while reading"));
}

#[test]
fn a_report_on_an_idle_stdin_pipe_stops_on_sigint_and_leaves_no_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    let mut child = qa_report(&["--out", out_dir.to_str().unwrap()], Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    let partial = &common::sample().stream.bytes()[..100];
    let out = cut_after(child, &mut stdin, partial, SETTLE, &["-INT"]);
    drop(stdin);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert!(!out_dir.exists());
}

#[test]
fn verify_of_an_endless_stream_stops_soon_after_sigterm() {
    let mut child = qa_report(&["--verify"], Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    // Endless lines, each a problem: the read loop itself must look for the signal.
    let writer = std::thread::spawn(move || {
        let lines = b"{}\n".repeat(4096);
        while stdin.write_all(&lines).is_ok() {}
    });
    settle();
    signal(&child, "-TERM");
    let out = finished_within(child, BOUND);
    assert_eq!(out.status.code(), Some(143), "{}", stderr(&out));
    writer.join().unwrap();
}

#[test]
fn a_device_as_in_is_refused_at_once() {
    for args in [
        &["--verify", "--in", "/dev/zero"][..],
        &["--in", "/dev/zero"][..],
    ] {
        let out = finished_within(qa_report(args, Stdio::null()), BOUND);
        assert_eq!(out.status.code(), Some(65), "{}", stderr(&out));
        assert_eq!(
            stderr(&out),
            "qa-report: error: /dev/zero is a device, not a record file (a regular file or a pipe)\n"
        );
    }
}

#[test]
fn dev_zero_on_stdin_stops_at_the_line_limit() {
    for args in [&["--verify"][..], &[][..], &["--format", "json"][..]] {
        let zero = File::open("/dev/zero").unwrap();
        let out = finished_within(qa_report(args, Stdio::from(zero)), Duration::from_secs(20));
        assert_eq!(out.status.code(), Some(65), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("stdin line 1: longer than the 16777216-byte line limit"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty());
    }
}
