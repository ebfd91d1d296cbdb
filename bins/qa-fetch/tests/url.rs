//! URL targets against a real HTTP server on 127.0.0.1: blocked without --allow-network,
//! status, body hash and headers with it; redirects, slow and oversize responses fail;
//! the --auth-env token is sent and never written anywhere.

use crate::support;

use qa_records::acceptance::TargetKind;
use qa_records::hash::sha256_hex;
use serde_json::Value;
use std::time::{Duration, Instant};
use support::{qa_fetch, run, spec, target, Response, Server};

const MIB: usize = 1 << 20;
const SECRET: &str = "tok-7f3a9c1e5b";

fn server() -> Server {
    Server::start(|path, _| match path {
        "/ok" => Response::ok("hello")
            .header("ETag", "\"v1\"")
            .header("X-Build-Id", "build-42"),
        "/moved" => Response::ok("").status(302).header("Location", "/ok"),
        "/leak" => Response::ok("")
            .status(301)
            .header("Location", &format!("/login?token={SECRET}")),
        "/slow" => Response::ok("late").delayed(Duration::from_secs(5)),
        "/big" => Response::ok(vec![b'x'; MIB + 1]),
        "/exact" => Response::ok(vec![b'x'; MIB]),
        "/missing" => Response::ok("not here").status(404),
        _ => Response::ok("").status(500),
    })
}

fn fetch(url: &str, args: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    target(&run(
        dir.path(),
        args,
        spec(TargetKind::Url, url, Some("op-label")),
    ))
}

#[test]
fn without_allow_network_the_url_is_blocked_and_never_requested() {
    let server = server();
    let data = fetch(&server.url("/ok"), &[]);
    assert_eq!(data["status"], "blocked");
    assert_eq!(data["reason"], "needs --allow-network");
    assert_eq!(data["sha256"], Value::Null);
    assert!(server.requests().is_empty());
}

#[test]
fn with_allow_network_status_body_hash_etag_and_build_id_are_captured() {
    let server = server();
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &["--allow-network"],
        spec(TargetKind::Url, &server.url("/ok"), Some("op-label")),
    );
    let data = target(&out);
    assert_eq!(data["status"], "captured");
    assert_eq!(data["http_status"], 200);
    assert_eq!(data["sha256"], sha256_hex(b"hello"));
    assert_eq!(data["etag"], "\"v1\"");
    assert_eq!(data["x_build_id"], "build-42");
    assert_eq!(data["build_id"], "op-label");
    let records = qa_testkit::parse(&out.stdout);
    assert_eq!(records[1]["src"]["body.sha256"], sha256_hex(b"hello"));
    support::validate_all(&out);
}

#[test]
fn an_error_status_is_recorded_as_observed() {
    let server = server();
    let data = fetch(&server.url("/missing"), &["--allow-network"]);
    assert_eq!(data["status"], "captured");
    assert_eq!(data["http_status"], 404);
    assert_eq!(data["etag"], Value::Null);
}

#[test]
fn a_redirect_is_rejected_and_not_followed() {
    let server = server();
    let data = fetch(&server.url("/moved"), &["--allow-network"]);
    assert_eq!(data["status"], "failed");
    assert_eq!(data["reason"], "redirect to /ok rejected");
    assert_eq!(data["http_status"], 302);
    assert_eq!(server.requests().len(), 1, "the redirect was followed");
}

#[test]
fn a_response_slower_than_the_timeout_fails() {
    let server = server();
    let started = Instant::now();
    let data = fetch(&server.url("/slow"), &["--allow-network", "--timeout", "1"]);
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(data["status"], "failed");
    assert_eq!(data["reason"], "timed out after the 1 s timeout");
}

#[test]
fn a_body_over_1_mib_fails_naming_the_limit() {
    let server = server();
    let data = fetch(&server.url("/big"), &["--allow-network"]);
    assert_eq!(data["status"], "failed");
    assert_eq!(data["reason"], "the body is over the 1 MiB limit");
}

#[test]
fn a_body_of_exactly_1_mib_is_captured() {
    let server = server();
    let data = fetch(&server.url("/exact"), &["--allow-network"]);
    assert_eq!(data["status"], "captured");
    assert_eq!(data["sha256"], sha256_hex(&vec![b'x'; MIB]));
}

#[test]
fn an_unreachable_server_fails_with_the_reason() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let data = fetch(&format!("http://127.0.0.1:{port}/"), &["--allow-network"]);
    assert_eq!(data["status"], "failed");
    assert!(
        data["reason"]
            .as_str()
            .unwrap()
            .starts_with("request failed"),
        "{data}"
    );
}

#[test]
fn a_proxy_from_the_environment_is_not_used() {
    let server = server();
    let dir = tempfile::tempdir().unwrap();
    let out = qa_fetch()
        .invocation()
        .arg("--repo")
        .arg(dir.path())
        .arg("--allow-network")
        .env("http_proxy", "http://127.0.0.1:9")
        .env("HTTP_PROXY", "http://127.0.0.1:9")
        .env("ALL_PROXY", "http://127.0.0.1:9")
        .stdin(spec(TargetKind::Url, &server.url("/ok"), None))
        .run();
    assert_eq!(target(&out)["status"], "captured");
}

fn with_token(url: &str) -> qa_testkit::Run {
    with_token_value(url, SECRET)
}

fn with_token_value(url: &str, token: &str) -> qa_testkit::Run {
    let dir = tempfile::tempdir().unwrap();
    qa_fetch()
        .invocation()
        .arg("--repo")
        .arg(dir.path())
        .args(["--allow-network", "--auth-env", "QA_TOKEN"])
        .env("QA_TOKEN", token)
        .stdin(spec(TargetKind::Url, url, None))
        .run()
}

#[test]
fn the_auth_env_token_is_sent_as_a_bearer_header() {
    let server = server();
    let out = with_token(&server.url("/ok"));
    assert_eq!(target(&out)["status"], "captured");
    let requests = server.requests();
    assert!(
        requests[0]
            .to_ascii_lowercase()
            .contains(&format!("authorization: bearer {SECRET}").to_ascii_lowercase()),
        "{requests:?}"
    );
}

#[test]
fn the_token_never_appears_in_records_or_stderr_even_when_a_server_echoes_it() {
    let server = server();
    let out = with_token(&server.url("/leak"));
    let data = target(&out);
    assert_eq!(data["status"], "failed");
    assert_eq!(
        data["reason"],
        "redirect to /login?token=[redacted] rejected"
    );
    assert!(!out.text().contains(SECRET));
    assert!(!out.stderr.contains(SECRET));
}

#[test]
fn without_the_token_the_redirect_reason_keeps_its_location() {
    let server = server();
    let data = fetch(&server.url("/leak"), &["--allow-network"]);
    assert_eq!(
        data["reason"],
        format!("redirect to /login?token={SECRET} rejected").as_str()
    );
}

#[test]
fn an_unset_auth_env_variable_is_exit_64_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &["--auth-env", "QA_TOKEN"], "");
    assert_eq!(out.code, 64);
    assert_eq!(
        out.stderr.trim(),
        "qa-fetch: error: --auth-env QA_TOKEN: the environment variable QA_TOKEN is not set"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_token_with_a_line_break_is_exit_64_without_showing_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = qa_fetch()
        .invocation()
        .arg("--repo")
        .arg(dir.path())
        .args(["--allow-network", "--auth-env", "QA_TOKEN"])
        .env("QA_TOKEN", format!("{SECRET}\r\nX-Injected: 1"))
        .run();
    assert_eq!(out.code, 64);
    assert!(out.stderr.contains("--auth-env QA_TOKEN"), "{}", out.stderr);
    assert!(!out.stderr.contains(SECRET));
}

#[test]
fn an_event_stream_is_captured_by_its_head_without_waiting_for_its_end() {
    use std::io::Write as _;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().unwrap();
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: ping\n\n";
        conn.write_all(head.as_bytes()).unwrap();
        // The stream stays open far past the timeout, as a server's event stream does.
        std::thread::sleep(Duration::from_secs(30));
    });
    let started = Instant::now();
    let data = fetch(&url, &["--allow-network", "--timeout", "5"]);
    assert_eq!(data["status"], "captured", "{data:#}");
    assert_eq!(data["http_status"], 200);
    assert_eq!(data["sha256"], sha256_hex(b""));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_plain_body_is_still_read_to_its_end() {
    let server = server();
    let data = fetch(&server.url("/ok"), &["--allow-network"]);
    assert_eq!(data["sha256"], sha256_hex(b"hello"));
}

/// The request lines the server received.
fn request_lines(server: &Server) -> Vec<String> {
    server
        .requests()
        .iter()
        .map(|r| r.lines().next().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn an_mcp_endpoint_target_is_identified_by_its_origin_and_never_fetched() {
    let server = server();
    let dir = tempfile::tempdir().unwrap();
    let mcp = support::check(
        serde_json::json!({"id": "m", "criterion": "k", "kind": "mcp", "tool": "set_volume"}),
    );
    let stdin = format!("{}{mcp}", spec(TargetKind::Url, &server.url("/mcp"), None));
    let out = run(dir.path(), &["--allow-network"], stdin.clone());
    let data = target(&out);
    assert_eq!(data["status"], "captured", "{data:#}");
    assert_eq!(data["value"], server.url("/mcp"));
    assert_eq!(request_lines(&server), ["GET / HTTP/1.1"]);
    // --verify recaptures it the same way.
    let captured = String::from_utf8(out.stdout.clone()).unwrap();
    let verify = run(dir.path(), &["--verify", "--allow-network"], captured);
    assert_eq!(verify.code, 0, "{}", verify.stderr);
    assert!(request_lines(&server)
        .iter()
        .all(|l| !l.starts_with("GET /mcp")));
}

#[test]
fn a_url_target_an_http_check_reads_is_fetched_itself() {
    let server = server();
    let dir = tempfile::tempdir().unwrap();
    let http = support::check(
        serde_json::json!({"id": "h", "criterion": "k", "kind": "http", "status": 200}),
    );
    let stdin = format!("{}{http}", spec(TargetKind::Url, &server.url("/ok"), None));
    run(dir.path(), &["--allow-network"], stdin);
    assert_eq!(request_lines(&server), ["GET /ok HTTP/1.1"]);
}

/// A server that says back what it received in the Authorization header, as servers
/// read it (trimmed): after `Bearer ` as the X-Build-Id, whole as the ETag, and
/// percent-encoded in a redirect's query on `/moved`.
fn echoing_the_token() -> Server {
    Server::answering(|request, _| {
        let sent = request.header("authorization").unwrap_or_default();
        let token = sent.strip_prefix("Bearer").unwrap_or(sent).trim();
        match request.path {
            "/moved" => Response::ok("").status(302).header(
                "Location",
                &format!("/login?token={}", token.replace(' ', "%20")),
            ),
            _ => Response::ok("hello")
                .header("X-Build-Id", token)
                .header("ETag", sent),
        }
    })
}

#[test]
fn a_token_with_surrounding_spaces_is_exit_64_in_one_line_and_never_sent() {
    let server = echoing_the_token();
    for token in [
        format!(" spaced {SECRET} "),
        format!("{SECRET} "),
        format!(" {SECRET}"),
    ] {
        let out = with_token_value(&server.url("/ok"), &token);
        assert_eq!(out.code, 64, "{}", out.stderr);
        assert_eq!(
            out.stderr,
            "qa-fetch: error: --auth-env QA_TOKEN: the value of QA_TOKEN starts or ends with a space, which a server would trim: remove it\n"
        );
        assert!(out.stdout.is_empty());
    }
    assert!(server.requests().is_empty(), "the token was sent");
}

#[test]
fn a_token_a_server_echoes_into_the_build_id_and_etag_is_redacted() {
    let server = echoing_the_token();
    let token = format!("spaced {SECRET}");
    let out = with_token_value(&server.url("/ok"), &token);
    let data = target(&out);
    assert_eq!(data["status"], "captured", "{data:#}");
    assert_eq!(data["x_build_id"], "[redacted]");
    assert_eq!(data["etag"], "Bearer [redacted]");
    assert!(!out.text().contains(SECRET), "{}", out.text());
}

#[test]
fn a_token_a_server_echoes_percent_encoded_is_redacted() {
    let server = echoing_the_token();
    let token = format!("spaced {SECRET}");
    let out = with_token_value(&server.url("/moved"), &token);
    let data = target(&out);
    assert_eq!(
        data["reason"],
        "redirect to /login?token=[redacted] rejected"
    );
    assert!(!out.text().contains(SECRET), "{}", out.text());
    assert!(!out.stderr.contains(SECRET));
}
