//! Cancellation with real processes and a real server: records pass through as they
//! arrive, SIGINT/SIGTERM stop an in-flight URL capture at once, and the stream left
//! behind shows the plan, the criteria and a `cancelled` target for what was not captured.

use crate::support;

use qa_records::acceptance::TargetKind;
use std::time::Duration;
use support::{criterion, eventually, plan, spec, Response, Server, Started};

/// The generous bound for "at once" on a loaded machine.
const BOUND: Duration = Duration::from_secs(5);

/// A server that sends the head and 10 of 100 body bytes on `/stall`, then nothing for a
/// minute; `/ok` answers at once.
fn stalling() -> Server {
    Server::start(|path, _| match path {
        "/stall" => Response::ok(vec![b'x'; 100]).stalled(10, Duration::from_secs(60)),
        _ => Response::ok("hello"),
    })
}

/// A plan, a criterion and two url targets (the first stalls), input ended; signalled
/// once the first request is in flight.
fn signalled_mid_capture(signal: &str) -> (support::Ended, Server) {
    let server = stalling();
    let dir = tempfile::tempdir().unwrap();
    let mut fetch = Started::new(dir.path(), &["--allow-network", "--timeout", "300"], &[]);
    fetch.write(&plan("plan.json", &"0".repeat(64)));
    fetch.write(&criterion("c1", "ticket.md", &"1".repeat(64)));
    fetch.write(&spec(TargetKind::Url, &server.url("/stall"), None));
    fetch.write(&spec(TargetKind::Url, &server.url("/ok"), None));
    fetch.close_stdin();
    assert!(
        eventually(BOUND, || !server.requests().is_empty()),
        "the capture never started"
    );
    fetch.signal(signal);
    (fetch.wait(BOUND), server)
}

#[test]
fn sigint_during_a_stalled_url_capture_exits_130_at_once() {
    let (ended, _server) = signalled_mid_capture("INT");
    assert_eq!(ended.code, 130, "{}", ended.stderr);
    assert!(ended.waited < BOUND, "{:?}", ended.waited);
}

#[test]
fn sigterm_during_a_stalled_url_capture_exits_143_at_once() {
    let (ended, _server) = signalled_mid_capture("TERM");
    assert_eq!(ended.code, 143, "{}", ended.stderr);
    let last = ended.records().pop().unwrap();
    assert_eq!(last["data"]["phase"], "cancel");
    assert_eq!(last["data"]["detail"], "SIGTERM");
}

#[test]
fn a_cancelled_capture_leaves_the_plan_criteria_and_a_cancelled_target_for_each_url() {
    let (ended, server) = signalled_mid_capture("INT");
    assert_eq!(
        ended.kinds(),
        [
            "plan",
            "criterion",
            "target.spec",
            "target.spec",
            "target",
            "event",
            "target",
            "event",
            "event"
        ],
        "{}",
        String::from_utf8_lossy(&ended.stdout)
    );
    let records = ended.records();
    let targets: Vec<_> = records.iter().filter(|r| r["kind"] == "target").collect();
    assert_eq!(targets[0]["data"]["value"], server.url("/stall"));
    assert_eq!(targets[0]["data"]["status"], "cancelled");
    assert_eq!(
        targets[0]["data"]["reason"],
        "cancelled by SIGINT during the capture"
    );
    assert_eq!(targets[1]["data"]["status"], "cancelled");
    assert_eq!(
        targets[1]["data"]["reason"],
        "cancelled by SIGINT before the capture"
    );
    assert_eq!(
        server.requests().len(),
        1,
        "a capture began after the signal"
    );
    qa_testkit::Schemas::get().validate_all(&records);
}

#[test]
fn records_pass_through_as_they_arrive_while_the_input_is_still_open() {
    let dir = tempfile::tempdir().unwrap();
    let mut fetch = Started::new(dir.path(), &[], &[]);
    fetch.write(&plan("plan.json", &"0".repeat(64)));
    let first = fetch.next_line(BOUND).expect("the plan was held back");
    assert!(first.contains("\"kind\":\"plan\""), "{first}");
    fetch.write(&criterion("c1", "ticket.md", &"1".repeat(64)));
    let second = fetch.next_line(BOUND).expect("the criterion was held back");
    assert!(second.contains("\"kind\":\"criterion\""), "{second}");
    fetch.close_stdin();
    assert_eq!(fetch.wait(BOUND).code, 0);
}

#[test]
fn a_file_target_is_written_as_soon_as_it_is_captured() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "hi").unwrap();
    let mut fetch = Started::new(dir.path(), &[], &[]);
    fetch.write(&spec(TargetKind::File, "index.html", None));
    let lines: Vec<String> = (0..3).filter_map(|_| fetch.next_line(BOUND)).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[1].contains("\"kind\":\"target\""), "{}", lines[1]);
    fetch.close_stdin();
    assert_eq!(fetch.wait(BOUND).code, 0);
}

#[test]
fn sigint_while_the_input_stays_open_without_data_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let mut fetch = Started::new(dir.path(), &[], &[]);
    fetch.write(&plan("plan.json", &"0".repeat(64)));
    assert!(fetch.next_line(BOUND).is_some());
    fetch.signal("INT");
    let ended = fetch.wait(BOUND);
    assert_eq!(ended.code, 130, "{}", ended.stderr);
    assert_eq!(ended.kinds(), ["plan", "event"]);
}

#[test]
fn sigint_while_opening_a_fifo_nobody_writes_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("in.ndjson");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let fetch = Started::new(dir.path(), &["--in", fifo.to_str().unwrap()], &[]);
    assert!(fetch.catching_signals());
    fetch.signal("INT");
    let ended = fetch.wait(BOUND);
    assert_eq!(ended.code, 130, "{}", ended.stderr);
}

#[test]
fn sigint_during_a_stalled_recapture_in_verify_exits_130_at_once() {
    // Captured once, then the server stalls: --verify's recapture hangs until the signal.
    let server = Server::start(|_, n| match n {
        0 => Response::ok("hello"),
        _ => Response::ok(vec![b'x'; 100]).stalled(10, Duration::from_secs(60)),
    });
    let dir = tempfile::tempdir().unwrap();
    let captured = support::run(
        dir.path(),
        &["--allow-network"],
        spec(TargetKind::Url, &server.url("/"), None),
    );
    assert_eq!(captured.code, 0, "{}", captured.stderr);
    let args = ["--verify", "--allow-network", "--timeout", "300"];
    let mut verify = Started::new(dir.path(), &args, &[]);
    verify.write(captured.text());
    verify.close_stdin();
    assert!(eventually(BOUND, || server.requests().len() == 2));
    verify.signal("INT");
    let ended = verify.wait(BOUND);
    assert_eq!(ended.code, 130, "{}", ended.stderr);
    assert_eq!(ended.kinds(), ["target.spec", "target", "event", "event"]);
    assert_eq!(ended.records()[3]["data"]["phase"], "cancel");
}
