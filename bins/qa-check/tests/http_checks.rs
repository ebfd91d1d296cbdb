//! HTTP checks against a real server on 127.0.0.1 started by each test.

use crate::common;

use common::server::{Server, HELLO};
use common::{observations, only_observation, qa_check, records, routed, url_target};
use qa_records::acceptance::TargetStatus;
use qa_testkit::Run;
use serde_json::{json, Value};

fn run_checks(server: &Server, checks: &[Value], flags: &[&str]) -> Run {
    let target = url_target(&server.url("/"), TargetStatus::Captured, None);
    qa_check()
        .invocation()
        .args(flags)
        .stdin(routed(&target, checks).bytes())
        .run()
}

fn one(server: &Server, check: Value) -> Value {
    only_observation(&run_checks(server, &[check], &["--allow-network"]))
}

#[test]
fn the_expected_status_and_text_pass_with_the_body_as_evidence() {
    let server = Server::start();
    let obs = one(
        &server,
        json!({"id": "hello", "kind": "http", "path": "/hello", "status": 200, "contains": "visitor"}),
    );
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert_eq!(
        obs["expected"],
        "GET /hello: status 200 and body contains \"visitor\""
    );
    assert_eq!(obs["observed"], "status 200; body contains \"visitor\"");
    assert_eq!(obs["evidence"]["url"], server.url("/hello"));
    assert_eq!(obs["evidence"]["http_status"], 200);
    assert_eq!(obs["evidence"]["excerpt"], HELLO);
    assert_eq!(
        obs["evidence"]["sha256"],
        qa_records::hash::sha256_hex(HELLO.as_bytes())
    );
    assert_eq!(obs["evidence"]["bytes"], HELLO.len());
    assert_eq!(obs["evidence"]["truncated"], false);
}

#[test]
fn a_check_without_a_path_gets_the_origin_root() {
    let server = Server::start();
    let obs = one(
        &server,
        json!({"id": "root", "kind": "http", "contains": "home"}),
    );
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert_eq!(obs["evidence"]["url"], server.url("/"));
}

#[test]
fn another_status_than_expected_fails() {
    let server = Server::start();
    let obs = one(
        &server,
        json!({"id": "gone", "kind": "http", "path": "/missing", "status": 200}),
    );
    assert_eq!(obs["status"], "fail");
    assert_eq!(obs["observed"], "status 404");
    assert_eq!(obs["evidence"]["http_status"], 404);
}

#[test]
fn an_expected_404_passes() {
    let server = Server::start();
    let obs = one(
        &server,
        json!({"id": "gone", "kind": "http", "path": "/missing", "status": 404}),
    );
    assert_eq!(obs["status"], "pass");
}

#[test]
fn missing_text_fails_even_with_the_right_status() {
    let server = Server::start();
    let obs = one(
        &server,
        json!({"id": "hello", "kind": "http", "path": "/hello", "status": 200, "contains": "Goodbye"}),
    );
    assert_eq!(obs["status"], "fail");
    assert_eq!(
        obs["observed"],
        "status 200; body does not contain \"Goodbye\""
    );
}

#[test]
fn a_redirect_is_rejected_not_followed() {
    let server = Server::start();
    let obs = one(
        &server,
        json!({"id": "moved", "kind": "http", "path": "/moved", "status": 200}),
    );
    assert_eq!(obs["status"], "fail", "{obs:#}");
    assert_eq!(obs["observed"], "status 302; redirect to /login rejected");
    // Only the one request: /login was never asked for.
    assert_eq!(server.requests(), 1);
}

#[test]
fn a_body_over_one_mebibyte_is_read_to_the_cap_and_marked_truncated() {
    let server = Server::start();
    let obs = one(
        &server,
        json!({"id": "big", "kind": "http", "path": "/big", "status": 200}),
    );
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert_eq!(obs["evidence"]["truncated"], true);
    assert_eq!(obs["evidence"]["bytes"], 1 << 20);
    assert_eq!(
        obs["evidence"]["sha256"],
        qa_records::hash::sha256_hex(&vec![b'a'; 1 << 20])
    );
    assert_eq!(
        obs["evidence"]["excerpt"].as_str().unwrap().chars().count(),
        4096
    );
    assert!(obs["observed"]
        .as_str()
        .unwrap()
        .contains("body truncated at 1048576 bytes"));
}

#[test]
fn text_past_the_cap_is_unverified_not_failed() {
    let server = Server::start();
    let obs = one(
        &server,
        json!({"id": "big", "kind": "http", "path": "/big", "contains": "TAIL"}),
    );
    assert_eq!(obs["status"], "unverified", "{obs:#}");
    assert!(obs["reason"]
        .as_str()
        .unwrap()
        .contains("not in the part read"));
}

#[test]
fn text_within_the_cap_of_a_truncated_body_passes() {
    let server = Server::start();
    let obs = one(
        &server,
        json!({"id": "big", "kind": "http", "path": "/big", "contains": "aaaa"}),
    );
    assert_eq!(obs["status"], "pass", "{obs:#}");
}

#[test]
fn a_slow_response_past_the_plan_deadline_is_unverified_and_so_is_every_later_check() {
    let server = Server::start();
    let started = std::time::Instant::now();
    let run = run_checks(
        &server,
        &[
            json!({"id": "slow", "kind": "http", "path": "/slow?ms=4000", "status": 200}),
            json!({"id": "hello", "kind": "http", "path": "/hello", "status": 200}),
        ],
        &["--allow-network", "--timeout", "1"],
    );
    let obs = observations(&records(&run, 0));
    assert!(
        started.elapsed().as_secs_f64() < 3.5,
        "{:?}",
        started.elapsed()
    );
    for o in &obs {
        assert_eq!(o["status"], "unverified", "{o:#}");
        assert_eq!(o["reason"], "timed out");
    }
    assert_eq!(obs.len(), 2);
}

#[test]
fn a_slow_response_within_the_deadline_passes() {
    let server = Server::start();
    let run = run_checks(
        &server,
        &[json!({"id": "slow", "kind": "http", "path": "/slow?ms=300", "contains": "ok"})],
        &["--allow-network", "--timeout", "5"],
    );
    assert_eq!(only_observation(&run)["status"], "pass");
}

#[test]
fn a_refused_connection_is_an_error() {
    // Bind then drop: nothing listens on the port afterwards.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let target = url_target(
        &format!("http://127.0.0.1:{port}/"),
        TargetStatus::Captured,
        None,
    );
    let run = qa_check()
        .invocation()
        .arg("--allow-network")
        .stdin(
            routed(
                &target,
                &[json!({"id": "h", "kind": "http", "status": 200})],
            )
            .bytes(),
        )
        .run();
    let obs = only_observation(&run);
    assert_eq!(obs["status"], "error", "{obs:#}");
    assert!(obs["reason"]
        .as_str()
        .unwrap()
        .starts_with("GET http://127.0.0.1:"));
}

#[test]
fn a_reply_that_is_not_http_is_an_error() {
    let server = Server::start();
    let obs = one(
        &server,
        json!({"id": "junk", "kind": "http", "path": "/garbage", "status": 200}),
    );
    assert_eq!(obs["status"], "error", "{obs:#}");
}

#[test]
fn a_cross_origin_path_is_an_error_and_sends_nothing() {
    let server = Server::start();
    let obs = one(
        &server,
        json!({"id": "away", "kind": "http", "path": "//evil.test/steal", "status": 200}),
    );
    assert_eq!(obs["status"], "error");
    assert!(obs["reason"].as_str().unwrap().contains("same origin"));
    assert_eq!(server.requests(), 0);
}

#[test]
fn without_allow_network_an_http_check_is_unverified_and_sends_nothing() {
    let server = Server::start();
    let run = run_checks(
        &server,
        &[json!({"id": "hello", "kind": "http", "path": "/hello", "status": 200})],
        &[],
    );
    let obs = only_observation(&run);
    assert_eq!(obs["status"], "unverified");
    assert_eq!(obs["reason"], "needs --allow-network");
    assert_eq!(server.requests(), 0);
}

#[test]
fn the_bearer_token_is_sent_but_never_written_anywhere() {
    const TOKEN: &str = "s3cr3t-t0ken-value";
    let server = Server::start();
    let target = url_target(&server.url("/"), TargetStatus::Captured, None);
    let stream = routed(
        &target,
        &[
            json!({"id": "echo", "kind": "http", "path": "/echo-auth", "contains": "Bearer"}),
            json!({"id": "moved", "kind": "http", "path": "/moved", "status": 200}),
        ],
    );
    let run = qa_check()
        .invocation()
        .env("QA_CHECK_TEST_TOKEN", TOKEN)
        .args(["--allow-network", "--auth-env", "QA_CHECK_TEST_TOKEN"])
        .stdin(stream.bytes())
        .run();
    let obs = observations(&records(&run, 0));
    assert_eq!(obs[0]["status"], "pass", "{:#}", obs[0]);
    // The server echoed exactly the token after `Bearer `: it was sent, then redacted.
    assert_eq!(obs[0]["evidence"]["excerpt"], "you sent: Bearer [redacted]");
    assert_eq!(obs[1]["status"], "fail");
    assert!(!run.text().contains(TOKEN), "the token leaked to stdout");
    assert!(!run.stderr.contains(TOKEN), "the token leaked to stderr");
}

#[test]
fn without_auth_env_no_authorization_header_is_sent() {
    let server = Server::start();
    let obs = one(
        &server,
        json!({"id": "echo", "kind": "http", "path": "/echo-auth", "contains": "Bearer"}),
    );
    assert_eq!(obs["status"], "fail");
    assert_eq!(obs["evidence"]["excerpt"], "you sent: ");
}

#[test]
fn one_keep_alive_connection_serves_a_run_of_checks() {
    let server = Server::start();
    let checks: Vec<Value> = (0..10)
        .map(|i| json!({"id": format!("c{i}"), "kind": "http", "path": "/hello", "status": 200}))
        .collect();
    let run = run_checks(&server, &checks, &["--allow-network"]);
    let obs = observations(&records(&run, 0));
    assert!(obs.iter().all(|o| o["status"] == "pass"));
    assert_eq!(server.requests(), 10);
    assert_eq!(server.connections(), 1);
}

#[test]
fn an_https_target_is_requested_over_tls() {
    // Nothing listens on port 1: the TLS request is attempted and the observation breaks
    // (error), it is never skipped as unsupported.
    let target = url_target("https://127.0.0.1:1/", TargetStatus::Captured, None);
    let run = qa_check()
        .invocation()
        .arg("--allow-network")
        .stdin(
            routed(
                &target,
                &[json!({"id": "h", "kind": "http", "status": 200})],
            )
            .bytes(),
        )
        .run();
    let obs = only_observation(&run);
    assert_eq!(obs["status"], "error", "{obs}");
    assert_eq!(obs["evidence"]["url"], "https://127.0.0.1:1/");
}
