//! qa-check as a filter: what it forwards, where its records go, and that its
//! observations are the same on every run.

use crate::common;

use common::server::Server;
use common::{directory_target, qa_check, records, routed, run_in, url_target};
use qa_records::acceptance::TargetStatus;
use qa_testkit::Repo;
use serde_json::json;

#[test]
fn unknown_kinds_are_forwarded_byte_for_byte() {
    qa_testkit::filter::assert_forwards_unknown_kinds(env!("CARGO_BIN_EXE_qa-check"));
}

#[test]
fn a_malformed_line_stops_with_65_after_what_was_forwarded() {
    qa_testkit::filter::assert_malformed_line_is_65(env!("CARGO_BIN_EXE_qa-check"));
}

#[test]
fn a_check_spec_with_bad_data_is_65() {
    let mut stream = common::Stream::default();
    stream.push(qa_records::Kind::CheckSpec, vec![], json!({"id": "x"}));
    let run = qa_check().invocation().stdin(stream.bytes()).run();
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(run.stderr.contains("line 1"), "{}", run.stderr);
}

#[test]
fn the_input_comes_out_first_unchanged_then_observation_and_event_per_check() {
    let repo = Repo::new();
    repo.write("site/index.html", "Welcome");
    let stream = routed(
        &directory_target(&repo, "site", &[]),
        &[json!({"id": "f", "kind": "file", "path": "index.html", "contains": "Welcome"})],
    );
    let input = stream.bytes();
    let run = run_in(&repo, &stream, &[]);
    let all = records(&run, 0);
    assert!(run.stdout.starts_with(&input));
    let kinds: Vec<&str> = all.iter().map(|r| r["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "target.spec",
            "target",
            "check.spec",
            "route",
            "observation",
            "event"
        ]
    );
    let event = &all[5];
    assert_eq!(event["data"]["subject"], all[2]["id"]);
    assert_eq!(event["from"], json!([all[4]["id"]]));
    assert!(event["data"]["duration_ms"].is_u64());
}

#[test]
fn observations_are_byte_identical_across_runs_and_events_are_not_in_them() {
    let server = Server::start();
    let stream = routed(
        &url_target(&server.url("/"), TargetStatus::Captured, None),
        &[
            json!({"id": "a", "kind": "http", "path": "/hello", "contains": "ok"}),
            json!({"id": "b", "kind": "http", "path": "/missing", "status": 200}),
            json!({"id": "c", "kind": "http", "path": "/moved", "status": 200}),
            json!({"id": "d", "kind": "mcp", "tool": "x"}),
        ],
    );
    let lines = || {
        let run = qa_check()
            .invocation()
            .arg("--allow-network")
            .stdin(stream.bytes())
            .run();
        records(&run, 0);
        run.text()
            .lines()
            .filter(|l| l.contains("\"kind\":\"observation\""))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let first = lines();
    assert_eq!(first.len(), 4);
    assert_eq!(first, lines());
    assert!(first
        .iter()
        .all(|l| !l.contains("duration") && !l.contains("\"at\"")));
}

#[test]
fn progress_stays_off_stdout_and_off_a_piped_stderr() {
    let repo = Repo::new();
    repo.write("site/index.html", "Welcome");
    let stream = routed(
        &directory_target(&repo, "site", &[]),
        &[json!({"id": "f", "kind": "file", "path": "index.html", "contains": "Welcome"})],
    );
    let run = run_in(&repo, &stream, &[]);
    records(&run, 0);
    assert!(!run.text().contains("checks"));
    assert_eq!(run.stderr, "");
}

#[cfg(unix)]
#[test]
fn progress_is_shown_on_stderr_when_it_is_a_terminal() {
    // util-linux `script` gives the child a pseudo-terminal; stdout goes to a file.
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        panic!("this test needs util-linux `script` on PATH");
    }
    let repo = Repo::new();
    repo.write("site/index.html", "Welcome");
    let stream = routed(
        &directory_target(&repo, "site", &[]),
        &[
            json!({"id": "f", "kind": "file", "path": "index.html", "contains": "Welcome"}),
            json!({"id": "g", "kind": "file", "path": "index.html", "contains": "Hello"}),
        ],
    );
    std::fs::write(repo.path().join("in.ndjson"), stream.bytes()).unwrap();
    let command = format!(
        "'{}' --repo . --in in.ndjson > out.ndjson",
        env!("CARGO_BIN_EXE_qa-check")
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(repo.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let terminal = String::from_utf8_lossy(&out.stdout);
    assert!(terminal.contains("\rqa-check: 1/2 checks"), "{terminal:?}");
    assert!(terminal.contains("\rqa-check: 2/2 checks"), "{terminal:?}");
    let records = std::fs::read_to_string(repo.path().join("out.ndjson")).unwrap();
    assert!(!records.contains("qa-check:"));
    assert_eq!(records.lines().count(), 10);
}
