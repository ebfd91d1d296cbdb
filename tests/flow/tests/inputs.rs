//! Every stage against inputs it does not control and outputs that fail, with real parts:
//! a silent pipe and a FIFO stopped by real SIGINT/SIGTERM, `/dev/zero` on stdin, a
//! stream that never ends, and stdout on `/dev/full`. Each ends within a bounded time with
//! its documented exit code and one line on stderr, keeping what it already wrote.

use crate::common;
use common::*;
use qa_testkit::process::wait_until;

use std::io::{Read as _, Write as _};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The stages that read a record stream on stdin through the shared reader.
const FILTERS: [&str; 4] = ["qa-intent", "qa-route", "qa-trace", "qa-check"];

/// A record of a kind no stage owns: every stage forwards it untouched.
const NOTE: &str = r#"{"kind":"x-note","v":1,"id":"sha256:0000000000000000000000000000000000000000000000000000000000000000","by":"test","from":[],"src":{},"data":{}}"#;

/// Bound on "stops within a second" that holds on a loaded two-core machine.
const BOUND: Duration = Duration::from_secs(5);

fn stage(name: &str) -> Command {
    Command::new(Program::built(name).path())
}

/// Starts `command` with stdin, stdout and stderr piped.
fn spawn(mut command: Command) -> Child {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting the stage")
}

/// Waits until `pid` catches SIGINT and SIGTERM (its handlers are installed), so a signal
/// sent next is noted rather than fatal.
fn wait_for_handlers(pid: u32) {
    wait_until("the stage's signal handlers", BOUND, || {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & (1 << 1) != 0 && mask & (1 << 14) != 0)
    });
}

fn kill(signal: &str, pid: u32) {
    let sent = Command::new("kill")
        .args(["-s", signal, &pid.to_string()])
        .status()
        .expect("running kill");
    assert!(sent.success(), "kill -s {signal} {pid}");
}

/// What a stage left when it ended.
struct Ended {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Waits for `child` at most [`BOUND`] from `since`, killing it (and failing) past that.
fn ended(mut child: Child, since: Instant) -> Ended {
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let stdout = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let stderr = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if since.elapsed() > BOUND {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("the stage still ran {BOUND:?} after it should have stopped");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Ended {
        code: status.code(),
        took: since.elapsed(),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

// --- signals while waiting for input -------------------------------------------------

/// Starts `command`, writes `before` on its stdin, sends `signal` once the handlers are in
/// place, then writes `after` and closes stdin; with `after` None, stdin stays open and
/// silent until the stage ended.
fn signal_midway(command: Command, before: &[&str], signal: &str, after: Option<&[&str]>) -> Ended {
    let mut child = spawn(command);
    let mut stdin = child.stdin.take().unwrap();
    for line in before {
        writeln!(stdin, "{line}").unwrap();
    }
    wait_for_handlers(child.id());
    let signalled = Instant::now();
    kill(signal, child.id());
    let held = match after {
        None => Some(stdin),
        Some(after) => {
            std::thread::sleep(Duration::from_millis(50));
            for line in after {
                writeln!(stdin, "{line}").unwrap();
            }
            drop(stdin);
            None
        }
    };
    let ended = ended(child, signalled);
    drop(held);
    ended
}

#[test]
fn every_stage_waiting_on_a_silent_pipe_stops_on_sigterm_keeping_what_it_forwarded() {
    for name in FILTERS {
        // The writer never closes the pipe: only the signal ends the stage.
        let ended = signal_midway(stage(name), &[NOTE], "TERM", None);
        assert_eq!(ended.code, Some(143), "{name}: {}", ended.stderr);
        assert_eq!(
            ended.stderr,
            format!("{name}: error: stdin: cancelled by SIGTERM after line 1\n")
        );
        assert_eq!(ended.stdout, format!("{NOTE}\n"), "{name}");
        assert!(ended.took < BOUND, "{name} took {:?}", ended.took);
    }
}

#[test]
fn a_stage_waiting_on_a_silent_pipe_stops_on_sigint_with_130() {
    let ended = signal_midway(stage("qa-route"), &[], "INT", None);
    assert_eq!(ended.code, Some(130), "{}", ended.stderr);
    assert_eq!(
        ended.stderr,
        "qa-route: error: stdin: cancelled by SIGINT before its first line\n"
    );
}

#[test]
fn records_upstream_finishes_within_the_grace_period_are_still_forwarded() {
    // Positive control for the grace period: the upstream stage got the same signal and
    // writes its last record before closing the pipe.
    let ended = signal_midway(stage("qa-route"), &[NOTE], "INT", Some(&[NOTE]));
    assert_eq!(ended.code, Some(130), "{}", ended.stderr);
    // Both forwarded, then what qa-route writes at the end of a stream.
    assert!(
        ended
            .stdout
            .starts_with(&format!("{NOTE}\n{NOTE}\n{{\"kind\":\"capability\"")),
        "{}",
        ended.stdout
    );
    assert_eq!(ended.stderr, "", "a finished stream is no error");
}

#[test]
fn a_stage_reading_a_stream_that_never_ends_stops_on_sigterm() {
    let mut child = spawn(stage("qa-trace"));
    let mut stdin = child.stdin.take().unwrap();
    // Valid records, as fast as the stage takes them, until it stops reading.
    let writer = std::thread::spawn(move || {
        let line = format!("{NOTE}\n");
        while stdin.write_all(line.as_bytes()).is_ok() {}
    });
    let mut stdout = child.stdout.take().unwrap();
    let drain = std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    wait_for_handlers(child.id());
    let signalled = Instant::now();
    kill("TERM", child.id());
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if signalled.elapsed() > BOUND {
            child.kill().unwrap();
            panic!("qa-trace still read an endless stream {BOUND:?} after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    writer.join().unwrap();
    drain.join().unwrap().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(143), "{stderr}");
    assert!(
        stderr.starts_with("qa-trace: error: stdin: cancelled by SIGTERM after line "),
        "{stderr}"
    );
}

#[test]
fn an_in_fifo_without_a_writer_stops_on_sigint() {
    let scratch = Repo::new();
    let fifo = scratch.outside().join("records.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let mut command = stage("qa-route");
    command.arg("--in").arg(&fifo);
    let ended = signal_midway(command, &[], "INT", None);
    assert_eq!(ended.code, Some(130), "{}", ended.stderr);
    assert_eq!(
        ended.stderr,
        format!(
            "qa-route: error: {}: cancelled by SIGINT before its first line\n",
            fifo.display()
        )
    );
}

// --- bounded lines -------------------------------------------------------------------

#[test]
fn every_stage_reading_dev_zero_stops_at_the_line_limit_with_exit_65() {
    for name in FILTERS {
        let mut command = stage(name);
        command.stdin(std::fs::File::open("/dev/zero").unwrap());
        command.stdout(Stdio::piped()).stderr(Stdio::piped());
        let started = Instant::now();
        let child = command.spawn().unwrap();
        let ended = ended(child, started);
        assert_eq!(ended.code, Some(65), "{name}: {}", ended.stderr);
        assert_eq!(
            ended.stderr,
            format!("{name}: error: stdin line 1: longer than the 16777216-byte line limit\n")
        );
        assert_eq!(ended.stdout, "", "{name}");
    }
}

// --- a full disk -----------------------------------------------------------------------

#[test]
fn every_stage_writing_to_a_full_disk_exits_74_not_70() {
    let mut repo = feature_repo(&[("src/cart.js", "export const total = 1;\n")]);
    commit_files(
        &mut repo,
        "feat: cart total counts items",
        &[("src/cart.js", "export const total = 2;\n")],
    );
    let stream = repo
        .run(&Program::built("qa-diff"))
        .args(["--base", "main"])
        .run()
        .success();
    repo.write_outside("diff.ndjson", &stream.stdout);
    let streamed = repo.outside().join("diff.ndjson");
    let profile = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../bins/qa-profile/tests/fixtures/golden.yaml");
    let runs: Vec<(&str, Vec<std::ffi::OsString>)> = vec![
        ("qa-diff", vec!["--base".into(), "main".into()]),
        ("qa-intent", vec![]),
        ("qa-route", vec![]),
        ("qa-trace", vec![]),
        ("qa-check", vec![]),
        ("qa-fetch", vec![]),
        ("qa-report", vec![]),
        ("qa-profile", vec![profile.into_os_string()]),
    ];
    for (name, args) in runs {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = stage(name)
            .args(&args)
            .current_dir(repo.path())
            .stdin(std::fs::File::open(&streamed).unwrap())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(74), "{name}: {stderr}");
        assert!(
            stderr.starts_with(&format!("{name}: error: ")) && stderr.lines().count() == 1,
            "{name}: {stderr}"
        );
        assert!(
            stderr.contains("No space left on device"),
            "{name}: {stderr}"
        );
        if FILTERS.contains(&name) || name == "qa-diff" {
            assert!(stderr.contains("writing stdout: "), "{name}: {stderr}");
        }
    }
}
