//! `qa-fetch --env NAME`: the deployed build of a profile environment, read from its
//! sha_source, and read again by --verify (a deploy during the run makes it stale).

use crate::support;

use qa_records::envelope::Src;
use qa_records::{Kind, Record};
use serde_json::json;
use std::time::Duration;
use support::{of_kind, run, validate_all, Response, Server};

fn profile_line(url: &str, reader: serde_json::Value) -> String {
    let mut source = json!({ "url": url });
    for (k, v) in reader.as_object().unwrap() {
        source[k] = v.clone();
    }
    // A complete normalized profile (what `qa-profile --ndjson` writes), one environment.
    let data = json!({
        "project": "shop",
        "tracker": "none",
        "apps": {"storefront": {"framework": "react", "spec_dir": "e2e", "repo": "."}},
        "environments": {"qa": {
            "kind": "qa",
            "apps": {"storefront": url},
            "sha_source": source,
            "evidence_upload": "local"
        }},
        "auth": {"model": "dev-handoff", "playwright_min": "1.51.0", "storage_state": {"indexed_db": true}},
        "assertions": {"network_events": "allowed", "style": "mixed"},
        "selectors": {"testid_attribute": "data-testid"},
        "models": {"generation_approved": ["model-a"]},
        "sandbox": {"mode": {"env_var": "VITE_API_MODE", "value": "mocks"}}
    });
    let record = Record::new(Kind::Profile, "test/0", Vec::new(), Src::new(), data).unwrap();
    let mut line = String::from_utf8(record.to_line()).unwrap();
    line.push('\n');
    line
}

/// A server whose /version.json names `first` once and `then` afterwards.
fn deploying(first: &'static str, then: &'static str) -> Server {
    Server::start(move |_, n| {
        let commit = if n == 0 { first } else { then };
        Response::ok(format!("{{\"build\": {{\"commit\": \"{commit}\"}}}}"))
    })
}

#[test]
fn the_environments_build_is_read_from_its_json_path() {
    let server = deploying("abc1234", "abc1234");
    let dir = tempfile::tempdir().unwrap();
    let input = profile_line(
        &server.url("/version.json"),
        json!({"json_path": "build.commit"}),
    );
    let out = run(dir.path(), &["--env", "qa", "--allow-network"], input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    validate_all(&out);
    let build = &of_kind(&out, "build")[0]["data"];
    assert_eq!(build["value"], "abc1234");
    assert_eq!(build["status"], "captured");
    assert_eq!(build["format"], "commit");
}

#[test]
fn without_network_the_build_is_blocked_and_nothing_is_requested() {
    let server = deploying("abc1234", "abc1234");
    let dir = tempfile::tempdir().unwrap();
    let input = profile_line(
        &server.url("/version.json"),
        json!({"json_path": "build.commit"}),
    );
    let out = run(dir.path(), &["--env", "qa"], input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(of_kind(&out, "build")[0]["data"]["status"], "blocked");
    assert!(server.requests().is_empty());
}

#[test]
fn a_build_id_is_read_by_a_javascript_regex_and_warned_about() {
    let server =
        Server::start(|_, _| Response::ok("<script src=\"/assets/index-Zx9_q.js\"></script>"));
    let dir = tempfile::tempdir().unwrap();
    let input = profile_line(
        &server.url("/index.html"),
        json!({"regex": "assets/index-([A-Za-z0-9_-]+)\\.js", "format": "build-id"}),
    );
    let out = run(dir.path(), &["--env", "qa", "--allow-network"], input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(of_kind(&out, "build")[0]["data"]["value"], "Zx9_q");
    assert!(of_kind(&out, "diag")
        .iter()
        .any(|d| d["data"]["message"].as_str().unwrap().contains("build id")));
}

#[test]
fn an_unknown_environment_is_bad_input_naming_it() {
    let server = deploying("abc1234", "abc1234");
    let dir = tempfile::tempdir().unwrap();
    let input = profile_line(
        &server.url("/version.json"),
        json!({"json_path": "build.commit"}),
    );
    let out = run(
        dir.path(),
        &["--env", "production", "--allow-network"],
        input,
    );
    assert_eq!(out.code, 65);
    assert!(out.stderr.contains("production"), "{}", out.stderr);
}

#[test]
fn a_deploy_during_the_run_is_seen_by_verify() {
    let server = deploying("abc1234", "def5678");
    let dir = tempfile::tempdir().unwrap();
    let input = profile_line(
        &server.url("/version.json"),
        json!({"json_path": "build.commit"}),
    );
    let captured = run(dir.path(), &["--env", "qa", "--allow-network"], input);
    assert_eq!(captured.code, 0, "{}", captured.stderr);
    let verified = run(
        dir.path(),
        &["--verify", "--allow-network"],
        captured.stdout.clone(),
    );
    assert_eq!(verified.code, 0, "{}", verified.stderr);
    validate_all(&verified);
    let v = &of_kind(&verified, "build.verify")[0]["data"];
    assert_eq!(v["same"], false);
    assert_eq!(v["before"], "abc1234");
    assert_eq!(v["after"], "def5678");
}

#[test]
fn the_same_build_after_the_run_is_not_stale() {
    let server = deploying("abc1234", "abc1234");
    let dir = tempfile::tempdir().unwrap();
    let input = profile_line(
        &server.url("/version.json"),
        json!({"json_path": "build.commit"}),
    );
    let captured = run(dir.path(), &["--env", "qa", "--allow-network"], input);
    let verified = run(
        dir.path(),
        &["--verify", "--allow-network"],
        captured.stdout.clone(),
    );
    assert_eq!(of_kind(&verified, "build.verify")[0]["data"]["same"], true);
}

/// qa-fetch reading the build from a server whose body makes `(a+)+$` backtrack for
/// hours (40 `a`s and a `!`) under `--timeout SECS`, its input ended; the server and the
/// repository live as long as the returned values.
fn reading_a_backtracking_build(timeout: &str) -> (support::Started, Server, tempfile::TempDir) {
    let server = Server::start(|_, _| Response::ok(format!("{}!", "a".repeat(40))));
    let input = profile_line(&server.url("/index.html"), json!({"regex": "(a+)+$"}));
    let dir = tempfile::tempdir().unwrap();
    let args = ["--env", "qa", "--allow-network", "--timeout", timeout];
    let mut fetch = support::Started::new(dir.path(), &args, &[]);
    fetch.write(&input);
    fetch.close_stdin();
    (fetch, server, dir)
}

#[test]
fn a_regex_that_backtracks_for_hours_is_stopped_by_the_timeout_and_the_build_fails() {
    let (fetch, _server, _repo) = reading_a_backtracking_build("1");
    let ended = fetch.wait(Duration::from_secs(10));
    assert_eq!(ended.code, 0, "{}", ended.stderr);
    let records = ended.records();
    let build = qa_testkit::one(&records, "build");
    assert_eq!(build["status"], "failed");
    assert_eq!(build["value"], serde_json::Value::Null);
    assert_eq!(
        build["reason"],
        "regex `(a+)+$` did not finish within the 1 s timeout: the build is unverified"
    );
    qa_testkit::Schemas::get().validate_all(&records);
}

#[test]
fn sigint_stops_a_regex_that_backtracks_for_hours() {
    let (fetch, server, _repo) = reading_a_backtracking_build("300");
    assert!(support::eventually(Duration::from_secs(5), || {
        !server.requests().is_empty()
    }));
    // The response is in: the match is running.
    std::thread::sleep(Duration::from_millis(200));
    fetch.signal("INT");
    let ended = fetch.wait(Duration::from_secs(5));
    assert_eq!(ended.code, 130, "{}", ended.stderr);
    let records = ended.records();
    let build = qa_testkit::one(&records, "build");
    assert_eq!(build["status"], "cancelled");
    assert_eq!(
        build["reason"],
        "cancelled by SIGINT while reading the build"
    );
    assert_eq!(ended.kinds().last().unwrap(), "event");
    qa_testkit::Schemas::get().validate_all(&records);
}
