//! SIGINT and SIGTERM while a check runs: finished observations are kept, the rest are
//! written as cancelled, and qa-check exits 130 or 143.

use crate::common;

use common::server::Server;
use common::{observations, routed, url_target};
use qa_records::acceptance::TargetStatus;
use serde_json::json;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Starts qa-check on three checks (fast, slow, fast), sends `signal` once the slow
/// request reached the server, and returns the exit code, stdout and time to exit.
fn interrupted(signal: &str) -> (i32, Vec<u8>, Duration) {
    let server = Server::start();
    let stream = routed(
        &url_target(&server.url("/"), TargetStatus::Captured, None),
        &[
            json!({"id": "first", "kind": "http", "path": "/hello", "status": 200}),
            json!({"id": "slow", "kind": "http", "path": "/slow?ms=20000", "status": 200}),
            json!({"id": "last", "kind": "http", "path": "/hello", "status": 200}),
        ],
    );
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("routed.ndjson");
    std::fs::write(&input, stream.bytes()).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_qa-check"))
        .args(["--allow-network", "--timeout", "60", "--in"])
        .arg(&input)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    server.wait_for_slow_request();
    let sent = Instant::now();
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let code = out
        .status
        .code()
        .expect("qa-check exits, not killed by the signal");
    (code, out.stdout, sent.elapsed())
}

#[test]
fn sigint_mid_check_cancels_it_and_the_rest_and_exits_130() {
    let (code, stdout, took) = interrupted("-INT");
    assert_eq!(code, 130);
    assert!(took < Duration::from_secs(5), "took {took:?}");
    let records = qa_testkit::parse(&stdout);
    qa_testkit::Schemas::get().validate_all(
        &records
            .iter()
            .filter(|r| r["kind"] == "observation" || r["kind"] == "event")
            .cloned()
            .collect::<Vec<_>>(),
    );
    let obs = observations(&records);
    let statuses: Vec<&str> = obs.iter().map(|o| o["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["pass", "cancelled", "cancelled"]);
    assert_eq!(obs[1]["reason"], "cancelled by SIGINT");
    let events = qa_testkit::of_kind(&records, "event");
    let last = &events.last().unwrap()["data"];
    assert_eq!(last["phase"], "cancel");
    assert_eq!(last["detail"], "qa-check stopped on SIGINT");
}

#[test]
fn sigterm_mid_check_exits_143_with_cancelled_observations() {
    let (code, stdout, _) = interrupted("-TERM");
    assert_eq!(code, 143);
    let obs = observations(&qa_testkit::parse(&stdout));
    assert_eq!(obs.len(), 3);
    assert_eq!(obs[2]["status"], "cancelled");
    assert_eq!(obs[2]["reason"], "cancelled by SIGTERM");
}
