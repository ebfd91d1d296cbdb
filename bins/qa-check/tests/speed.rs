//! The speed budget: 100 HTTP checks against a local server in under 2 s wall.

use crate::common;

use common::server::Server;
use common::{observations, qa_check, records, routed, url_target};
use qa_records::acceptance::TargetStatus;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

#[test]
fn a_hundred_http_checks_finish_in_under_two_seconds() {
    let server = Server::start();
    let checks: Vec<Value> = (0..100)
        .map(|i| json!({"id": format!("c{i}"), "kind": "http", "path": "/hello", "status": 200, "contains": "ok"}))
        .collect();
    let stream = routed(
        &url_target(&server.url("/"), TargetStatus::Captured, None),
        &checks,
    );
    let started = Instant::now();
    let run = qa_check()
        .invocation()
        .arg("--allow-network")
        .stdin(stream.bytes())
        .run();
    let took = started.elapsed();
    let obs = observations(&records(&run, 0));
    assert_eq!(obs.len(), 100);
    assert!(obs.iter().all(|o| o["status"] == "pass"));
    assert!(took < Duration::from_secs(2), "took {took:?}");
}
