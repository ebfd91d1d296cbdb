//! qa-fetch as a filter: unknown records pass through byte for byte, bad input stops it
//! with exit 65, captures are deterministic, and a signal ends it with what was finished.

use crate::support;

use qa_records::acceptance::TargetKind;
use qa_testkit::filter;
use qa_testkit::process::piped;
use std::io::Write;
use std::process::Command;
use support::{of_kind, run, spec};

const BIN: &str = env!("CARGO_BIN_EXE_qa-fetch");

qa_testkit::filter_contract_tests!(BIN);

#[test]
fn a_stream_without_target_specs_gets_nothing_added() {
    let dir = tempfile::tempdir().unwrap();
    let input = [filter::UNKNOWN, b"\n"].concat();
    let out = run(dir.path(), &[], input.clone());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, input);
}

#[test]
fn the_target_follows_its_spec_and_names_it_in_from() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "hi").unwrap();
    let input = spec(TargetKind::File, "index.html", None);
    let out = run(dir.path(), &[], input.clone());
    let records = qa_testkit::parse(&out.stdout);
    assert_eq!(records[0]["kind"], "target.spec");
    assert_eq!(records[1]["kind"], "target");
    assert_eq!(records[1]["from"], serde_json::json!([records[0]["id"]]));
    assert_eq!(
        records[1]["src"]["manifest.sha256"],
        records[1]["data"]["sha256"]
    );
}

#[test]
fn each_capture_has_a_fetch_event_about_its_target() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("site")).unwrap();
    std::fs::write(dir.path().join("site/a.txt"), "a").unwrap();
    let out = run(dir.path(), &[], spec(TargetKind::Directory, "site", None));
    let target = &of_kind(&out, "target")[0];
    let events = of_kind(&out, "event");
    assert_eq!(events.len(), 1);
    let event = &events[0]["data"];
    assert_eq!(event["phase"], "fetch");
    assert_eq!(event["subject"], target["id"]);
    assert!(event["duration_ms"].is_u64());
    assert_eq!(event["detail"], "captured: 1 files");
    support::validate_all(&out);
}

#[test]
fn the_same_tree_gives_byte_identical_records_apart_from_events() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..50 {
        let path = dir.path().join(format!("site/d{}/f{i}.txt", i % 7));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, format!("file {i}")).unwrap();
    }
    let input = spec(TargetKind::Directory, "site", Some("b-1"));
    let without_events = |stdout: &[u8]| -> Vec<String> {
        String::from_utf8(stdout.to_vec())
            .unwrap()
            .lines()
            .filter(|l| !l.contains("\"kind\":\"event\""))
            .map(str::to_string)
            .collect()
    };
    let first = run(dir.path(), &[], input.clone());
    let second = run(dir.path(), &[], input);
    assert_eq!(
        without_events(&first.stdout),
        without_events(&second.stdout)
    );
    assert_eq!(without_events(&first.stdout).len(), 2);
}

#[test]
fn stdout_carries_only_records_and_stderr_stays_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &[], spec(TargetKind::File, "missing.txt", None));
    assert_eq!(out.code, 0);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    for line in out.text().lines() {
        qa_records::Envelope::parse(line.as_bytes()).unwrap();
    }
}

fn interrupted(signal: &str) -> (i32, Vec<serde_json::Value>) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "hi").unwrap();
    let (child, mut stdin) = piped(Command::new(BIN).arg("--repo").arg(dir.path()));
    stdin
        .write_all(spec(TargetKind::File, "index.html", None).as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    // Give it time to capture the first target, then signal while input is still open.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    (out.status.code().unwrap(), qa_testkit::parse(&out.stdout))
}

#[test]
fn sigint_keeps_the_finished_capture_and_exits_130() {
    let (code, records) = interrupted("INT");
    assert_eq!(code, 130);
    let kinds: Vec<&str> = records
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, vec!["target.spec", "target", "event", "event"]);
    assert_eq!(records[1]["data"]["status"], "captured");
    assert_eq!(records[3]["data"]["phase"], "cancel");
}

#[test]
fn sigterm_exits_143_with_a_cancel_event() {
    let (code, records) = interrupted("TERM");
    assert_eq!(code, 143);
    let last = records.last().unwrap();
    assert_eq!(last["data"]["phase"], "cancel");
    assert_eq!(last["data"]["detail"], "SIGTERM");
}
