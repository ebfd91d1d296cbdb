//! --help, usage errors and the man page, which must not drift from --help.

use crate::common;

use common::server::Server;
use common::{qa_check, url_target};
use qa_records::acceptance::TargetStatus;
use serde_json::json;
use std::path::Path;

#[test]
fn help_usage_errors_and_missing_input_follow_the_stage_contract() {
    qa_testkit::cli::assert_stage_basics(
        env!("CARGO_BIN_EXE_qa-check"),
        &[
            "--allow-network",
            "--timeout <SECONDS>",
            "--auth-env <NAME>",
            "--repo <DIR>",
            "130",
        ],
    );
}

#[test]
fn man_page_matches_help() {
    use qa_check::cli;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../man/qa-check.1");
    qa_cli::man::assert_current(&path, cli::command(), cli::EXAMPLES, cli::EXIT_STATUS);
}

#[test]
fn a_timeout_over_five_minutes_is_a_usage_error() {
    let run = qa_check().invocation().args(["--timeout", "301"]).run();
    assert_eq!(run.code, 64, "{}", run.stderr);
    assert!(run.stderr.contains("--timeout 301"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
}

#[test]
fn a_timeout_of_exactly_five_minutes_is_accepted() {
    let run = qa_check().invocation().args(["--timeout", "300"]).run();
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn a_missing_repo_directory_is_66() {
    let run = qa_check()
        .invocation()
        .args(["--repo", "/nonexistent/project"])
        .run();
    assert_eq!(run.code, 66, "{}", run.stderr);
}

#[test]
fn an_unset_auth_variable_is_64_before_any_request() {
    let server = Server::start();
    let target = url_target(&server.url("/"), TargetStatus::Captured, None);
    let stream = common::routed(
        &target,
        &[json!({"id": "hello", "kind": "http", "path": "/hello", "status": 200})],
    );
    let run = qa_check()
        .invocation()
        .env_remove("QA_CHECK_TEST_TOKEN")
        .args(["--allow-network", "--auth-env", "QA_CHECK_TEST_TOKEN"])
        .stdin(stream.bytes())
        .run();
    assert_eq!(run.code, 64, "{}", run.stderr);
    assert!(
        run.stderr.contains("QA_CHECK_TEST_TOKEN is not set"),
        "{}",
        run.stderr
    );
    assert_eq!(server.requests(), 0);
}

#[test]
fn a_token_with_surrounding_spaces_is_64_before_any_request() {
    // A server trims the header value, so `/echo-auth` would say the token back in a form
    // that redacting the value as given would miss.
    let server = Server::start();
    let target = url_target(&server.url("/"), TargetStatus::Captured, None);
    let stream = common::routed(
        &target,
        &[json!({"id": "echo", "kind": "http", "path": "/echo-auth", "contains": "Bearer"})],
    );
    let run = qa_check()
        .invocation()
        .env("QA_CHECK_TEST_TOKEN", " spaced s3cr3t-t0ken ")
        .args(["--allow-network", "--auth-env", "QA_CHECK_TEST_TOKEN"])
        .stdin(stream.bytes())
        .run();
    assert_eq!(run.code, 64, "{}", run.text());
    assert!(
        run.stderr
            .contains("QA_CHECK_TEST_TOKEN starts or ends with a space"),
        "{}",
        run.stderr
    );
    assert!(!run.text().contains("s3cr3t-t0ken"), "{}", run.text());
    assert!(!run.stderr.contains("s3cr3t-t0ken"));
    assert_eq!(server.requests(), 0);
}
